// /contact/{id} is the same public card page as /card/{id} (spec §2).
export {
  action,
  clientAction,
  default,
  ErrorBoundary,
  handle,
  loader,
  meta,
  shouldRevalidate,
} from './card.$ref'
