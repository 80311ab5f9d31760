// The same screen as /settings/agency (one module per screen).
export { action, default, ErrorBoundary, loader, meta } from './settings.agency'
