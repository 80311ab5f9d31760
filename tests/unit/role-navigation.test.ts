// One navigation definition (issue 13 point 8): the sidebar, the user menu and the home tiles
// take their entries from app/navigation/role-navigation.ts, show the spec's entries for each
// role, agree wherever they name the same destination, and show only screens that exist.
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import {
  accountEntries,
  dashboardEntries,
  homeTiles,
  type NavEntry,
  sidebarNavigation,
  userMenuEntries,
} from '#app/navigation/role-navigation'
import { ROLES, type Role, rolePaths, settingsMenuPath } from '#app/validation/roles'

// roles-teams-admin.md §2.2, copied from the spec: label and target of each area's entries.
const SPEC_TABLE: Record<string, [string, string][]> = {
  'super-admin': [
    ['Overview', '/dashboard/super-admin'],
    ['Admin Team', '/dashboard/super-admin/team'],
    ['Agencies', '/dashboard/super-admin/agencies'],
    ['End Users', '/dashboard/super-admin/users'],
    ['System Settings', '/dashboard/super-admin/settings'],
  ],
  agency: [
    ['Overview', '/dashboard/agency'],
    ['Team Members', '/dashboard/agency/team'],
    ['End Users', '/dashboard/agency/users'],
    ['Branding', '/dashboard/agency/branding'],
    ['Settings', '/dashboard/agency/settings'],
  ],
  'team-member': [
    ['Overview', '/dashboard/team-member'],
    ['End Users', '/dashboard/team-member/users'],
    ['Digital Cards', '/dashboard/team-member/digital-cards'],
    ['QR Codes', '/qrcode'],
    ['Settings', '/dashboard/team-member/settings'],
  ],
  'end-user': [
    ['Overview', '/dashboard/end-user'],
    ['Team', '/dashboard/end-user/team'],
    ['Digital Cards', '/dashboard/end-user/digital-cards'],
    ['My QR Code', '/qrcode'],
    ['Settings', '/dashboard/end-user/settings'],
  ],
}

const areaOf = (role: Role) => rolePaths(role).dashboard.replace('/dashboard/', '')

/** The flat route module serving a path, if there is one (query dropped). */
function routeFileFor(to: string) {
  const path = to.split('?')[0] ?? ''
  const base = path === '/' ? '' : path.slice(1).split('/').join('.')
  const candidates = base
    ? [`${base}.tsx`, `${base}.ts`, `${base}._index.tsx`, `${base}._index.ts`]
    : ['_index.tsx']
  return candidates.find((file) => existsSync(`app/routes/${file}`)) ?? null
}

const allEntries = (role: Role): [string, NavEntry][] => [
  ...dashboardEntries(role).map((item) => ['sidebar', item] as [string, NavEntry]),
  ...accountEntries(role).map((item) => ['sidebar account', item] as [string, NavEntry]),
  ...userMenuEntries(role).map((item) => ['user menu', item] as [string, NavEntry]),
  ...homeTiles(role, { nfc: true }).map((item) => ['home tiles', item] as [string, NavEntry]),
]

