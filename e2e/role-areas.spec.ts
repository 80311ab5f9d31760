// Issue 14's acceptance: each role reaches every screen of its own area from the sidebar
// (roles-teams-admin.md §2.2, §2.11-§2.13) and none of another area's: those answer 403 with
// the tenant's branded "Access denied" page.
import { expect, test } from '@playwright/test'
import { urlFor } from './fixtures'
import { signedInAs } from './page-helpers'
import { ROLE_USERS, type RoleUser } from './role-users'

const AREAS = {
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
    ['Announcements', '/dashboard/agency/announcements'],
    ['Card Templates', '/dashboard/agency/templates'],
    ['Directory Sync', '/dashboard/agency/scim'],
    // The agency admin's own (ADR 092), after Directory Sync.
    ['API', '/dashboard/agency/api'],
    ['Webhooks', '/dashboard/agency/webhooks'],
    ['Branding', '/dashboard/agency/branding'],
    // The agency admin's own (ADR 088); this area's case signs in as the admin.
    ['Single Sign-On', '/dashboard/agency/sso'],
    ['Settings', '/dashboard/agency/settings'],
  ],
  'team-member': [
    ['Overview', '/dashboard/team-member'],
    ['End Users', '/dashboard/team-member/users'],
    ['Digital Cards', '/dashboard/team-member/digital-cards'],
    ['Settings', '/dashboard/team-member/settings'],
  ],
  'end-user': [
    ['Overview', '/dashboard/end-user'],
    ['Team', '/dashboard/end-user/team'],
    ['Digital Cards', '/dashboard/end-user/digital-cards'],
    ['Settings', '/dashboard/end-user/settings'],
  ],
} as const
type Area = keyof typeof AREAS
const PERSONAL_CARDS = '/dashboard/end-user/digital-cards'

const CASES: { role: RoleUser['role']; area: Area }[] = [
  { role: 'super_admin', area: 'super-admin' },
  { role: 'agency_admin', area: 'agency' },
  { role: 'team_admin', area: 'team-member' },
]

for (const { role, area } of CASES) {
  test(`${role} reaches every screen of the ${area} area from the sidebar and no other area`, async ({
    browser,
  }) => {
    test.setTimeout(120_000)
    const user = ROLE_USERS.find((candidate) => candidate.role === role)
    if (!user) throw new Error(`no e2e user with role ${role}`)
    const { context, page } = await signedInAs(browser, user, AREAS[area][0][1])
    const sidebar = page.getByRole('navigation', { name: 'Sidebar' })
    for (const [label, path] of AREAS[area]) {
      // The Dashboard group comes first; the Account group repeats 'Settings' (its own page).
      await sidebar.getByRole('link', { name: label, exact: true }).first().click()
      await expect(page).toHaveURL(urlFor(user.host, path))
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await expect(page.getByRole('heading', { name: 'Access denied' })).toHaveCount(0)
    }
    const dashboard = AREAS[area][0][1]
    let rendered = false
    for (const other of Object.keys(AREAS) as Area[]) {
      if (other === area) continue
      for (const [, path] of AREAS[other]) {
        // Everyone outside the team-member area keeps their own cards there (ADR 007).
        if (path === PERSONAL_CARDS && role !== 'team_admin') continue
        if (!rendered) {
          // The first refusal opened in the browser: the branded page, rendered and hydrated.
          const response = await page.goto(urlFor(user.host, path))
          expect(response?.status(), `${role} opening ${path}`).toBe(403)
          await expect(page.getByRole('heading', { name: 'Access denied' })).toBeVisible()
          await expect(page.getByRole('link', { name: 'Go to your dashboard' })).toHaveAttribute(
            'href',
            dashboard,
          )
          rendered = true
          continue
        }
        // The others as the server answers them, with the role's session: the same page (one
        // error boundary renders every refusal) without loading the app in the browser again.
        const { status, html } = await page.evaluate(
          async (url) => {
            const response = await fetch(url, { credentials: 'same-origin' })
            return { status: response.status, html: await response.text() }
          },
          urlFor(user.host, path),
        )
        expect(status, `${role} opening ${path}`).toBe(403)
        expect(html, `${role} opening ${path}`).toMatch(/<h1[^>]*>Access denied<\/h1>/)
        expect(html, `${role} opening ${path}`).toMatch(
          new RegExp(`<a [^>]*href="${dashboard}"[^>]*>Go to your dashboard</a>`),
        )
      }
    }
    expect(rendered).toBe(true)
    await context.close()
  })
}
