// Spec §2.6: the path picks the variant; /settings/role and any other path show the default,
// the end-user variant (other roles reach their own through the sidebar and menu).
export { action, default, ErrorBoundary, handle, loader, meta } from './settings.end-user'
