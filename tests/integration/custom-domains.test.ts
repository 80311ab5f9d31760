import { eq, isNotNull } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { domainInstructions } from '#app/components/branding/domain-verification'
import { DOMAIN_CLAIM_DAYS } from '#app/domains/claims'
import {
  changeCustomDomain,
  checkCustomDomain,
  DOMAIN_IS_PLATFORM,
  DOMAIN_TAKEN,
  readDomainState,
  recheckDueDomains,
  recheckOldestDomains,
} from '#app/domains/custom-domain-verification.server'
import { lookupTxt } from '#app/domains/dns.server'
import { startDomainRecheck, stopDomainRecheck } from '#app/domains/recheck-schedule.server'
import { resetEnvForTests } from '#app/env.server'
import { resolveTenant } from '#app/tenancy/tenant.server'
import { getDb, withDatabase, withTenant } from '#drizzle/db.server'
import { auditEvents, organizations } from '#drizzle/schema'
import { makeOrganization, uniqueSuffix } from '#tests/factories'
import { type FakeDns, startFakeDns } from '#tests/fake-dns'

let dns: FakeDns

/** The refusal of a name another agency holds, as the Branding action shows it. */
const taken = { name: 'Refusal', status: 409, message: DOMAIN_TAKEN, field: 'customDomain' }

beforeAll(async () => {
  dns = await startFakeDns()
  process.env.DNS_RESOLVER = `127.0.0.1:${dns.port}`
  resetEnvForTests()
})

afterEach(() => {
  dns.failing = false
  dns.failingNames.clear()
})

afterAll(async () => {
  delete process.env.DNS_RESOLVER
  resetEnvForTests()
  await dns.close()
})

async function agencyWithDomain() {
  const organization = await makeOrganization()
  const domain = `cards-${uniqueSuffix()}.example.com`
  await withTenant(organization.id, (tx) => changeCustomDomain(tx, organization.id, domain))
  const state = await withDatabase((tx) => readDomainState(tx, organization.id))
  return { organization, domain, state }
}

async function tokenOf(organizationId: string) {
  const [row] = await getDb()
    .select({ token: organizations.customDomainVerificationToken })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
  return row?.token as string
}

/** Makes this domain the one the background re-check takes next (oldest checked of all). */
async function makeOldestChecked(organizationId: string) {
  await getDb()
    .update(organizations)
    .set({ customDomainCheckedAt: new Date() })
    .where(isNotNull(organizations.customDomain))
  await getDb()
    .update(organizations)
    .set({ customDomainCheckedAt: new Date('2000-01-01T00:00:00Z') })
    .where(eq(organizations.id, organizationId))
}

async function domainEvents(organizationId: string) {
  const rows = await getDb()
    .select({ action: auditEvents.action })
    .from(auditEvents)
    .where(eq(auditEvents.organizationId, organizationId))
  return rows.map((r) => r.action)
}

describe('the TXT lookup', () => {
  test('joins the chunks of a long value and treats a missing record as none', async () => {
    const long = 'x'.repeat(300)
    dns.setTxt('long.example.com', [long, 'short'])
    expect(await lookupTxt('long.example.com')).toEqual([long, 'short'])
    expect(await lookupTxt('absent.example.com')).toEqual([])
  })
})

