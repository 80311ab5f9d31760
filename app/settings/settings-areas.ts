// The settings screens, one per role area (roles-teams-admin.md §2.6): /settings/{area}, and the
// dashboards' /dashboard/{area}/settings. One route module renders them all from the path, as the
// profile's screens do (app/profile/screens.ts); any other settings path shows the end user's
// screen, the spec's default, to whoever is signed in.
import type { RoleArea } from '#app/validation/roles'

export const SETTINGS_TITLES: Record<RoleArea, string> = {
  'end-user': 'Account Settings',
  'team-member': 'Team Member Settings',
  agency: 'Agency Settings',
  'super-admin': 'System Settings',
}

// The router matches paths without regard to case, and with a trailing slash.
const AREA_PATH = /^\/(?:settings\/([^/]+)|dashboard\/([^/]+)\/settings)\/?$/i

/** The area whose settings the path opens, or null for any other settings path. */
export function settingsAreaOfPath(pathname: string): RoleArea | null {
  const match = AREA_PATH.exec(pathname)
  const area = (match?.[1] ?? match?.[2])?.toLowerCase()
  return area && Object.hasOwn(SETTINGS_TITLES, area) ? (area as RoleArea) : null
}
