// The demo's custom domain (issue 30 point 6): what the seed stores for Acme's
// cards.acme.localhost is what its verification finds, so Domain Settings, 'Verify domain' and
// the background re-check agree. A name under .localhost is this machine's own (RFC 6761) and
// has no DNS: on a localhost platform it verifies without a lookup; on a real root domain it is
// looked up like any other name and never verifies.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { seedDemo } from '#app/demo/seed.server'
import {
  checkCustomDomain,
  isLocalDemoDomain,
  recheckOldestDomains,
} from '#app/domains/custom-domain-verification.server'
import { resetEnvForTests } from '#app/env.server'
import { loader as brandingLoader } from '#app/routes/dashboard.agency.branding'
import { resolveTenant } from '#app/tenancy/tenant.server'
import { getDb } from '#drizzle/db.server'
import { organizations, users } from '#drizzle/schema'
import { contextFor, requestFor, sessionCookieFor, settle } from '#tests/factories'

// Its own file: the seed needs an empty database.
let acmeId = ''
const root = process.env.ROOT_DOMAIN
const restoreRoot = () => {
  if (root === undefined) delete process.env.ROOT_DOMAIN
  else process.env.ROOT_DOMAIN = root
  resetEnvForTests()
}
const HOST = 'cards.acme.localhost'

beforeAll(async () => {
  await seedDemo(getDb(), new Date())
  const [acme] = await getDb().select().from(organizations).where(eq(organizations.slug, 'acme'))
  acmeId = acme?.id ?? ''
  // Nothing answers DNS here: a lookup would come back unreachable and change nothing, so a
  // 'checked' outcome below proves no lookup was made.
  process.env.DNS_RESOLVER = '127.0.0.1:9'
  resetEnvForTests()
})

afterAll(() => {
  delete process.env.DNS_RESOLVER
  restoreRoot()
})

async function domainSettings() {
  const [admin] = await getDb().select().from(users).where(eq(users.email, 'admin@acme.test'))
  const cookie = await sessionCookieFor(acmeId, admin?.id ?? '')
  const response = await settle(async () =>
    brandingLoader({
      request: requestFor(HOST, '/dashboard/agency/branding', { headers: { Cookie: cookie } }),
      context: contextFor(HOST),
      params: {},
    }),
  )
  expect(response.status).toBe(200)
  return ((await response.json()) as { domain: Record<string, unknown> }).domain
}

describe("the demo's custom domain", () => {
  test('Domain Settings shows it verified, with its records, as a local name', async () => {
    expect(await domainSettings()).toMatchObject({
      domain: HOST,
      status: 'verified',
      txtName: `_domain-verification.${HOST}`,
      local: true,
    })
  })

  test("'Verify domain' finds what is stored: verified, unchanged, without a DNS lookup", async () => {
    const check = await checkCustomDomain(acmeId, null)
    expect(check).toMatchObject({ outcome: 'checked', changed: false })
    expect(check.outcome === 'checked' && check.state.status).toBe('verified')
    // The background re-check takes it too (it has a token) and keeps it verified and serving.
    expect(await recheckOldestDomains(50)).toBeGreaterThanOrEqual(1)
    expect(await domainSettings()).toMatchObject({ status: 'verified' })
    const resolution = await resolveTenant(HOST)
    expect(resolution.status === 'found' && resolution.tenant.slug).toBe('acme')
  })

  test('on a real root domain, a .localhost name is no exception', () => {
    expect(isLocalDemoDomain(HOST)).toBe(true)
    process.env.ROOT_DOMAIN = 'brandcard.example'
    resetEnvForTests()
    try {
      expect(isLocalDemoDomain(HOST)).toBe(false)
      expect(isLocalDemoDomain('cards.acme.example')).toBe(false)
    } finally {
      restoreRoot()
    }
  })
})
