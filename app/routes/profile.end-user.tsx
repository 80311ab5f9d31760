// The end-user area's profile screen: one module renders every profile screen from its path.
export {
  action,
  clientAction,
  default,
  ErrorBoundary,
  handle,
  loader,
  meta,
  shouldRevalidate,
} from './profile._index'
