// Spec §2.4: a profile path other than the four role paths (/profile/role, /profile/anything)
// shows the default profile; the path picks the screen (app/profile/screens.ts).
// biome-ignore format: a second path's re-export stays one line (docs/architecture.md)
export { action, clientAction, default, ErrorBoundary, handle, loader, meta, shouldRevalidate } from './profile._index'
