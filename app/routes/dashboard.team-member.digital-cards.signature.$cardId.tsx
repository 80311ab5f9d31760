// The same screen as the end-user area's; the module reads the area from the path.
export {
  default,
  ErrorBoundary,
  handle,
  loader,
  meta,
} from './dashboard.end-user.digital-cards.signature.$cardId'
