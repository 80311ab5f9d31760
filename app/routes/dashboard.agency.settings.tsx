// The same screen as /settings/agency (one module per screen).
export { action, default, ErrorBoundary, handle, loader, meta } from './settings.agency'
