// The same screen as /settings/agency (one module per screen).
export {
  action,
  default,
  ErrorBoundary,
  handle,
  loader,
  meta,
  shouldRevalidate,
} from './settings.agency'