describe('custom domain verification', () => {
  test('a new domain is pending with a CNAME target and a TXT record to create', async () => {
    const { domain, state } = await agencyWithDomain()
    expect(state).toMatchObject({
      domain,
      status: 'pending',
      cnameTarget: 'cname.localhost',
      txtName: `_domain-verification.${domain}`,
    })
    expect(state.txtValue).toMatch(/^domain-verification=[0-9a-f]{32}$/)
  })

  test('no record keeps it pending; the exact value verifies it and the host then serves the agency', async () => {
    const { organization, domain, state } = await agencyWithDomain()
    const name = state.txtName as string
    const value = state.txtValue as string

    const missing = await checkCustomDomain(organization.id, null)
    expect(missing).toMatchObject({ outcome: 'checked', state: { status: 'pending' } })
    expect((await resolveTenant(domain)).status).toBe('not-found')

    // A near miss (a prefix, other case) is not the value.
    dns.setTxt(name, [value.slice(0, -1), value.toUpperCase()])
    expect(await checkCustomDomain(organization.id, null)).toMatchObject({
      state: { status: 'pending' },
    })

    dns.setTxt(name, ['v=spf1 -all', value])
    const verified = await checkCustomDomain(organization.id, null)
    expect(verified).toMatchObject({
      outcome: 'checked',
      changed: true,
      state: { status: 'verified' },
    })
    const resolution = await resolveTenant(domain)
    expect(resolution.status === 'found' && resolution.tenant.id).toBe(organization.id)
    expect(await domainEvents(organization.id)).toContain('domain.verified')
  })

  test('a verified domain whose record disappears becomes misconfigured and stops serving', async () => {
    const { organization, domain, state } = await agencyWithDomain()
    dns.setTxt(state.txtName as string, [state.txtValue as string])
    await checkCustomDomain(organization.id, null)
    expect((await resolveTenant(domain)).status).toBe('found')

    dns.setTxt(state.txtName as string, [])
    const lost = await checkCustomDomain(organization.id, null)
    expect(lost).toMatchObject({ changed: true, state: { status: 'misconfigured' } })
    expect((await resolveTenant(domain)).status).toBe('not-found')
    expect(await domainEvents(organization.id)).toContain('domain.misconfigured')

    // The record back: verified again.
    dns.setTxt(state.txtName as string, [state.txtValue as string])
    expect(await checkCustomDomain(organization.id, null)).toMatchObject({
      state: { status: 'verified' },
    })
  })

  test('a DNS server that fails changes nothing', async () => {
    const { organization, state } = await agencyWithDomain()
    dns.setTxt(state.txtName as string, [state.txtValue as string])
    dns.failing = true
    expect(await checkCustomDomain(organization.id, null)).toMatchObject({ outcome: 'unreachable' })
    const [row] = await getDb()
      .select({ verifiedAt: organizations.customDomainVerifiedAt })
      .from(organizations)
      .where(eq(organizations.id, organization.id))
    expect(row?.verifiedAt).toBeNull()
  })

  test('a changed domain gets a new token and goes back to pending; clearing it removes the record', async () => {
    const { organization, state } = await agencyWithDomain()
    dns.setTxt(state.txtName as string, [state.txtValue as string])
    await checkCustomDomain(organization.id, null)
    const other = `other-${uniqueSuffix()}.example.com`
    await withTenant(organization.id, (tx) => changeCustomDomain(tx, organization.id, other))
    const next = await withDatabase((tx) => readDomainState(tx, organization.id))
    expect(next).toMatchObject({ domain: other, status: 'pending' })
    expect(next.txtValue).not.toBe(state.txtValue)
    await withTenant(organization.id, (tx) => changeCustomDomain(tx, organization.id, null))
    expect(await withDatabase((tx) => readDomainState(tx, organization.id))).toMatchObject({
      domain: null,
      status: null,
      txtName: null,
    })
  })

  test("a domain another agency verified and the platform's own are refused, naming no one", async () => {
    const { organization, domain, state } = await agencyWithDomain()
    dns.setTxt(state.txtName as string, [state.txtValue as string])
    await checkCustomDomain(organization.id, null)
    const other = await makeOrganization()
    const attempt = (value: string) =>
      withTenant(other.id, (tx) => changeCustomDomain(tx, other.id, value))
    // The Branding action shows each next to the domain field.
    await expect(attempt(domain)).rejects.toMatchObject(taken)
    await expect(attempt('evil.localhost')).rejects.toMatchObject({
      name: 'Refusal',
      status: 400,
      message: DOMAIN_IS_PLATFORM,
      field: 'customDomain',
    })
    // The refusal says neither who holds it nor that an agency does.
    expect(DOMAIN_TAKEN).not.toMatch(/agenc|tenant|another|organi[sz]ation/i)
  })

  test('the background re-check takes the oldest-checked domains and notices a lost record', async () => {
    const { organization, domain, state } = await agencyWithDomain()
    dns.setTxt(state.txtName as string, [state.txtValue as string])
    await checkCustomDomain(organization.id, null)
    dns.setTxt(state.txtName as string, [])
    // Make it the oldest-checked domain of all (never-checked ones would come first).
    await makeOldestChecked(organization.id)
    dns.questions.length = 0
    expect(await recheckOldestDomains(1)).toBe(1)
    // The current record, then (not there either) the legacy one.
    expect(dns.questions).toEqual([state.txtName, `_brandcard-verification.${domain}`])
    expect((await resolveTenant(domain)).status).toBe('not-found')
    expect(await withDatabase((tx) => readDomainState(tx, organization.id))).toMatchObject({
      status: 'misconfigured',
    })
  })
  test('the scheduled pass re-checks every domain not checked within the interval, and only those', async () => {
    const stale = await agencyWithDomain()
    const fresh = await agencyWithDomain()
    dns.setTxt(stale.state.txtName as string, [stale.state.txtValue as string])
    dns.setTxt(fresh.state.txtName as string, [fresh.state.txtValue as string])
    await checkCustomDomain(fresh.organization.id, null)
    const longAgo = new Date('2000-01-01T00:00:00Z')
    await getDb()
      .update(organizations)
      .set({ customDomainCheckedAt: longAgo })
      .where(eq(organizations.id, stale.organization.id))
    const checkedAt = async (organizationId: string) => {
      const [row] = await getDb()
        .select({ at: organizations.customDomainCheckedAt })
        .from(organizations)
        .where(eq(organizations.id, organizationId))
      return row?.at ?? null
    }
    const freshBefore = await checkedAt(fresh.organization.id)
    const dueBefore = new Date(Date.now() - 60 * 60 * 1000)
    dns.questions.length = 0

    expect(await recheckDueDomains(dueBefore)).toBeGreaterThanOrEqual(1)
    expect(dns.questions).toContain(stale.state.txtName)
    expect(dns.questions).not.toContain(fresh.state.txtName)
    expect((await checkedAt(stale.organization.id))?.getTime()).toBeGreaterThan(dueBefore.getTime())
    expect(await checkedAt(fresh.organization.id)).toEqual(freshBefore)
    expect(await withDatabase((tx) => readDomainState(tx, stale.organization.id))).toMatchObject({
      status: 'verified',
    })
  })
})

