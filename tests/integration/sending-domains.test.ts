// An agency's email sending domain (issue 17 point 2, ADR 026) through the Branding screen's
// loader and action, against a local fake of Resend's domains and emails API: the domain is
// registered and its DNS records shown; emails leave from the platform's address until the
// provider verifies it, from the agency's own address while it is verified (and white labeling
// is on), and from the platform's again once it fails or is removed.
import { and, eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { DOMAIN_CLAIM_DAYS } from '#app/domains/claims'
import {
  checkSendingDomain,
  NO_EMAIL_PROVIDER,
  PROVIDER_UNAVAILABLE,
  SENDING_DOMAIN_IS_PLATFORM,
  SENDING_DOMAIN_TAKEN,
} from '#app/domains/sending-domain-verification.server'
import { queueEmail } from '#app/email/mailer.server'
import { resetEnvForTests } from '#app/env.server'
import { jobHandlers, runJobsNow } from '#app/job-handlers.server'
import * as branding from '#app/routes/dashboard.agency.branding'
import { action as agenciesAction } from '#app/routes/dashboard.super-admin.agencies'
import { INVALID_DOMAIN } from '#app/validation/domain'
import { SENDER_LOCAL_PART_INVALID } from '#app/validation/sending-domain'
import { getDb } from '#drizzle/db.server'
import { auditEvents, emailOutbox, jobs, organizations, sendingDomains } from '#drizzle/schema'
import { databaseChecksum } from '#tests/checksum'
import {
  contextFor,
  formRequest,
  getPlatformOrganization,
  makeBrandedOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'
import { type FakeResend, startFakeResend } from '#tests/fake-resend'

const PATH = '/dashboard/agency/branding'
const PLATFORM_ADDRESS = 'no-reply@brandcard.localhost'
let resend: FakeResend

function useProvider() {
  process.env.RESEND_API_KEY = resend.apiKey
  process.env.RESEND_BASE_URL = resend.url
  resetEnvForTests()
}

beforeAll(async () => {
  resend = await startFakeResend()
  useProvider()
})

afterEach(() => useProvider())

afterAll(async () => {
  delete process.env.RESEND_API_KEY
  delete process.env.RESEND_BASE_URL
  resetEnvForTests()
  await resend.close()
})

async function agency(name = 'Mail Agency') {
  const { organization } = await makeBrandedOrganization({ name })
  const host = `${organization.slug}.localhost`
  const admin = await makeUser(organization.id, { role: 'agency_admin' })
  const member = await makeUser(organization.id, { role: 'agency_member' })
  return {
    organization,
    host,
    admin: { id: admin.id, cookie: await sessionCookieFor(organization.id, admin.id) },
    member: { cookie: await sessionCookieFor(organization.id, member.id) },
  }
}

function post(host: string, cookie: string, fields: Record<string, string>) {
  return settle(() =>
    branding.action({
      request: formRequest(host, PATH, fields, cookie),
      context: contextFor(host),
      params: {},
    }),
  )
}

async function load(host: string, cookie: string) {
  const response = await settle(() =>
    branding.loader({
      request: requestFor(host, PATH, { headers: { Cookie: cookie } }),
      context: contextFor(host),
      params: {},
    }),
  )
  expect(response.status).toBe(200)
  return (await response.json()) as {
    sendingDomain: {
      providerConfigured: boolean
      domain: string | null
      senderAddress: string | null
      status: string | null
      sending: boolean
      lost: boolean
      records: { record: string; type: string; name: string; value: string }[]
    }
  }
}

async function fieldErrors(response: Response) {
  const body = (await response.json()) as {
    intent: string | null
    result?: { error?: Record<string, string[]> }
  }
  expect(body.intent).toBe('add-sending-domain')
  return body.result?.error ?? {}
}

/** Sends one email of the organization through the queue; the From the provider received. */
async function sentFrom(organizationId: string, brandName: string) {
  const to = `to-${uniqueSuffix()}@example.test`
  await queueEmail(
    organizationId,
    { to, subject: 'Hello', html: '<p>Hi</p>', text: 'Hi' },
    brandName,
    { userId: 'sending-domains-test' },
  )
  await runJobsNow()
  const received = resend.emails.find((email) => email.to === to)
  const [row] = await getDb()
    .select({ fromAddress: emailOutbox.fromAddress, state: emailOutbox.state })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.organizationId, organizationId), eq(emailOutbox.toAddress, to)))
  expect(row?.state).toBe('sent')
  return { from: received?.from, recorded: row?.fromAddress }
}

