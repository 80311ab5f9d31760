// The super-admin area's settings screen: one module renders every settings screen from its path.
// biome-ignore format: a second path's re-export stays one line (docs/architecture.md)
export { action, default, ErrorBoundary, handle, loader, meta, shouldRevalidate } from './settings.$variant'
