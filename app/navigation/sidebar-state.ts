// The sidebar's open or collapsed state (roles-teams-admin.md §2.2, §9). It lives in a plain
// cookie rather than localStorage so the server can read it and the first paint already has the
// right width: no flash from expanded to collapsed after hydration.
import { parse } from 'cookie'

export const SIDEBAR_COOKIE = 'sidebar_state'
/** Spec §9: the state cookie lasts 7 days. */
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7
/** Spec §9: Ctrl or Cmd plus B. */
export const SIDEBAR_SHORTCUT_KEY = 'b'

/** Expanded unless the cookie says collapsed (a first visit gets the labels). */
export function readSidebarOpen(cookieHeader: string | null) {
  if (!cookieHeader) return true
  return parse(cookieHeader)[SIDEBAR_COOKIE] !== 'false'
}

/** The `document.cookie` assignment that remembers the state (UI state only: not HttpOnly). */
export function sidebarCookie(open: boolean, secure: boolean) {
  return `${SIDEBAR_COOKIE}=${open}; Path=/; Max-Age=${SIDEBAR_COOKIE_MAX_AGE}; SameSite=Lax${secure ? '; Secure' : ''}`
}
