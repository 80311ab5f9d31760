// The same screen as the end-user area's; the module reads the area from the path.
// biome-ignore format: a second path's re-export stays one line (docs/architecture.md)
export { default, ErrorBoundary, handle, loader, meta } from './dashboard.end-user.digital-cards.signature.$cardId'
