// The super-admin area's profile screen: one module renders every profile screen from its path.
// biome-ignore format: a second path's re-export stays one line (docs/architecture.md)
export { action, clientAction, default, ErrorBoundary, handle, loader, meta, shouldRevalidate } from './profile._index'