describe.each(ROLES.map((role) => [role]))('%s', (role) => {
  test("the sidebar's Dashboard group is the spec's table, less the screens not built yet", () => {
    const table = SPEC_TABLE[areaOf(role)] ?? []
    expect(dashboardEntries(role).map((item) => [item.label, item.to])).toEqual(table)
    // Plus Contacts in the end-user area, after its QR code (issue 30 point 4).
    const built = dashboardEntries(role)
      .filter((item) => item.exists)
      .map((item) => item.label)
    if (areaOf(role) === 'end-user') built.splice(built.indexOf('My QR Code') + 1, 0, 'Contacts')
    // Plus Announcements in the agency area, after its End Users (issue 30 point 2), and Card
    // Templates after it (issue 31 point 1).
    if (areaOf(role) === 'agency') {
      built.splice(built.indexOf('End Users') + 1, 0, 'Announcements', 'Card Templates')
      // Plus Single Sign-On after Branding, for the agency admin only (issue 42, ADR 088).
      if (role === 'agency_admin') built.splice(built.indexOf('Branding') + 1, 0, 'Single Sign-On')
      // Plus Directory Sync after Card Templates, for the agency admin (issue 42, ADR 089).
      if (role === 'agency_admin') {
        built.splice(built.indexOf('Card Templates') + 1, 0, 'Directory Sync')
        // Plus API after Directory Sync, for the agency admin (issue 43, ADR 092).
        built.splice(built.indexOf('Directory Sync') + 1, 0, 'API')
        // Plus Webhooks after API, for the agency admin (issue 43, ADR 093).
        built.splice(built.indexOf('API') + 1, 0, 'Webhooks')
      }
    }
    // Plus Analytics after Overview, for every role (issue 41 point 8, ADR 082).
    built.splice(1, 0, 'Analytics')
    expect(sidebarNavigation(role).dashboard.map((item) => item.label)).toEqual(built)
    expect(sidebarNavigation(role).dashboard[0]?.label).toBe('Overview')
  })

  test('the Account group, the user menu and the home tiles are the ones the tests rely on', () => {
    const paths = rolePaths(role)
    // One Settings entry per role (issue 30 point 4): the Dashboard group's opens the same screen.
    expect(sidebarNavigation(role).account.map((item) => [item.label, item.to])).toEqual([
      ['Profile', paths.profile],
    ])
    const shown = [...sidebarNavigation(role).dashboard, ...sidebarNavigation(role).account]
    expect(shown.filter((item) => item.label.endsWith('Settings'))).toHaveLength(1)
    expect(userMenuEntries(role).map((item) => [item.label, item.to])).toEqual([
      ['Dashboard', paths.dashboard],
      ['Profile', paths.profile],
      ['Digital Cards', paths.digitalCards],
      ['Contacts', '/contacts'],
      ['Settings', settingsMenuPath(role)],
    ])
    if (role === 'super_admin') {
      // Admin tiles, not an end user's (issue 30 point 4): the sidebar's screens past Overview.
      expect(homeTiles(role, { nfc: true }).map((item) => [item.label, item.to])).toEqual(
        sidebarNavigation(role)
          .dashboard.slice(1)
          .map((item) => [item.label, item.to]),
      )
      return
    }
    expect(homeTiles(role, { nfc: false }).map((item) => [item.label, item.to])).toEqual([
      // The same screen as the menu's Profile (issue 41 point 11): /profile leads there too.
      ['Update Profile', paths.profile],
      ['Digital Cards', paths.digitalCards],
      ['QR Code', '/qrcode'],
      ['Contacts', '/contacts'],
    ])
    expect(homeTiles(role, { nfc: true }).map((item) => item.label)).toContain('NFC Sharing')
  })

  test('the tile and the menu open one profile screen, the sidebar the same (issue 41 point 11)', () => {
    const profiles = allEntries(role).filter(([, item]) => item.to.startsWith('/profile'))
    expect(new Set(profiles.map(([, item]) => item.to))).toEqual(new Set([rolePaths(role).profile]))
    const menu = userMenuEntries(role).find((item) => item.label === 'Profile')
    const tile = homeTiles(role, { nfc: false }).find((item) => item.label === 'Update Profile')
    if (tile) expect(tile.to).toBe(menu?.to)
  })

  test('the consumers agree: one destination, one target, wherever it appears', () => {
    const targets = new Map<string, { to: string; where: string }>()
    for (const [where, item] of allEntries(role)) {
      if (!item.exists) continue
      const seen = targets.get(item.id)
      if (seen) expect(item.to, `${item.id} in ${where} and ${seen.where}`).toBe(seen.to)
      else targets.set(item.id, { to: item.to, where })
    }
    // The sidebar's cards and QR entries are the very ones the menu and the tiles open.
    const shown = [...sidebarNavigation(role).dashboard, ...sidebarNavigation(role).account]
    for (const item of shown) {
      const elsewhere = [...userMenuEntries(role), ...homeTiles(role, { nfc: false })].find(
        (other) => other.to === item.to,
      )
      if (elsewhere) expect(elsewhere.id, `${item.label} → ${item.to}`).toBe(item.id)
    }
  })

  test('every entry marked built has a route file, and every one marked missing has none', () => {
    for (const [where, item] of allEntries(role)) {
      const file = routeFileFor(item.to)
      if (item.exists) {
        expect(file, `${where}: ${item.label} → ${item.to} has no route file`).not.toBeNull()
      } else {
        expect(
          file,
          `${where}: ${item.label} → ${item.to} is built now: set exists: true in app/navigation/role-navigation.ts`,
        ).toBeNull()
      }
    }
  })
})

test('the three consumers take their entries from the navigation module', () => {
  const sources = {
    'app/components/layout/app-sidebar.tsx': 'sidebarNavigation(',
    'app/components/layout/user-menu.tsx': 'userMenuEntries(',
    'app/routes/_index.tsx': 'homeTiles(',
  }
  for (const [file, call] of Object.entries(sources)) {
    const source = readFileSync(file, 'utf8')
    expect(source, file).toContain(call)
    // No target of their own beside the shared ones.
    expect(source, file).not.toMatch(/to=["'`{]+\/(profile|contacts|qrcode|dashboard|settings)/)
    expect(source, file).not.toMatch(/rolePaths\(|settingsMenuPath\(/)
  }
})
