// The same screen as /invitations/{token}; the module reads the answer from the path.
// biome-ignore format: a second path's re-export stays one line (docs/architecture.md)
export { action, clientAction, default, headers, loader, meta, shouldRevalidate } from './invitations.$token'