describe('the re-check schedule', () => {
  test('its first pass runs once the server is up, not an interval later', async () => {
    const stale = await agencyWithDomain()
    dns.setTxt(stale.state.txtName as string, [stale.state.txtValue as string])
    await getDb()
      .update(organizations)
      .set({ customDomainCheckedAt: new Date('2000-01-01T00:00:00Z') })
      .where(eq(organizations.id, stale.organization.id))
    process.env.DOMAIN_RECHECK_SECONDS = '3600'
    resetEnvForTests()
    const failures: string[] = []
    startDomainRecheck((message) => failures.push(message))
    try {
      await expect
        .poll(
          async () => {
            const [row] = await getDb()
              .select({ at: organizations.customDomainCheckedAt })
              .from(organizations)
              .where(eq(organizations.id, stale.organization.id))
            return row?.at?.getUTCFullYear()
          },
          { timeout: 60_000 },
        )
        .toBeGreaterThan(2000)
    } finally {
      stopDomainRecheck()
      delete process.env.DOMAIN_RECHECK_SECONDS
      resetEnvForTests()
    }
    expect(failures).toEqual([])
  })
})

// Issue 17: the record names no product. `_domain-verification` is the record agencies are
// told to create; `_brandcard-verification`, the record before the rename, still proves a
// domain so that domains verified under it stay verified.
describe('the neutral verification record and the legacy one', () => {
  const newName = (domain: string) => `_domain-verification.${domain}`
  const legacyName = (domain: string) => `_brandcard-verification.${domain}`

  test('a domain whose DNS has only the new record verifies', async () => {
    const { organization, domain } = await agencyWithDomain()
    const token = await tokenOf(organization.id)
    dns.setTxt(newName(domain), [`domain-verification=${token}`])
    dns.questions.length = 0
    expect(await checkCustomDomain(organization.id, null)).toMatchObject({
      outcome: 'checked',
      changed: true,
      state: { status: 'verified' },
    })
    // Found under the new name: the legacy one is not asked.
    expect(dns.questions).toEqual([newName(domain)])
    const resolution = await resolveTenant(domain)
    expect(resolution.status === 'found' && resolution.tenant.id).toBe(organization.id)
  })

  test('a domain verified under the legacy record stays verified on re-check with only that record', async () => {
    const { organization, domain } = await agencyWithDomain()
    const token = await tokenOf(organization.id)
    // Verified before the rename: the row says verified, its DNS has only the old record.
    const verifiedAt = new Date('2025-06-01T00:00:00Z')
    await getDb()
      .update(organizations)
      .set({ customDomainVerifiedAt: verifiedAt, customDomainCheckedAt: verifiedAt })
      .where(eq(organizations.id, organization.id))
    dns.setTxt(legacyName(domain), [`brandcard-verification=${token}`])
    await makeOldestChecked(organization.id)
    dns.questions.length = 0

    expect(await recheckOldestDomains(1)).toBe(1)
    expect(dns.questions).toEqual([newName(domain), legacyName(domain)])
    const [row] = await getDb()
      .select({
        verifiedAt: organizations.customDomainVerifiedAt,
        lostAt: organizations.customDomainLostAt,
        checkedAt: organizations.customDomainCheckedAt,
      })
      .from(organizations)
      .where(eq(organizations.id, organization.id))
    expect(row?.verifiedAt).toEqual(verifiedAt)
    expect(row?.lostAt).toBeNull()
    expect(row?.checkedAt?.getTime()).toBeGreaterThan(verifiedAt.getTime())
    expect((await resolveTenant(domain)).status).toBe('found')
    expect(await domainEvents(organization.id)).not.toContain('domain.misconfigured')

    // The re-check really read it: with the legacy record gone as well, the domain is lost.
    dns.setTxt(legacyName(domain), [])
    await makeOldestChecked(organization.id)
    await recheckOldestDomains(1)
    expect((await resolveTenant(domain)).status).toBe('not-found')
    expect(await domainEvents(organization.id)).toContain('domain.misconfigured')
  })

  test('a wrong token under either name does not verify, and a verified domain is lost', async () => {
    const { organization, domain } = await agencyWithDomain()
    const { state: other } = await agencyWithDomain()
    const token = await tokenOf(organization.id)
    const otherToken = (other.txtValue as string).slice('domain-verification='.length)
    expect(otherToken).toMatch(/^[0-9a-f]{32}$/)
    expect(otherToken).not.toBe(token)
    // Another domain's token under both names; each name with the other name's value.
    dns.setTxt(newName(domain), [
      `domain-verification=${otherToken}`,
      `brandcard-verification=${token}`,
    ])
    dns.setTxt(legacyName(domain), [
      `brandcard-verification=${otherToken}`,
      `domain-verification=${token}`,
    ])
    expect(await checkCustomDomain(organization.id, null)).toMatchObject({
      outcome: 'checked',
      state: { status: 'pending' },
    })
    expect((await resolveTenant(domain)).status).toBe('not-found')

    // Verified by the right token, then replaced by wrong ones under both names: misconfigured.
    dns.setTxt(newName(domain), [`domain-verification=${token}`])
    expect(await checkCustomDomain(organization.id, null)).toMatchObject({
      state: { status: 'verified' },
    })
    dns.setTxt(newName(domain), [`domain-verification=${otherToken}`])
    dns.setTxt(legacyName(domain), [`brandcard-verification=${otherToken}`])
    expect(await checkCustomDomain(organization.id, null)).toMatchObject({
      changed: true,
      state: { status: 'misconfigured' },
    })
    expect((await resolveTenant(domain)).status).toBe('not-found')
  })

  test('a DNS server that cannot answer the legacy lookup changes nothing', async () => {
    const { organization, domain } = await agencyWithDomain()
    const token = await tokenOf(organization.id)
    dns.setTxt(legacyName(domain), [`brandcard-verification=${token}`])
    expect(await checkCustomDomain(organization.id, null)).toMatchObject({
      state: { status: 'verified' },
    })
    // The new name answers "no such record", the legacy one fails: not a lost record.
    dns.failingNames.add(legacyName(domain))
    expect(await checkCustomDomain(organization.id, null)).toMatchObject({
      outcome: 'unreachable',
      state: { status: 'verified' },
    })
    expect((await resolveTenant(domain)).status).toBe('found')
    expect(await domainEvents(organization.id)).not.toContain('domain.misconfigured')
  })

  test('the state the Branding screen gets names only the new record, even for a legacy domain', async () => {
    const { organization, domain } = await agencyWithDomain()
    const token = await tokenOf(organization.id)
    const expected = {
      txtName: `_domain-verification.${domain}`,
      txtValue: `domain-verification=${token}`,
    }
    const pending = await withDatabase((tx) => readDomainState(tx, organization.id))
    expect(pending).toMatchObject({ status: 'pending', ...expected })
    expect(JSON.stringify(pending)).not.toMatch(/brandcard/i)

    // Verified by the legacy record: still told to create the new one.
    dns.setTxt(legacyName(domain), [`brandcard-verification=${token}`])
    const check = await checkCustomDomain(organization.id, null)
    expect(check).toMatchObject({ state: { status: 'verified', ...expected } })
    const verified = await withDatabase((tx) => readDomainState(tx, organization.id))
    expect(verified).toMatchObject({ status: 'verified', ...expected })
    expect(JSON.stringify(verified)).not.toMatch(/brandcard/i)
  })
})

