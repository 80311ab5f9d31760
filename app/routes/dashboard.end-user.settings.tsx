// The same screen as /settings/end-user (one module per screen).
export { action, default, ErrorBoundary, handle, loader, meta } from './settings.end-user'
