// The dashboards' layout route (roles-teams-admin.md §2.2): it reads the sidebar's cookie on the
// server, so the first paint has the remembered width, and /dashboard alone stays a 404 (§2.1).
import { describe, expect, test } from 'vitest'
import { loader } from '#app/routes/dashboard'
import {
  contextFor,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'

async function signedIn() {
  const organization = await makeOrganization()
  const user = await makeUser(organization.id, { role: 'team_admin' })
  const host = `${organization.slug}.localhost`
  return { host, cookie: await sessionCookieFor(organization.id, user.id) }
}

const open = (host: string, path: string, cookie?: string) =>
  settle(async () =>
    loader({
      request: requestFor(host, path, { headers: cookie ? { Cookie: cookie } : {} }),
      context: contextFor(host),
      params: {},
    }),
  )

describe('the dashboard layout loader', () => {
  test('hands the role and the remembered state to the page', async () => {
    const { host, cookie } = await signedIn()
    const fresh = await open(host, '/dashboard/team-member', cookie)
    // A team member answers no plan requests (ADR 079): no badge.
    expect(await fresh.json()).toEqual({ role: 'team_admin', sidebarOpen: true, planRequests: 0 })
    const collapsed = await open(host, '/dashboard/team-member', `${cookie}; sidebar_state=false`)
    expect(await collapsed.json()).toEqual({
      role: 'team_admin',
      sidebarOpen: false,
      planRequests: 0,
    })
  })

  test('/dashboard itself is not a page, signed in or out', async () => {
    const { host, cookie } = await signedIn()
    expect((await open(host, '/dashboard', cookie)).status).toBe(404)
    expect((await open(host, '/dashboard/', cookie)).status).toBe(404)
    expect((await open(host, '/dashboard')).status).toBe(404)
  })

  test('signed out, a page under it is sent to sign in', async () => {
    const { host } = await signedIn()
    const response = await open(host, '/dashboard/team-member/digital-cards')
    expect(response).toHaveRedirect(
      '/auth/login?redirectTo=%2Fdashboard%2Fteam-member%2Fdigital-cards',
    )
  })
})