// Issue 26, point 9 (ADR 031): a claim that is never proven does not hold a name forever, and
// whoever proves a name first takes it from those who only claimed it.
describe('claims on a custom domain', () => {
  const DAY_MS = 24 * 60 * 60 * 1000

  async function claim(organizationId: string, domain: string) {
    await withTenant(organizationId, (tx) => changeCustomDomain(tx, organizationId, domain))
    return withDatabase((tx) => readDomainState(tx, organizationId))
  }

  async function rowOf(organizationId: string) {
    const [row] = await getDb()
      .select({
        domain: organizations.customDomain,
        token: organizations.customDomainVerificationToken,
        claimedAt: organizations.customDomainClaimedAt,
      })
      .from(organizations)
      .where(eq(organizations.id, organizationId))
    return row
  }

  async function claimedDaysAgo(organizationId: string, days: number) {
    await getDb()
      .update(organizations)
      .set({ customDomainClaimedAt: new Date(Date.now() - days * DAY_MS) })
      .where(eq(organizations.id, organizationId))
  }

  test('a pending claim holds nothing: another agency claims the name too, verifies first and takes it; the pending holder loses it cleanly', async () => {
    const domain = `shared-${uniqueSuffix()}.example.com`
    const first = await makeOrganization()
    const second = await makeOrganization()
    const firstState = await claim(first.id, domain)
    // Not "already used by another agency": the second agency gets its own claim and token.
    const secondState = await claim(second.id, domain)
    expect(secondState).toMatchObject({ domain, status: 'pending' })
    expect(secondState.txtValue).not.toBe(firstState.txtValue)

    dns.setTxt(secondState.txtName as string, [secondState.txtValue as string])
    expect(await checkCustomDomain(second.id, null)).toMatchObject({
      outcome: 'checked',
      state: { status: 'verified' },
    })
    const resolution = await resolveTenant(domain)
    expect(resolution.status === 'found' && resolution.tenant.id).toBe(second.id)

    // The first agency's claim has ended: no domain, no token, told in its own audit log.
    expect(await rowOf(first.id)).toEqual({ domain: null, token: null, claimedAt: null })
    expect(await domainEvents(first.id)).toContain('domain.released')
    expect(await checkCustomDomain(first.id, null)).toEqual({ outcome: 'no-domain' })
    // And it cannot claim the name again while the other holds it verified.
    await expect(claim(first.id, domain)).rejects.toMatchObject(taken)
  })

  test(`a pending claim expires after ${DOMAIN_CLAIM_DAYS} days: a record published later proves nothing`, async () => {
    const { organization, domain, state } = await agencyWithDomain()
    dns.setTxt(state.txtName as string, [state.txtValue as string])
    // A minute before the end it still verifies.
    await claimedDaysAgo(organization.id, DOMAIN_CLAIM_DAYS - 1 / (24 * 60))
    const other = await agencyWithDomain()
    dns.setTxt(other.state.txtName as string, [other.state.txtValue as string])
    await claimedDaysAgo(other.organization.id, DOMAIN_CLAIM_DAYS + 1 / (24 * 60))
    expect(await checkCustomDomain(organization.id, null)).toMatchObject({
      state: { status: 'verified' },
    })
    // A minute after: released, and the record no longer verifies it.
    expect(await checkCustomDomain(other.organization.id, null)).toEqual({
      outcome: 'expired',
      domain: other.domain,
    })
    expect(await rowOf(other.organization.id)).toEqual({
      domain: null,
      token: null,
      claimedAt: null,
    })
    expect((await resolveTenant(other.domain)).status).toBe('not-found')
    expect(await domainEvents(other.organization.id)).toContain('domain.expired')
    expect((await resolveTenant(domain)).status).toBe('found')
  })

  test('the background re-check releases an expired claim, and a misconfigured one expires from the loss', async () => {
    const { organization } = await agencyWithDomain()
    await claimedDaysAgo(organization.id, DOMAIN_CLAIM_DAYS + 1)
    await makeOldestChecked(organization.id)
    expect(await recheckOldestDomains(1)).toBe(1)
    expect((await rowOf(organization.id))?.domain).toBeNull()

    // Verified long ago, its record gone 8 days: released; gone 1 day: still misconfigured.
    const lost = await agencyWithDomain()
    dns.setTxt(lost.state.txtName as string, [])
    await claimedDaysAgo(lost.organization.id, 400)
    await getDb()
      .update(organizations)
      .set({ customDomainLostAt: new Date(Date.now() - DAY_MS) })
      .where(eq(organizations.id, lost.organization.id))
    expect(await checkCustomDomain(lost.organization.id, null)).toMatchObject({
      state: { status: 'misconfigured' },
    })
    await getDb()
      .update(organizations)
      .set({ customDomainLostAt: new Date(Date.now() - (DOMAIN_CLAIM_DAYS + 1) * DAY_MS) })
      .where(eq(organizations.id, lost.organization.id))
    expect(await checkCustomDomain(lost.organization.id, null)).toMatchObject({
      outcome: 'expired',
    })
  })

  test('one verified claim per name: a verification that loses the race releases its claim', async () => {
    const domain = `race-${uniqueSuffix()}.example.com`
    const winner = await makeOrganization()
    const loser = await makeOrganization()
    await claim(winner.id, domain)
    const loserState = await claim(loser.id, domain)
    // The winner's verification lands between the loser's lookup and its write.
    await getDb()
      .update(organizations)
      .set({ customDomainVerifiedAt: new Date() })
      .where(eq(organizations.id, winner.id))
    dns.setTxt(loserState.txtName as string, [loserState.txtValue as string])
    expect(await checkCustomDomain(loser.id, null)).toEqual({ outcome: 'taken', domain })
    expect((await rowOf(loser.id))?.domain).toBeNull()
    expect(await domainEvents(loser.id)).toContain('domain.released')
    const resolution = await resolveTenant(domain)
    expect(resolution.status === 'found' && resolution.tenant.id).toBe(winner.id)
  })
})

test('Domain Settings: a saved, verified domain shows as such even without a token (as the demo stores it)', async () => {
  const organization = await makeOrganization()
  const domain = `saved-${uniqueSuffix()}.example.test`
  const read = () => withDatabase((tx) => readDomainState(tx, organization.id))
  // Nothing saved: the page asks for a domain.
  expect(domainInstructions(await read())).toBeNull()
  await getDb()
    .update(organizations)
    .set({
      customDomain: domain,
      customDomainVerificationToken: null,
      customDomainVerifiedAt: new Date('2026-01-01T00:00:00Z'),
    })
    .where(eq(organizations.id, organization.id))
  expect(domainInstructions(await read())).toEqual({ domain, status: 'verified', txt: null })
})
