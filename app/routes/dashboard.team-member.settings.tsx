// The same screen as /settings/team-member (one module per screen).
// biome-ignore format: a second path's re-export stays one line (docs/architecture.md)
export { action, default, ErrorBoundary, handle, loader, meta, shouldRevalidate } from './settings.$variant'
