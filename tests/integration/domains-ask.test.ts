// The TLS proxy's ask (/api/domains/allowed): a certificate only for a host the app serves,
// asked only by the proxy, never answered from a stale cache.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import {
  changeCustomDomain,
  checkCustomDomain,
  readDomainState,
} from '#app/domains/custom-domain-verification.server'
import { resetEnvForTests } from '#app/env.server'
import { hitRateLimit } from '#app/models/rate-limits.server'
import { loader } from '#app/routes/api.domains.allowed'
import { action as agenciesAction } from '#app/routes/dashboard.super-admin.agencies'
import { withDatabase, withTenant } from '#drizzle/db.server'
import {
  contextFor,
  formRequest,
  getPlatformOrganization,
  makeOrganization,
  makeUser,
  sessionCookieFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'
import { type FakeDns, startFakeDns } from '#tests/fake-dns'

let dns: FakeDns
let adminCookie: string

beforeAll(async () => {
  dns = await startFakeDns()
  process.env.DNS_RESOLVER = `127.0.0.1:${dns.port}`
  resetEnvForTests()
  const platform = await getPlatformOrganization()
  const admin = await makeUser(platform.id, { role: 'super_admin' })
  adminCookie = await sessionCookieFor(platform.id, admin.id)
})

afterEach(() => {
  delete process.env.DOMAINS_ASK_ALLOWED_FROM
  resetEnvForTests()
})

afterAll(async () => {
  delete process.env.DNS_RESOLVER
  resetEnvForTests()
  await dns.close()
})

/** Caddy asks from loopback, straight to the app (no forwarding headers), on an IP host. */
function ask(
  domain: string | null,
  from: { peer?: string; relayed?: boolean; candidate?: boolean } = {},
) {
  const query = domain === null ? '' : `?domain=${encodeURIComponent(domain)}`
  const context = {
    ...contextFor('127.0.0.1'),
    peerAddress: from.peer ?? '127.0.0.1',
    relayed: from.relayed ?? false,
    pageCacheCandidate: from.candidate ?? false,
  }
  return settle(() =>
    loader({
      request: new Request(`http://127.0.0.1:3000/api/domains/allowed${query}`),
      context,
      params: {},
    }),
  )
}

const statusOf = async (domain: string | null, from?: Parameters<typeof ask>[1]) =>
  (await ask(domain, from)).status

/** An agency with a custom domain, verified through the fake DNS unless `verify: false`. */
async function agencyWithDomain(options: { verify?: boolean } = {}) {
  const organization = await makeOrganization()
  const domain = `cards-${uniqueSuffix()}.example.com`
  await withTenant(organization.id, (tx) => changeCustomDomain(tx, organization.id, domain))
  const state = await withDatabase((tx) => readDomainState(tx, organization.id))
  const record = { name: state.txtName as string, value: state.txtValue as string }
  if (options.verify !== false) {
    dns.setTxt(record.name, [record.value])
    await checkCustomDomain(organization.id, null)
  }
  return { organization, domain, record, subdomain: `${organization.slug}.localhost` }
}

function superAdmin(fields: Record<string, string>) {
  const path = '/dashboard/super-admin/agencies'
  return settle(() =>
    agenciesAction({
      request: formRequest('localhost', path, fields, adminCookie),
      context: contextFor('localhost'),
      params: {},
    }),
  )
}

describe('which hosts get a certificate', () => {
  test('a verified custom domain of an active, approved agency, in any spelling', async () => {
    const { domain } = await agencyWithDomain()
    expect(await statusOf(domain)).toBe(200)
    expect(await statusOf(domain.toUpperCase())).toBe(200)
    expect(await statusOf(`${domain}.`)).toBe(200)
    // The app serves the domain as set, not its www. form.
    expect(await statusOf(`www.${domain}`)).toBe(404)
  })

  test('an active agency subdomain and the root domain; not reserved or nested subdomains', async () => {
    const { subdomain } = await agencyWithDomain({ verify: false })
    expect(await statusOf(subdomain)).toBe(200)
    expect(await statusOf('localhost')).toBe(200)
    expect(await statusOf('www.localhost')).toBe(200)
    expect(await statusOf('api.localhost')).toBe(404)
    expect(await statusOf(`deep.${subdomain}`)).toBe(404)
    expect(await statusOf(`nobody-${uniqueSuffix()}.localhost`)).toBe(404)
  })

  test('a pending domain gets none', async () => {
    const { domain, subdomain } = await agencyWithDomain({ verify: false })
    expect(await statusOf(domain)).toBe(404)
    // Its agency's subdomain is served meanwhile.
    expect(await statusOf(subdomain)).toBe(200)
  })

  test('a domain found misconfigured stops getting one at once (no cached yes)', async () => {
    const { organization, domain, record } = await agencyWithDomain()
    expect(await statusOf(domain)).toBe(200)
    dns.setTxt(record.name, [])
    expect(await checkCustomDomain(organization.id, null)).toMatchObject({
      state: { status: 'misconfigured' },
    })
    expect(await statusOf(domain)).toBe(404)
  })

  test('a deactivated agency gets none, on either host, until activated again', async () => {
    const { organization, domain, subdomain } = await agencyWithDomain()
    expect(await statusOf(domain)).toBe(200)
    expect(await statusOf(subdomain)).toBe(200)
    expect((await superAdmin({ intent: 'deactivate', agencyId: organization.id })).status).toBe(302)
    expect(await statusOf(domain)).toBe(404)
    expect(await statusOf(subdomain)).toBe(404)
    await superAdmin({ intent: 'activate', agencyId: organization.id })
    expect(await statusOf(domain)).toBe(200)
  })

  test('an agency not approved (pending or rejected) gets none', async () => {
    const pending = await makeOrganization({ approvalStatus: 'pending' })
    expect(await statusOf(`${pending.slug}.localhost`)).toBe(404)
    const { organization, domain } = await agencyWithDomain()
    expect(await statusOf(domain)).toBe(200)
    await superAdmin({ intent: 'reject', agencyId: organization.id })
    expect(await statusOf(domain)).toBe(404)
  })

  test('an unknown domain gets none', async () => {
    expect(await statusOf(`unknown-${uniqueSuffix()}.example.org`)).toBe(404)
  })

  test('a missing or malformed domain is 400', async () => {
    const bad = [
      null,
      '',
      'example.com:443',
      '127.0.0.1',
      '[::1]',
      'evil.test/x',
      'user@evil.test',
      '-bad.example.com',
      'intranet',
      `${'a'.repeat(64)}.example.com`,
      'x'.repeat(300),
    ]
    for (const domain of bad) {
      // 'intranet' is a well-formed host the app never serves: refused, not malformed.
      expect(await statusOf(domain), String(domain)).toBe(domain === 'intranet' ? 404 : 400)
    }
  })
})

describe('who may ask', () => {
  test('by default only loopback, and never a request relayed by the proxy', async () => {
    const { domain } = await agencyWithDomain()
    expect(await statusOf(domain, { peer: '::1' })).toBe(200)
    expect(await statusOf(domain, { peer: '::ffff:127.0.0.1' })).toBe(200)
    expect(await statusOf(domain, { peer: '203.0.113.9' })).toBe(403)
    expect(await statusOf(domain, { peer: '' })).toBe(403)
    // The proxy relaying a visitor's request: its own address, with forwarding headers.
    expect(await statusOf(domain, { relayed: true })).toBe(403)
  })

  test('DOMAINS_ASK_ALLOWED_FROM names the proxy: addresses, ranges or anyone', async () => {
    const { domain } = await agencyWithDomain()
    process.env.DOMAINS_ASK_ALLOWED_FROM = '10.0.0.0/8, fd00::5'
    resetEnvForTests()
    expect(await statusOf(domain, { peer: '10.1.2.3' })).toBe(200)
    expect(await statusOf(domain, { peer: 'fd00::5' })).toBe(200)
    expect(await statusOf(domain, { peer: '127.0.0.1' })).toBe(403)
    process.env.DOMAINS_ASK_ALLOWED_FROM = '*'
    resetEnvForTests()
    expect(await statusOf(domain, { peer: '198.51.100.1', relayed: true })).toBe(200)
  })
})

describe('cost and caching', () => {
  test('lookups past the limit are refused with 429; hosts already known still answer', async () => {
    process.env.DOMAINS_ASK_ALLOWED_FROM = '*'
    resetEnvForTests()
    const peer = `198.51.100.${Math.floor(Math.random() * 250) + 1}`
    const { domain } = await agencyWithDomain()
    expect(await statusOf(domain, { peer })).toBe(200)
    await withDatabase(async (db) => {
      for (let i = 0; i < 300; i++) await hitRateLimit(db, `domainAskIp:${peer}`, 60_000)
    })
    const refused = await ask(`flood-${uniqueSuffix()}.example.org`, { peer })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(await statusOf(domain, { peer })).toBe(200)
  })

  test('never offered to the page cache, and never stored by anyone', async () => {
    const { domain } = await agencyWithDomain()
    for (const name of [domain, `unknown-${uniqueSuffix()}.example.org`]) {
      const response = await ask(name, { candidate: true })
      expect(response.headers.get('Cache-Control')).toBe('no-store')
      expect(response.headers.get('x-page-cache')).toBeNull()
    }
  })
})
