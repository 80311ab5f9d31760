// The same screen as /settings/team-member (one module per screen).
export {
  action,
  default,
  ErrorBoundary,
  handle,
  loader,
  meta,
  shouldRevalidate,
} from './settings.team-member'
