// The same screen as /invitations/{token}; the module reads the answer from the path.
export {
  action,
  clientAction,
  default,
  headers,
  loader,
  meta,
  shouldRevalidate,
} from './invitations.$token'
