// The same screen as /settings/super-admin (one module per screen).
export {
  action,
  default,
  ErrorBoundary,
  handle,
  loader,
  meta,
  shouldRevalidate,
} from './settings.super-admin'
