// The same screen as /settings/end-user (one module per screen).
export {
  action,
  default,
  ErrorBoundary,
  handle,
  loader,
  meta,
  shouldRevalidate,
} from './settings.end-user'