/** Adds the domain as the agency's admin and verifies it (its records published at the fake). */
async function addVerified(host: string, cookie: string, domain: string) {
  await post(host, cookie, { intent: 'add-sending-domain', sendingDomain: domain })
  resend.publish(domain)
  await post(host, cookie, { intent: 'check-sending-domain' })
}

async function auditActions(organizationId: string) {
  const rows = await getDb()
    .select({ action: auditEvents.action })
    .from(auditEvents)
    .where(eq(auditEvents.organizationId, organizationId))
  return rows.map((row) => row.action).filter((action) => action.startsWith('sending_domain.'))
}

describe('sending domains', () => {
  test('add, see the records, verify: emails leave from the agency address only once verified', async () => {
    const { organization, host, admin } = await agency('Acme Cards')
    const domain = `mail.acme-${uniqueSuffix()}.test`

    // Before any domain: the platform's address, in the agency's name.
    expect(await sentFrom(organization.id, 'Acme Cards')).toEqual({
      from: `Acme Cards <${PLATFORM_ADDRESS}>`,
      recorded: PLATFORM_ADDRESS,
    })
    expect((await load(host, admin.cookie)).sendingDomain).toMatchObject({
      providerConfigured: true,
      domain: null,
      status: null,
      sending: false,
    })

    const added = await post(host, admin.cookie, {
      intent: 'add-sending-domain',
      sendingDomain: ` https://${domain.toUpperCase()}/ `,
      senderLocalPart: 'Team',
    })
    expect(added).toHaveRedirect(`${PATH}?tab=domain`)
    await expect(added).toSendToast({ title: expect.stringMatching(/^Sending domain added/) })
    const registered = [...resend.domains.values()].find((d) => d.name === domain)
    expect(registered).toBeDefined()

    const state = (await load(host, admin.cookie)).sendingDomain
    expect(state).toMatchObject({
      domain,
      senderAddress: `team@${domain}`,
      status: 'not_started',
      sending: false,
      lost: false,
    })
    // The records the provider returned, as the agency must publish them.
    expect(state.records.map((r) => `${r.record} ${r.type} ${r.name}`)).toEqual([
      `SPF MX send.${domain}`,
      `SPF TXT send.${domain}`,
      `DKIM TXT resend._domainkey.${domain}`,
    ])
    expect(state.records[2]?.value).toMatch(/^p=/)
    // The background check is queued.
    const checks = await getDb()
      .select({ runAt: jobs.runAt })
      .from(jobs)
      .where(and(eq(jobs.organizationId, organization.id), eq(jobs.name, 'sending-domain.check')))
    expect(checks.length).toBe(1)
    expect(checks[0]?.runAt.getTime()).toBeGreaterThan(Date.now())

    // Records not published yet: verification asked for, still pending, still the platform's.
    const early = await post(host, admin.cookie, { intent: 'check-sending-domain' })
    await expect(early).toSendToast({
      title: expect.stringMatching(/has not verified the records yet/),
    })
    expect((await load(host, admin.cookie)).sendingDomain).toMatchObject({
      status: 'pending',
      sending: false,
    })
    expect((await sentFrom(organization.id, 'Acme Cards')).recorded).toBe(PLATFORM_ADDRESS)

    // Published and checked: verified, and emails leave from the agency's own address.
    resend.publish(domain)
    const verified = await post(host, admin.cookie, { intent: 'check-sending-domain' })
    await expect(verified).toSendToast('Sending domain verified')
    expect((await load(host, admin.cookie)).sendingDomain).toMatchObject({
      status: 'verified',
      sending: true,
    })
    expect(await sentFrom(organization.id, 'Acme Cards')).toEqual({
      from: `Acme Cards <team@${domain}>`,
      recorded: `team@${domain}`,
    })
    expect(await auditActions(organization.id)).toEqual([
      'sending_domain.added',
      'sending_domain.verified',
    ])
  })

  test('a verified domain that fails later (the background check): back to the platform address', async () => {
    const { organization, host, admin } = await agency('Later Co')
    const domain = `send.later-${uniqueSuffix()}.test`
    await addVerified(host, admin.cookie, domain)
    expect((await sentFrom(organization.id, 'Later Co')).recorded).toBe(`hello@${domain}`)

    // The records are removed; the provider fails the domain; the queued check notices.
    resend.unpublish(domain)
    const [job] = await getDb()
      .select()
      .from(jobs)
      .where(and(eq(jobs.organizationId, organization.id), eq(jobs.name, 'sending-domain.check')))
    if (!job) throw new Error('no check queued')
    await jobHandlers['sending-domain.check']?.run(job)
    expect((await load(host, admin.cookie)).sendingDomain).toMatchObject({
      status: 'failed',
      sending: false,
      lost: true,
    })
    expect(await sentFrom(organization.id, 'Later Co')).toEqual({
      from: `Later Co <${PLATFORM_ADDRESS}>`,
      recorded: PLATFORM_ADDRESS,
    })
    expect(await auditActions(organization.id)).toEqual([
      'sending_domain.added',
      'sending_domain.verified',
      'sending_domain.failed',
    ])

    // Put back and checked again: sending from it again.
    resend.publish(domain)
    await post(host, admin.cookie, { intent: 'check-sending-domain' })
    expect((await sentFrom(organization.id, 'Later Co')).recorded).toBe(`hello@${domain}`)
  })

  test('white labeling off: a verified domain is not used (the emails carry the platform)', async () => {
    const { organization, host, admin } = await agency('Plain Co')
    const domain = `mail.plain-${uniqueSuffix()}.test`
    await addVerified(host, admin.cookie, domain)
    await getDb()
      .update(organizations)
      .set({ whiteLabelActive: false })
      .where(eq(organizations.id, organization.id))
    expect((await load(host, admin.cookie)).sendingDomain).toMatchObject({
      status: 'verified',
      sending: false,
    })
    expect((await sentFrom(organization.id, 'Platform')).recorded).toBe(PLATFORM_ADDRESS)
  })

  test('remove: gone at the provider and here, emails back on the platform address', async () => {
    const { organization, host, admin } = await agency('Gone Co')
    const domain = `mail.gone-${uniqueSuffix()}.test`
    await addVerified(host, admin.cookie, domain)
    const removed = await post(host, admin.cookie, { intent: 'remove-sending-domain' })
    await expect(removed).toSendToast({ title: expect.stringMatching(/^Sending domain removed/) })
    expect([...resend.domains.values()].some((d) => d.name === domain)).toBe(false)
    expect((await load(host, admin.cookie)).sendingDomain.domain).toBeNull()
    expect((await sentFrom(organization.id, 'Gone Co')).recorded).toBe(PLATFORM_ADDRESS)
    expect(await auditActions(organization.id)).toContain('sending_domain.removed')
    // The queued check of the removed registration ends its chain without a word to the provider.
    const before = resend.requests.length
    const [job] = await getDb()
      .select()
      .from(jobs)
      .where(and(eq(jobs.organizationId, organization.id), eq(jobs.name, 'sending-domain.check')))
    if (!job) throw new Error('no check queued')
    await jobHandlers['sending-domain.check']?.run(job)
    expect(resend.requests.length).toBe(before)
  })

  test('a domain removed in the provider dashboard counts as failed', async () => {
    const { organization, host, admin } = await agency('Vanished Co')
    const domain = `mail.vanished-${uniqueSuffix()}.test`
    await addVerified(host, admin.cookie, domain)
    const registered = [...resend.domains.values()].find((d) => d.name === domain)
    if (!registered) throw new Error('not registered')
    resend.domains.delete(registered.id)
    expect(await checkSendingDomain(organization.id, null)).toEqual({
      outcome: 'checked',
      status: 'failed',
      sending: false,
    })
    expect((await sentFrom(organization.id, 'Vanished Co')).recorded).toBe(PLATFORM_ADDRESS)
  })

  test('refusals: bad input, taken, the platform domain, the provider refusing; nothing changes', async () => {
    const first = await agency('First Co')
    const second = await agency('Second Co')
    const domain = `mail.taken-${uniqueSuffix()}.test`
    await post(first.host, first.admin.cookie, {
      intent: 'add-sending-domain',
      sendingDomain: domain,
    })

    // A value the rules refuse is a 400; a name another agency holds, a conflict (409).
    const refusals: [Record<string, string>, string, string, number][] = [
      [{ sendingDomain: 'not a domain' }, 'sendingDomain', INVALID_DOMAIN, 400],
      [{ sendingDomain: '' }, 'sendingDomain', INVALID_DOMAIN, 400],
      [
        { sendingDomain: 'mail.ok.test', senderLocalPart: 'a b' },
        'senderLocalPart',
        SENDER_LOCAL_PART_INVALID,
        400,
      ],
      [
        { sendingDomain: 'mail.ok.test', senderLocalPart: 'x@y' },
        'senderLocalPart',
        SENDER_LOCAL_PART_INVALID,
        400,
      ],
      [{ sendingDomain: domain }, 'sendingDomain', SENDING_DOMAIN_TAKEN, 409],
      [{ sendingDomain: 'mail.localhost' }, 'sendingDomain', SENDING_DOMAIN_IS_PLATFORM, 400],
    ]
    for (const [fields, field, message, status] of refusals) {
      const requestsBefore = resend.requests.length
      const before = await databaseChecksum()
      const response = await post(second.host, second.admin.cookie, {
        intent: 'add-sending-domain',
        ...fields,
      })
      expect(response.status, JSON.stringify(fields)).toBe(status)
      expect((await fieldErrors(response))[field]).toEqual([message])
      expect(await databaseChecksum()).toEqual(before)
      // Refused before the provider heard of it.
      expect(resend.requests.length).toBe(requestsBefore)
    }

    // The provider refuses (registered in its account by someone else): nothing is kept.
    const elsewhere = `mail.elsewhere-${uniqueSuffix()}.test`
    resend.domains.set('other', { id: 'other', name: elsewhere, status: 'verified', records: [] })
    const refused = await post(second.host, second.admin.cookie, {
      intent: 'add-sending-domain',
      sendingDomain: elsewhere,
    })
    expect(refused.status).toBe(400)
    expect((await fieldErrors(refused)).sendingDomain?.[0]).toMatch(
      /^The email provider refused this domain: .*registered already/,
    )
    const rows = await getDb()
      .select()
      .from(sendingDomains)
      .where(eq(sendingDomains.organizationId, second.organization.id))
    expect(rows).toEqual([])
    resend.domains.delete('other')
  })

  test('the provider down: a check or a removal says so and changes nothing', async () => {
    const { host, admin, organization } = await agency('Down Co')
    const domain = `mail.down-${uniqueSuffix()}.test`
    await post(host, admin.cookie, { intent: 'add-sending-domain', sendingDomain: domain })
    const before = await databaseChecksum({ organizationId: organization.id })
    resend.failNext(500)
    const checked = await post(host, admin.cookie, { intent: 'check-sending-domain' })
    await expect(checked).toSendToast({ title: expect.stringMatching(/could not be reached/) })
    resend.failNext(503)
    const removed = await post(host, admin.cookie, { intent: 'remove-sending-domain' })
    await expect(removed).toSendToast({ title: expect.stringMatching(/could not be reached/) })
    expect(await databaseChecksum({ organizationId: organization.id })).toEqual(before)
    // Adding while the provider is down leaves no reservation behind.
    const other = await agency('Down Two')
    resend.failNext(500)
    const add = await post(other.host, other.admin.cookie, {
      intent: 'add-sending-domain',
      sendingDomain: `mail.down2-${uniqueSuffix()}.test`,
    })
    expect(add.status).toBe(502)
    expect((await fieldErrors(add)).sendingDomain).toEqual([PROVIDER_UNAVAILABLE])
    expect((await load(other.host, other.admin.cookie)).sendingDomain.domain).toBeNull()
  })

  test("deleting an agency removes its sending domain from the provider's account", async () => {
    const { organization, host, admin } = await agency('Deleted Co')
    const domain = `mail.deleted-${uniqueSuffix()}.test`
    await post(host, admin.cookie, { intent: 'add-sending-domain', sendingDomain: domain })
    expect([...resend.domains.values()].some((d) => d.name === domain)).toBe(true)
    const platform = await getPlatformOrganization()
    const superAdmin = await makeUser(platform.id, { role: 'super_admin' })
    const cookie = await sessionCookieFor(platform.id, superAdmin.id)
    const response = await settle(() =>
      agenciesAction({
        request: formRequest(
          'localhost',
          '/dashboard/super-admin/agencies',
          { intent: 'delete', agencyId: organization.id },
          cookie,
        ),
        context: contextFor('localhost'),
        params: {},
      }),
    )
    expect(response.status).toBeLessThan(400)
    await runJobsNow()
    expect([...resend.domains.values()].some((d) => d.name === domain)).toBe(false)
  })

  test('members read the state but cannot change it', async () => {
    const { host, admin, member } = await agency('Member Co')
    const domain = `mail.member-${uniqueSuffix()}.test`
    await post(host, admin.cookie, { intent: 'add-sending-domain', sendingDomain: domain })
    expect((await load(host, member.cookie)).sendingDomain.domain).toBe(domain)
    for (const intent of ['add-sending-domain', 'check-sending-domain', 'remove-sending-domain']) {
      const response = await post(host, member.cookie, { intent, sendingDomain: 'mail.x.test' })
      expect(response.status).toBe(403)
    }
    expect((await load(host, admin.cookie)).sendingDomain.domain).toBe(domain)
  })

  test('without an email provider: the screen says so and nothing is registered', async () => {
    delete process.env.RESEND_API_KEY
    resetEnvForTests()
    const { host, admin } = await agency('No Provider Co')
    expect((await load(host, admin.cookie)).sendingDomain.providerConfigured).toBe(false)
    const before = await databaseChecksum()
    const response = await post(host, admin.cookie, {
      intent: 'add-sending-domain',
      sendingDomain: `mail.none-${uniqueSuffix()}.test`,
    })
    // Nothing the agency admin can fix: 422, next to the domain field.
    expect(response.status).toBe(422)
    expect((await fieldErrors(response)).sendingDomain).toEqual([NO_EMAIL_PROVIDER])
    expect(await databaseChecksum()).toEqual(before)
  })

  // Issue 26, point 9 (ADR 031). The provider's account takes each name once, so a pending
  // registration holds the name; it does so for DOMAIN_CLAIM_DAYS at most.
  test(`an unverified sending domain is released after ${DOMAIN_CLAIM_DAYS} days, at the provider too; the refusal until then names no one`, async () => {
    const first = await agency('Slow Co')
    const second = await agency('Next Co')
    const domain = `mail.claimed-${uniqueSuffix()}.test`
    await post(first.host, first.admin.cookie, {
      intent: 'add-sending-domain',
      sendingDomain: domain,
    })

    const refused = await post(second.host, second.admin.cookie, {
      intent: 'add-sending-domain',
      sendingDomain: domain,
    })
    expect(refused.status).toBe(409)
    expect((await fieldErrors(refused)).sendingDomain).toEqual([SENDING_DOMAIN_TAKEN])
    expect(SENDING_DOMAIN_TAKEN).not.toMatch(/agenc|tenant|another|organi[sz]ation/i)

    // Its release is queued for the end of its days.
    const [row] = await getDb()
      .select()
      .from(sendingDomains)
      .where(eq(sendingDomains.organizationId, first.organization.id))
    if (!row) throw new Error('not added')
    const [expiry] = await getDb()
      .select()
      .from(jobs)
      .where(
        and(eq(jobs.organizationId, first.organization.id), eq(jobs.name, 'sending-domain.expire')),
      )
    if (!expiry) throw new Error('no expiry queued')
    const days = (expiry.runAt.getTime() - row.createdAt.getTime()) / (24 * 60 * 60 * 1000)
    expect(days).toBeCloseTo(DOMAIN_CLAIM_DAYS, 2)

    // Run early, it changes nothing.
    await jobHandlers['sending-domain.expire']?.run(expiry)
    expect((await load(first.host, first.admin.cookie)).sendingDomain.domain).toBe(domain)

    // Its days over: gone here and at the provider, told in the agency's audit log.
    await getDb()
      .update(sendingDomains)
      .set({ createdAt: new Date(Date.now() - (DOMAIN_CLAIM_DAYS + 1) * 24 * 60 * 60 * 1000) })
      .where(eq(sendingDomains.organizationId, first.organization.id))
    await jobHandlers['sending-domain.expire']?.run(expiry)
    expect((await load(first.host, first.admin.cookie)).sendingDomain.domain).toBeNull()
    expect([...resend.domains.values()].some((d) => d.name === domain)).toBe(false)
    expect(await auditActions(first.organization.id)).toContain('sending_domain.expired')

    // The next agency can now add it.
    const added = await post(second.host, second.admin.cookie, {
      intent: 'add-sending-domain',
      sendingDomain: domain,
    })
    expect(added.status).toBe(302)
    expect((await load(second.host, second.admin.cookie)).sendingDomain.domain).toBe(domain)
  })

  test('a verified sending domain never expires; a check of an expired claim releases it', async () => {
    const verified = await agency('Proven Co')
    const provenDomain = `mail.proven-${uniqueSuffix()}.test`
    await addVerified(verified.host, verified.admin.cookie, provenDomain)
    const longAgo = new Date(Date.now() - 400 * 24 * 60 * 60 * 1000)
    await getDb()
      .update(sendingDomains)
      .set({ createdAt: longAgo })
      .where(eq(sendingDomains.organizationId, verified.organization.id))
    for (const job of await getDb()
      .select()
      .from(jobs)
      .where(
        and(
          eq(jobs.organizationId, verified.organization.id),
          eq(jobs.name, 'sending-domain.expire'),
        ),
      ))
      await jobHandlers['sending-domain.expire']?.run(job)
    expect(await checkSendingDomain(verified.organization.id, null)).toMatchObject({
      outcome: 'checked',
      sending: true,
    })

    // Its proof gone, its days start: a release is queued for then.
    resend.unpublish(provenDomain)
    expect(await checkSendingDomain(verified.organization.id, null)).toMatchObject({
      sending: false,
    })
    const [lost] = await getDb()
      .select()
      .from(sendingDomains)
      .where(eq(sendingDomains.organizationId, verified.organization.id))
    const releases = await getDb()
      .select({ runAt: jobs.runAt })
      .from(jobs)
      .where(
        and(
          eq(jobs.organizationId, verified.organization.id),
          eq(jobs.name, 'sending-domain.expire'),
        ),
      )
    const lostAt = lost?.lostAt?.getTime() ?? 0
    expect(releases.map((job) => (job.runAt.getTime() - lostAt) / (24 * 60 * 60 * 1000))).toContain(
      DOMAIN_CLAIM_DAYS,
    )

    const stale = await agency('Stale Co')
    const staleDomain = `mail.stale-${uniqueSuffix()}.test`
    await post(stale.host, stale.admin.cookie, {
      intent: 'add-sending-domain',
      sendingDomain: staleDomain,
    })
    await getDb()
      .update(sendingDomains)
      .set({ createdAt: longAgo })
      .where(eq(sendingDomains.organizationId, stale.organization.id))
    const checked = await post(stale.host, stale.admin.cookie, { intent: 'check-sending-domain' })
    await expect(checked).toSendToast({
      title: expect.stringMatching(/was not verified within 7 days/),
    })
    expect((await load(stale.host, stale.admin.cookie)).sendingDomain.domain).toBeNull()
    expect([...resend.domains.values()].some((d) => d.name === staleDomain)).toBe(false)
  })
})
