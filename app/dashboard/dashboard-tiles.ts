// The tiles of the four role dashboards (issue 41 point 15, ADR 085): what each says and the list
// it opens. A tile with a list counts exactly the rows that list shows when opened from it: its
// loader and the list's read the same model function or the same filter, and
// tests/integration/dashboard-tiles.test.ts opens every tile's list below and compares, so a
// tile added here is checked without anyone remembering to. A tile without a list is a figure no
// screen lists row by row (views, the last 7 days' contacts, every card of an agency).
// Client-safe: the dashboards' screens read the labels and links from here.
import type { RoleArea } from '#app/validation/roles'
import { TEAM_PAGE_PATH } from '#app/validation/team-paths'

/** The list a tile opens: its URL and where its rows are in that list loader's data. */
export type TileList = {
  path: string
  /** The rows' array in the list's loader data, by a dotted path ('users', 'selected.members'). */
  rows: string
  /** Set when the tile counts a number of each row (cards of each end user), not the rows. */
  sum?: string
}

export type TileDefinition = {
  id: string
  label: string
  /** Null: a figure that no list shows row by row. */
  list: TileList | null
}

/** A tile's figure: a count, or a count of the last 7 days with the 7 days before. */
export type TileValue = number | { current: number; previous: number }

const views = { id: 'views', label: 'Card views (last 7 days)', list: null } as const
const contacts = { id: 'contacts', label: 'Contacts gained (last 7 days)', list: null } as const

export const DASHBOARD_TILES = {
  'super-admin': [
    {
      id: 'agencies',
      label: 'Agencies',
      list: { path: '/dashboard/super-admin/agencies', rows: 'agencies' },
    },
    {
      // The End Users list shows every account but the platform's staff; the tile counts end
      // users, so it opens the list on them.
      id: 'end-users',
      label: 'End users',
      list: { path: '/dashboard/super-admin/users?role=end_user', rows: 'users' },
    },
    { id: 'cards', label: 'Digital cards', list: null },
    views,
  ],
  agency: [
    {
      id: 'end-users',
      label: 'End users',
      list: { path: '/dashboard/agency/users', rows: 'users' },
    },
    {
      id: 'team-members',
      label: 'Team members',
      list: { path: '/dashboard/agency/team', rows: 'members' },
    },
    { id: 'cards', label: 'Digital cards', list: null },
    views,
  ],
  'team-member': [
    {
      id: 'end-users',
      label: 'Assigned end users',
      list: { path: '/dashboard/team-member/users', rows: 'users' },
    },
    {
      // My End Users shows how many cards each person has: the tile is their sum.
      id: 'cards',
      label: 'Their digital cards',
      list: { path: '/dashboard/team-member/users', rows: 'users', sum: 'cardCount' },
    },
    views,
    contacts,
  ],
  'end-user': [
    {
      id: 'cards',
      label: 'Digital cards',
      list: { path: '/dashboard/end-user/digital-cards', rows: 'cards' },
    },
    contacts,
    views,
    {
      // The people of one's teams, oneself included, as the Team page's members table lists them.
      id: 'team-members',
      label: 'Team members',
      list: { path: TEAM_PAGE_PATH, rows: 'selected.members' },
    },
  ],
} as const satisfies Record<RoleArea, readonly TileDefinition[]>

export type TileId<A extends RoleArea> = (typeof DASHBOARD_TILES)[A][number]['id']

/** A dashboard's figures by tile; a tile left out does not apply (a person in no team). */
export type TileValues<A extends RoleArea> = Partial<Record<TileId<A>, TileValue>>
