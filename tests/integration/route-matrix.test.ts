// Two matrices over every route module: roles × protected routes, and a user of tenant A
// against tenant B's resources on both hosts. A route file the matrices do not list fails.
import { createHash } from 'node:crypto'
import { readdirSync } from 'node:fs'
import type { AppLoadContext } from '@remix-run/node'
import { asc, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import type { Role } from '#app/auth/roles'
import { getDb } from '#drizzle/db.server'
import { contacts, digitalCards, media, users } from '#drizzle/schema'
import { databaseChecksum } from '#tests/checksum'
import {
  contextFor,
  formRequest,
  makeBrandedOrganization,
  makeCard,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'

type RouteModule = {
  loader?: (args: {
    request: Request
    context: AppLoadContext
    params: Record<string, string>
  }) => unknown
  action?: (args: {
    request: Request
    context: AppLoadContext
    params: Record<string, string>
  }) => unknown
}
const modules = import.meta.glob<RouteModule>('../../app/routes/*.{ts,tsx}')
const load = (file: string) => {
  const importer = modules[`../../app/routes/${file}`]
  if (!importer) throw new Error(`no route module ${file}`)
  return importer()
}

// Who may open each protected page ('any' = every signed-in role). Public routes: 'public'.
const ALL_ROLES: Role[] = [
  'super_admin',
  'super_admin_team',
  'agency_admin',
  'agency_member',
  'team_admin',
  'end_user',
]
const ACCESS: Record<string, Role[] | 'any' | 'public' | 'no-loader'> = {
  '$.tsx': 'public',
  '_index.tsx': 'public',
  'api.health-check.ts': 'public',
  'auth.forgot-password.tsx': 'public',
  'auth.login.tsx': 'public',
  'auth.logout.ts': 'public',
  'auth.register.tsx': 'public',
  'auth.reset-password.tsx': 'public',
  'card.$ref.tsx': 'public',
  'card._index.tsx': 'public',
  'card_.$ref.qr[.]png.ts': 'public',
  'card_.$ref.qr[.]svg.ts': 'public',
  'card_.$ref.vcard.ts': 'public',
  'contact.$ref.tsx': 'public',
  'media.$file.ts': 'public',
  'dev.outbox.tsx': 'public',
  'resources.upload.ts': 'no-loader',
  'contacts._index.tsx': 'any',
  'contacts.export[.]csv.ts': 'any',
  'contacts.export[.]vcf.ts': 'any',
  'onboarding.tsx': 'any',
  'profile._index.tsx': 'any',
  'qrcode._index.tsx': 'any',
  'qrcode.$cardId.tsx': 'any',
  'dashboard.agency._index.tsx': ['agency_admin', 'agency_member'],
  'dashboard.end-user._index.tsx': ['end_user', 'super_admin_team'],
  'dashboard.end-user.digital-cards._index.tsx': ['end_user', 'super_admin_team'],
  'dashboard.end-user.digital-cards.edit.$cardId.tsx': ['end_user', 'super_admin_team'],
  'dashboard.super-admin._index.tsx': ['super_admin'],
  'dashboard.team-member._index.tsx': ['team_admin'],
  'dashboard.team-member.digital-cards._index.tsx': ['team_admin'],
  'dashboard.team-member.digital-cards.edit.$cardId.tsx': ['team_admin'],
  'profile.agency.tsx': ['agency_admin', 'agency_member'],
  'profile.end-user.tsx': ['end_user', 'super_admin_team'],
  'profile.super-admin.tsx': ['super_admin'],
  'profile.team-member.tsx': ['team_admin'],
}

test('every route module is in the matrices', () => {
  const files = readdirSync('app/routes').sort()
  expect(files).toEqual(Object.keys(ACCESS).sort())
})

let tenantA: Awaited<ReturnType<typeof makeBrandedOrganization>>
let tenantB: Awaited<ReturnType<typeof makeBrandedOrganization>>
let hostA: string
let hostB: string
let cardB: { id: string }
let intruderCookie: string
const roleCookies = new Map<Role, { cookie: string; cardId: string }>()

beforeAll(async () => {
  tenantA = await makeBrandedOrganization({ primaryColor: '#111111' })
  tenantB = await makeBrandedOrganization({ primaryColor: '#222222' })
  hostA = `${tenantA.organization.slug}.localhost`
  hostB = `${tenantB.organization.slug}.localhost`
  for (const role of ALL_ROLES) {
    const user = await makeUser(tenantA.organization.id, { role })
    const card = await makeCard(tenantA.organization.id, user.id)
    roleCookies.set(role, {
      cookie: await sessionCookieFor(tenantA.organization.id, user.id),
      cardId: card.id,
    })
  }
  const ownerB = await makeUser(tenantB.organization.id, { firstName: 'Bea', lastName: 'Bee' })
  cardB = await makeCard(tenantB.organization.id, ownerB.id, { firstName: 'Bea', lastName: 'Bee' })
  const intruder = await makeUser(tenantA.organization.id, { role: 'end_user' })
  intruderCookie = await sessionCookieFor(tenantA.organization.id, intruder.id)
})

function paramsFor(file: string, cardId: string): { path: string; params: Record<string, string> } {
  const path =
    `/${file
      .replace(/\.(tsx|ts)$/, '')
      .replace('_index', '')
      .replace('card_.', 'card.')
      .replace('[.]', '.')
      .replaceAll('.', '/')
      .replace(/\$cardId|\$ref/, cardId)
      .replace(/\/qr\/(png|svg)$/, '/qr.$1')
      .replace(/\/export\/(csv|vcf)$/, '/export.$1')}`.replace(/\/+$/, '') || '/'
  return {
    path: path.replace('/$', '/nothing-here'),
    params: { cardId, ref: cardId, '*': 'nothing-here' },
  }
}

describe('role matrix: protected routes × roles', () => {
  const protectedRoutes = Object.entries(ACCESS).filter(
    ([, access]) => access === 'any' || Array.isArray(access),
  )
  for (const [file, access] of protectedRoutes) {
    test(`${file}: signed out is sent to sign in`, async () => {
      const mod = await load(file)
      const { path, params } = paramsFor(file, '00000000-0000-4000-8000-000000000000')
      const response = await settle(async () =>
        mod.loader?.({ request: requestFor(hostA, path), context: contextFor(hostA), params }),
      )
      expect(response.status).toBe(302)
      expect(response.headers.get('Location')).toMatch(/^\/auth\/login\?redirectTo=/)
    })
    for (const role of ALL_ROLES) {
      const allowed = access === 'any' || (access as Role[]).includes(role)
      test(`${file} as ${role} → ${allowed ? '200' : '403'}`, async () => {
        const mod = await load(file)
        const { cookie, cardId } = roleCookies.get(role) as { cookie: string; cardId: string }
        const { path, params } = paramsFor(file, cardId)
        const response = await settle(async () =>
          mod.loader?.({
            request: requestFor(hostA, path, { headers: { Cookie: cookie } }),
            context: contextFor(hostA),
            params,
          }),
        )
        if (allowed) {
          // The own card of the role exists, so edit and share pages answer 200 too.
          expect(response.status).toBe(200)
        } else {
          expect(response.status).toBe(403)
        }
      })
    }
  }
})

describe('no GET changes state', () => {
  // Opening a card page counts a view (spec: card analytics); that table is the one exception.
  test('every loader, for every role that may open it and signed out, writes nothing', async () => {
    const before = await databaseChecksum({ exclude: ['card_views'] })
    const visits: string[] = []
    for (const [file, access] of Object.entries(ACCESS)) {
      const mod = await load(file)
      if (!mod.loader) continue
      const roles = Array.isArray(access) ? access : ALL_ROLES
      for (const role of [undefined, ...roles]) {
        const own = role ? roleCookies.get(role) : undefined
        const { path, params } = paramsFor(
          file,
          own?.cardId ?? '00000000-0000-4000-8000-000000000000',
        )
        const headers: Record<string, string> = own ? { Cookie: own.cookie } : {}
        // Public loaders may return plain data (a 200) rather than a Response.
        const answer = await Promise.resolve(
          mod.loader?.({
            request: requestFor(hostA, path, { headers }),
            context: contextFor(hostA),
            params,
          }),
        ).catch((thrown: unknown) => {
          if (thrown instanceof Response) return thrown
          throw thrown
        })
        const status = answer instanceof Response ? answer.status : 200
        expect(status, `${file} as ${role ?? 'signed out'}`).toBeLessThan(500)
        visits.push(`${file} as ${role ?? 'signed out'}`)
      }
    }
    expect(visits.length).toBeGreaterThan(Object.keys(ACCESS).length)
    expect(await databaseChecksum({ exclude: ['card_views'] })).toEqual(before)
  })
})

async function checksumOfB() {
  const orgId = tenantB.organization.id
  const db = getDb()
  const rows = {
    users: await db
      .select()
      .from(users)
      .where(eq(users.organizationId, orgId))
      .orderBy(asc(users.id)),
    cards: await db
      .select()
      .from(digitalCards)
      .where(eq(digitalCards.organizationId, orgId))
      .orderBy(asc(digitalCards.id)),
    contacts: await db
      .select()
      .from(contacts)
      .where(eq(contacts.organizationId, orgId))
      .orderBy(asc(contacts.id)),
    media: await db
      .select({ id: media.id, hash: media.hash })
      .from(media)
      .where(eq(media.organizationId, orgId))
      .orderBy(asc(media.id)),
  }
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex')
}

describe('cross-tenant matrix: a user of A against B', () => {
  const reads: [string, (id: string) => string][] = [
    ['card.$ref.tsx', (id) => `/card/${id}`],
    ['contact.$ref.tsx', (id) => `/contact/${id}`],
    ['card_.$ref.vcard.ts', (id) => `/card/${id}/vcard`],
    ['card_.$ref.qr[.]png.ts', (id) => `/card/${id}/qr.png`],
    ['card_.$ref.qr[.]svg.ts', (id) => `/card/${id}/qr.svg`],
  ]
  for (const [file, pathOf] of reads) {
    for (const by of ['id', 'name'] as const) {
      test(`${file} by ${by} on A's host: 404`, async () => {
        const mod = await load(file)
        const ref = by === 'id' ? cardB.id : 'bea-bee'
        const response = await settle(async () =>
          mod.loader?.({
            request: requestFor(hostA, pathOf(ref), { headers: { Cookie: intruderCookie } }),
            context: contextFor(hostA),
            params: { ref },
          }),
        )
        expect(response.status).toBe(404)
      })
    }
  }

  test("B's media on A's host: 404", async () => {
    const mod = await load('media.$file.ts')
    const file = `${tenantB.logo.hash}.png`
    const response = await settle(async () =>
      mod.loader?.({
        request: requestFor(hostA, `/media/${file}`),
        context: contextFor(hostA),
        params: { file },
      }),
    )
    expect(response.status).toBe(404)
  })

  test("B's card in A's owner pages: not found, never shown", async () => {
    for (const file of [
      'qrcode.$cardId.tsx',
      'dashboard.end-user.digital-cards.edit.$cardId.tsx',
    ]) {
      const mod = await load(file)
      const response = await settle(async () =>
        mod.loader?.({
          request: requestFor(hostA, `/x/${cardB.id}`, { headers: { Cookie: intruderCookie } }),
          context: contextFor(hostA),
          params: { cardId: cardB.id },
        }),
      )
      expect(response.status).toBe(302)
      expect(response.headers.get('Location')).toBe('/dashboard/end-user/digital-cards')
    }
  })

  test("writes against B's card from A (on A's host and on B's host) change nothing", async () => {
    const before = await checksumOfB()
    const attempts: [string, string, Record<string, string>, Record<string, string>][] = [
      [
        'dashboard.end-user.digital-cards._index.tsx',
        '/dashboard/end-user/digital-cards',
        { intent: 'set-default', cardId: cardB.id },
        {},
      ],
      [
        'dashboard.end-user.digital-cards._index.tsx',
        '/dashboard/end-user/digital-cards',
        { intent: 'delete', cardId: cardB.id },
        {},
      ],
      [
        'dashboard.end-user.digital-cards.edit.$cardId.tsx',
        `/dashboard/end-user/digital-cards/edit/${cardB.id}`,
        { intent: 'details', title: 'x', firstName: 'x', lastName: 'x' },
        { cardId: cardB.id },
      ],
      [
        'dashboard.end-user.digital-cards.edit.$cardId.tsx',
        `/dashboard/end-user/digital-cards/edit/${cardB.id}`,
        { intent: 'background', kind: 'color', value: '#000000' },
        { cardId: cardB.id },
      ],
      ['card.$ref.tsx', `/card/${cardB.id}`, { intent: 'connect' }, { ref: cardB.id }],
      ['card.$ref.tsx', `/card/${cardB.id}`, { intent: 'save' }, { ref: cardB.id }],
      [
        'card.$ref.tsx',
        `/card/${cardB.id}`,
        { intent: 'lead', fullName: 'Sneaky', email: 'sneaky@example.test' },
        { ref: cardB.id },
      ],
      [
        'profile._index.tsx',
        '/profile',
        {
          intent: 'profile',
          firstName: 'x',
          lastName: 'y',
          email: 'bea@example.test',
          organizationId: tenantB.organization.id,
        },
        {},
      ],
    ]
    for (const host of [hostA, hostB]) {
      for (const [file, path, fields, params] of attempts) {
        const mod = await load(file)
        const response = await settle(async () =>
          mod.action?.({
            request: formRequest(host, path, fields, intruderCookie),
            context: contextFor(host),
            params,
          }),
        )
        if (host === hostA) {
          // On A's host B's card does not exist (404 or "not found" redirect); the profile
          // form only ever writes the intruder's own row.
          expect([302, 400, 404]).toContain(response.status)
        } else {
          // On B's host A's session is no session: sent to sign in, or (leads) a public form.
          expect([200, 302, 400, 404]).toContain(response.status)
        }
      }
    }
    // The lead form is public on B's host, so B legitimately received one lead; nothing else changed.
    const leads = await getDb()
      .select()
      .from(contacts)
      .where(eq(contacts.organizationId, tenantB.organization.id))
    expect(leads.map((c) => c.fullName)).toEqual(['Sneaky'])
    await getDb().delete(contacts).where(eq(contacts.organizationId, tenantB.organization.id))
    expect(await checksumOfB()).toBe(before)
  })
})
