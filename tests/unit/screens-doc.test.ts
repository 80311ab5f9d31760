// The screen list of docs/architecture-overview.md ("Screens of the spec") names every screen of
// accounts-cards-sharing.md §2, copied here from the spec, and the built team screens of
// roles-teams-admin.md, and every file it names exists.
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'

const SPEC_SCREENS: { screen: string; path: string }[] = [
  { screen: 'home', path: '`/`' },
  { screen: 'sign in', path: '`/auth/login`' },
  { screen: 'sign up', path: '`/auth/register`' },
  { screen: 'forgot password', path: '`/auth/forgot-password`' },
  { screen: 'reset password', path: '`/auth/reset-password`' },
  { screen: 'public card page', path: '`/card/{contactId}`, `/contact/{contactId}`' },
  { screen: 'not found', path: 'any unknown path' },
  { screen: 'profile', path: '`/profile`' },
  { screen: 'profile creation wizard', path: 'Profile creation wizard' },
  { screen: 'QR code screen', path: '`/qrcode`, `/qrcode/{cardId}`' },
  { screen: 'CRM integration', path: '`/api-settings`' },
  { screen: 'authentication guard', path: 'Authentication guard' },
  { screen: 'header and user menu', path: 'Header and user menu' },
  { screen: 'role dashboards', path: '`/dashboard/{super-admin,agency,team-member,end-user}`' },
  { screen: 'role profiles', path: '`/profile/{super-admin,agency,team-member,end-user}`' },
  { screen: 'role settings', path: '`/settings/{super-admin,agency,team-member,end-user}`' },
  { screen: 'digital cards tile target', path: '`/dashboard/end-user/digital-cards`' },
  { screen: 'card editor', path: '`…/digital-cards/edit/{cardId}`' },
  // roles-teams-admin.md §2.9, §2.10 and §4 (the invitation link).
  { screen: 'team page', path: '`/dashboard/end-user/team`' },
  { screen: 'team invitation', path: '`/invitations/{token}`, `/invitations/{token}/decline`' },
  // roles-teams-admin.md §2.12: the agency's people screens.
  { screen: 'agency team members', path: '`/dashboard/agency/team`' },
  { screen: 'agency end users', path: '`/dashboard/agency/users`' },
]

const guide = readFileSync('docs/architecture-overview.md', 'utf8')
const section = (() => {
  const start = guide.indexOf('## Screens of the spec')
  const end = guide.indexOf('\n## ', start + 1)
  return start === -1 ? '' : guide.slice(start, end === -1 ? undefined : end)
})()
const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| -'))

describe("the architecture overview's screen list", () => {
  test('exists', () => {
    expect(rows.length).toBeGreaterThan(SPEC_SCREENS.length)
  })

  test.each(SPEC_SCREENS.map((entry) => [entry.screen, entry]))(
    '%s has a row saying where it lives',
    (_name, { path }) => {
      const row = rows.find((line) => line.includes(path))
      expect(row, `no row for ${path}`).toBeDefined()
      const cells = (row ?? '').split(' | ')
      const where = cells.at(-1) ?? ''
      expect(/`app\/[^`]+`|not built yet: issue \d+|not built yet \(issue \d+\)/.test(where)).toBe(
        true,
      )
    },
  )

  test('every file it names exists', () => {
    const named = [...section.matchAll(/`(app\/[^`]+)`/g)].map((match) => match[1] ?? '')
    expect(named.length).toBeGreaterThan(20)
    const missing = named.filter((file) => !existsSync(file))
    expect(missing).toEqual([])
  })
})
