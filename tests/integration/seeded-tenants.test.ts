// Every seeded tenant resolves with its logo and favicon through the access path requests use
// in production: on Postgres, the app login (brandcard_app: not owner, no superuser, no
// BYPASSRLS) that prepareDatabase hands requests to; on PGlite, the same role switched to in
// every transaction. Row-level security hides media rows outside their tenant, so reading the
// branding images anywhere else comes back empty (issue: agency logos missing on Postgres).
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { requestPasswordReset } from '#app/auth/accounts.server'
import { DEMO_ORGANIZATIONS, seedDemo } from '#app/demo/seed.server'
import { resetEnvForTests } from '#app/env.server'
import { prepareDatabase } from '#app/prepare-database.server'
import { loader as mediaLoader } from '#app/routes/media.$file'
import { resolveTenant } from '#app/tenancy/tenant.server'
import { getDatabaseHandle, getDb, withTenant } from '#drizzle/db.server'
import { emailOutbox, media, organizations } from '#drizzle/schema'
import { TEST_APP_SECRET } from '#tests/app-secret'
import { rowsOf } from '#tests/checksum'
import { contextFor, requestFor, settleBackgroundWork } from '#tests/factories'

type Expected = { slug: string; host: string; logo: string; favicon: string; active: boolean }
let expected: Expected[] = []
const savedEnv = { ...process.env }

beforeAll(async () => {
  // As the owner: the demo, and the paths its branding images must resolve to.
  const owner = getDb()
  await seedDemo(owner)
  const rows = await owner
    .select({
      id: organizations.id,
      slug: organizations.slug,
      kind: organizations.kind,
      status: organizations.status,
      customDomain: organizations.customDomain,
      logoMediaId: organizations.logoMediaId,
      faviconMediaId: organizations.faviconMediaId,
    })
    .from(organizations)
  const images = await owner.select({ id: media.id, hash: media.hash, ext: media.ext }).from(media)
  const pathOf = (id: string | null) => {
    const row = images.find((m) => m.id === id)
    return row ? `/media/${row.hash}.${row.ext}` : ''
  }
  expected = rows.flatMap((row) => {
    const base = {
      slug: row.slug,
      logo: pathOf(row.logoMediaId),
      favicon: pathOf(row.faviconMediaId),
      active: row.status === 'active',
    }
    const hosts = [row.kind === 'platform' ? 'localhost' : `${row.slug}.localhost`]
    if (row.customDomain) hosts.push(row.customDomain)
    return hosts.map((host) => ({ ...base, host }))
  })

  if (getDatabaseHandle().driver === 'postgres') {
    // The production start-up: migrations and seed as the owner, then requests as the app login.
    process.env.DATABASE_URL = process.env.TEST_FILE_DATABASE_URL
    process.env.APP_SECRET = TEST_APP_SECRET
    process.env.DATABASE_APP_URL = ''
    resetEnvForTests()
    await prepareDatabase()
  }
})

afterAll(() => {
  process.env = { ...savedEnv }
  resetEnvForTests()
})

describe('seeded tenants through the app login', () => {
  test('requests run as a login that row-level security applies to', async () => {
    const [role] = rowsOf<{ name: string; superuser: boolean; bypassrls: boolean }>(
      await getDb().execute(sql`
      select current_user as name, rolsuper as superuser, rolbypassrls as bypassrls
      from pg_roles where rolname = current_user`),
    )
    if (getDatabaseHandle().driver === 'postgres') {
      expect(role).toEqual({ name: 'brandcard_app', superuser: false, bypassrls: false })
    }
    // The demo has every tenant below, each with a logo and a favicon.
    expect(expected.map((e) => e.slug).sort()).toEqual(
      [...DEMO_ORGANIZATIONS.map((o) => o.slug), 'acme'].sort(),
    )
    for (const tenant of expected) {
      expect(tenant.logo, tenant.host).toMatch(/^\/media\/[0-9a-f]{64}\.png$/)
      expect(tenant.favicon, tenant.host).toMatch(/^\/media\/[0-9a-f]{64}\.png$/)
    }
  })

  test('every active tenant resolves with its own logo and favicon, and both are served', async () => {
    for (const tenant of expected.filter((t) => t.active)) {
      const resolution = await resolveTenant(tenant.host)
      expect(resolution.status, tenant.host).toBe('found')
      if (resolution.status !== 'found') continue
      expect(resolution.tenant.logoUrl, tenant.host).toBe(tenant.logo)
      expect(resolution.tenant.faviconUrl, tenant.host).toBe(tenant.favicon)
      for (const path of [tenant.logo, tenant.favicon]) {
        const response = await mediaLoader({
          request: requestFor(tenant.host, path),
          context: contextFor(tenant.host),
          params: { file: path.slice('/media/'.length) },
        })
        expect(response.status, `${tenant.host}${path}`).toBe(200)
        expect(response.headers.get('content-type')).toBe('image/png')
      }
    }
  })

  test('an inactive tenant is unavailable', async () => {
    for (const tenant of expected.filter((t) => !t.active)) {
      expect((await resolveTenant(tenant.host)).status).toBe('unavailable')
    }
  })

  test("a reset email carries the agency's logo", async () => {
    const resolution = await resolveTenant('acme.localhost')
    if (resolution.status !== 'found') throw new Error('acme did not resolve')
    await requestPasswordReset(resolution.tenant, 'alice@acme.test', '203.0.113.9')
    await settleBackgroundWork()
    const acme = expected.find((t) => t.host === 'acme.localhost') as Expected
    const tenantId = resolution.tenant.id
    const emails = await withTenant(tenantId, (tx) =>
      tx
        .select()
        .from(emailOutbox)
        .where(
          and(
            eq(emailOutbox.organizationId, tenantId),
            eq(emailOutbox.toAddress, 'alice@acme.test'),
          ),
        ),
    )
    expect(emails).toHaveLength(1)
    expect(emails[0]?.html).toContain(`<img src="http://cards.acme.localhost:3000${acme.logo}"`)
  })
})
