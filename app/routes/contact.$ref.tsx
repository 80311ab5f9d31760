// /contact/{id} is the same public card page as /card/{id} (spec §2).
// biome-ignore format: a second path's re-export stays one line (docs/architecture.md)
export { action, clientAction, default, ErrorBoundary, handle, loader, meta, shouldRevalidate } from './card.$ref'
