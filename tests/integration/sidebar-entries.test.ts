// Every entry of each role's sidebar opens for that role, on the host the role signs in on (the
// platform's roles on the platform host, the agency's on an agency host): not an error, not sent
// back to sign in. One browser journey (e2e/sidebar.spec.ts) shows the entries are rendered and
// followed; this covers the other roles, whose lists tests/unit/role-navigation.test.ts pins.
import { existsSync } from 'node:fs'
import { beforeAll, describe, expect, test } from 'vitest'
import { sidebarNavigation } from '#app/navigation/role-navigation'
import { ROLES, type Role, rolePaths } from '#app/validation/roles'
import {
  contextFor,
  getPlatformOrganization,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'
import { loadRoute } from '#tests/route-modules'

const PLATFORM_ROLES: Role[] = ['super_admin', 'super_admin_team']

/** The flat route module serving a path (query dropped), as the router would pick it. */
function routeFileFor(to: string) {
  const path = to.split('?')[0] ?? ''
  const base = path === '/' ? '' : path.slice(1).split('/').join('.')
  const candidates = base
    ? [`${base}.tsx`, `${base}.ts`, `${base}._index.tsx`, `${base}._index.ts`]
    : ['_index.tsx']
  const file = candidates.find((name) => existsSync(`app/routes/${name}`))
  if (!file) throw new Error(`no route module for ${to}`)
  return file
}

const signedIn = new Map<Role, { host: string; cookie: string }>()

beforeAll(async () => {
  const platform = await getPlatformOrganization()
  const agency = await makeOrganization()
  for (const role of ROLES) {
    const organization = PLATFORM_ROLES.includes(role) ? platform : agency
    const user = await makeUser(organization.id, { role })
    await makeCard(organization.id, user.id)
    signedIn.set(role, {
      host: PLATFORM_ROLES.includes(role) ? 'localhost' : `${organization.slug}.localhost`,
      cookie: await sessionCookieFor(organization.id, user.id),
    })
  }
})

describe.each(ROLES.map((role) => [role]))('%s', (role) => {
  test("each sidebar entry opens for the role, signed in on the role's host", async () => {
    const { host, cookie } = signedIn.get(role) as { host: string; cookie: string }
    const { dashboard, account } = sidebarNavigation(role)
    expect(dashboard[0]?.to).toBe(rolePaths(role).dashboard)
    for (const entry of [...dashboard, ...account]) {
      const mod = await loadRoute(routeFileFor(entry.to))
      const response = await settle(async () =>
        mod.loader?.({
          request: requestFor(host, entry.to, { headers: { Cookie: cookie } }),
          context: contextFor(host),
          params: {},
        }),
      )
      const cell = `${entry.label} → ${entry.to} (${response.status} ${response.headers.get('Location') ?? ''})`
      expect(response.status, cell).toBeLessThan(400)
      expect(response.headers.get('Location') ?? '', cell).not.toMatch(/^\/auth\/login/)
    }
    // The first role loads most of the route modules: slow on a loaded machine.
  }, 120_000)
})
