// "Delete my account" (issue 31 point 4, ADR 053): the request with the password (refused for
// the platform's last super admin and an agency's last admin, with nothing written), the
// cancellation on every sign-in path, and the job once the grace period is over (the clock moved
// by updating the scheduled time): the hand-over to the agency's chosen successor, the admins'
// email, the rows and images gone, the departed links forwarding through every card page, an
// account without an agency just gone, and nothing of another tenant touched.
import { generateTOTP } from '@oslojs/otp'
import { and, eq, sql } from 'drizzle-orm'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { signIn } from '#app/auth/accounts.server'
import { sessionCookieName } from '#app/auth/session.server'
import { confirmEnrolment, enrolmentOf, newTotpKey } from '#app/auth/two-factor.server'
import { runJobsNow } from '#app/job-handlers.server'
import { addContact, listContacts, setContactPersonal } from '#app/models/contacts.server'
import { storeMedia } from '#app/models/media.server'
import { setSeatSuccessor } from '#app/models/seat-successors.server'
import { setUserPreference } from '#app/models/user-settings.server'
import { findUserById, updateProfile } from '#app/models/users.server'
import { deleteAccountWhenDue, requeueOverdueDeletions } from '#app/people/account-deletion.server'
import { resolveTenant, type Tenant } from '#app/tenancy/tenant.server'
import {
  DELETION_CANCELLED,
  DELETION_PENDING,
  DELETION_SCHEDULED,
  LAST_AGENCY_ADMIN_DELETION,
  LAST_SUPER_ADMIN_DELETION,
  PASSWORD_REQUIRED,
  WRONG_PASSWORD,
} from '#app/validation/account-deletion'
import { getDb, withTenant } from '#drizzle/db.server'
import {
  accountDeletions,
  auditEvents,
  cardSlugs,
  contacts,
  dataExports,
  departedAddresses,
  digitalCards,
  emailOutbox,
  jobs,
  media,
  rateLimits,
  sessions,
  users,
} from '#drizzle/schema'
import { databaseChecksum } from '#tests/checksum'
import { openEnrolmentLink } from '#tests/enrolment-link'
import {
  contextFor,
  formRequest,
  getPlatformOrganization,
  makeBrandedOrganization,
  makeCard,
  makePng,
  makeUser,
  replyErrors,
  requestFor,
  sessionCookieFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'
import { loadRoute } from '#tests/route-modules'
import { virtualPasskey } from '#tests/virtual-authenticator'

const PASSWORD = 'password123'
const IP = '203.0.113.53'
const DAY_MS = 86_400_000

let tenant: Tenant
let host: string
let otherTenant: Tenant
let otherHost: string

async function tenantOf(slugHost: string) {
  const resolution = await resolveTenant(slugHost)
  if (resolution.status !== 'found') throw new Error('tenant not found')
  return resolution.tenant
}

beforeAll(async () => {
  const { organization } = await makeBrandedOrganization()
  host = `${organization.slug}.localhost`
  tenant = await tenantOf(host)
  const other = await makeBrandedOrganization()
  otherHost = `${other.organization.slug}.localhost`
  otherTenant = await tenantOf(otherHost)
  // Every agency here keeps an admin nobody deletes.
  await makeUser(tenant.id, { role: 'agency_admin', email: `keeper-${uniqueSuffix()}@a.test` })
})

afterEach(async () => {
  await getDb().delete(rateLimits)
})

async function post(
  route: string,
  path: string,
  fields: Record<string, string>,
  cookie = '',
  on = host,
) {
  const mod = await loadRoute(route)
  return settle(async () =>
    mod.action?.({
      request: formRequest(on, path, fields, cookie),
      context: contextFor(on, IP),
      params: {},
    }),
  )
}

const requestDeletion = (cookie: string, password = PASSWORD, on = host) =>
  post('account.delete.ts', '/account/delete', { password }, cookie, on)

const pendingOf = async (userId: string) =>
  (await getDb().select().from(accountDeletions).where(eq(accountDeletions.userId, userId)))[0]

const actionsOf = async (userId: string) =>
  (
    await getDb()
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, userId))
  ).map((row) => row.action)

async function signInAs(email: string, on: Tenant = tenant) {
  const signedIn = await signIn(
    on,
    { email, password: PASSWORD },
    IP,
    requestFor(`${on.slug}.localhost`, '/auth/login'),
  )
  if (!signedIn) throw new Error('sign-in failed')
  return { ...signedIn, cookie: `${sessionCookieName()}=${signedIn.session.token}` }
}

/** The clock moved: the deletion and its job are due now. */
async function moveClockPast(userId: string) {
  const past = new Date(Date.now() - 60_000)
  await getDb()
    .update(accountDeletions)
    .set({ scheduledFor: past })
    .where(eq(accountDeletions.userId, userId))
  await getDb()
    .update(jobs)
    .set({ runAt: past })
    .where(and(eq(jobs.name, 'account.delete'), sql`${jobs.payload}->>'userId' = ${userId}`))
}

describe('asking for the deletion', () => {
  test('the password schedules it 14 days ahead, signs out everywhere, audits and emails the date', async () => {
    const person = await makeUser(tenant.id, { firstName: 'Della', password: PASSWORD })
    const cookie = await sessionCookieFor(tenant.id, person.id)
    await sessionCookieFor(tenant.id, person.id) // another device

    const empty = await requestDeletion(cookie, '')
    expect(empty.status).toBe(400)
    expect((await replyErrors(empty)).password).toEqual([PASSWORD_REQUIRED])
    const wrong = await requestDeletion(cookie, 'not my password')
    expect(wrong.status).toBe(400)
    expect((await replyErrors(wrong)).password).toEqual([WRONG_PASSWORD])
    expect(await pendingOf(person.id)).toBeUndefined()

    const before = Date.now()
    const done = await requestDeletion(cookie)
    expect(done).toHaveRedirect('/auth/login')
    expect(done.headers.get('Set-Cookie')).toContain('Max-Age=0')
    const pending = await pendingOf(person.id)
    if (!pending) throw new Error('not scheduled')
    const ahead = pending.scheduledFor.getTime() - before
    expect(ahead).toBeGreaterThanOrEqual(14 * DAY_MS)
    expect(ahead).toBeLessThan(14 * DAY_MS + 60_000)
    await expect(done).toSendToast(DELETION_SCHEDULED(pending.scheduledFor))
    const left = await getDb().select().from(sessions).where(eq(sessions.userId, person.id))
    expect(left).toHaveLength(0)
    expect(await actionsOf(person.id)).toContain('account.deletion_scheduled')
    const [job] = await getDb()
      .select()
      .from(jobs)
      .where(and(eq(jobs.name, 'account.delete'), sql`${jobs.payload}->>'userId' = ${person.id}`))
    expect(job?.runAt.getTime()).toBe(pending.scheduledFor.getTime())
    expect(job?.state).toBe('queued')
    const [email] = await getDb()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, person.email))
    expect(email?.subject).toContain('will be deleted on')
    expect(email?.text).toContain('Sign in before that date')
    expect(email?.text).toContain(`/auth/login`)
    // The agency's admins hear of it now, while a hand-over can still keep the contacts.
    const [heads] = await getDb()
      .select()
      .from(emailOutbox)
      .where(
        and(
          eq(emailOutbox.organizationId, tenant.id),
          sql`${emailOutbox.subject} like ${`Della ${person.lastName} asked to delete their%`}`,
        ),
      )
    expect(heads?.toAddress).toMatch(/^keeper-/)
    expect(heads?.text).toContain('choose Hand Over for them on End Users before that date')
    // Signed out: the page is the sign-in page's.
    const profile = await loadRoute('profile._index.tsx')
    const after = await settle(async () =>
      profile.loader?.({
        request: requestFor(host, '/profile', { headers: { Cookie: cookie } }),
        context: contextFor(host, IP),
        params: {},
      }),
    )
    expect(after).toHaveRedirect(/^\/auth\/login/)
  })

  test("an agency's last admin is refused until another admin stays; nothing is written", async () => {
    const { organization } = await makeBrandedOrganization()
    const agencyHost = `${organization.slug}.localhost`
    const first = await makeUser(organization.id, { role: 'agency_admin', password: PASSWORD })
    const firstCookie = await sessionCookieFor(organization.id, first.id)
    const before = await databaseChecksum({
      organizationId: organization.id,
      exclude: ['sessions', 'rate_limits'],
    })
    const refused = await requestDeletion(firstCookie, PASSWORD, agencyHost)
    expect(refused.status).toBe(409)
    expect(await refused.json()).toMatchObject({ error: LAST_AGENCY_ADMIN_DELETION })
    expect(
      await databaseChecksum({
        organizationId: organization.id,
        exclude: ['sessions', 'rate_limits'],
      }),
    ).toEqual(before)

    const second = await makeUser(organization.id, { role: 'agency_admin', password: PASSWORD })
    expect(await requestDeletion(firstCookie, PASSWORD, agencyHost)).toHaveRedirect('/auth/login')
    // The first admin's deletion is pending: the second is the last one now.
    const secondCookie = await sessionCookieFor(organization.id, second.id)
    const alsoRefused = await requestDeletion(secondCookie, PASSWORD, agencyHost)
    expect(alsoRefused.status).toBe(409)
    expect(await pendingOf(second.id)).toBeUndefined()
  })

  test("the platform's last super admin is refused", async () => {
    const platform = await getPlatformOrganization()
    const existing = await getDb()
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.organizationId, platform.id), eq(users.role, 'super_admin')))
    // Only meaningful while this file's platform has no other super admin.
    expect(existing).toHaveLength(0)
    const admin = await makeUser(platform.id, { role: 'super_admin', password: PASSWORD })
    const cookie = await sessionCookieFor(platform.id, admin.id)
    const refused = await requestDeletion(cookie, PASSWORD, 'localhost')
    expect(refused.status).toBe(409)
    expect(await refused.json()).toMatchObject({ error: LAST_SUPER_ADMIN_DELETION })
    expect(await pendingOf(admin.id)).toBeUndefined()
  })
})

/**
 * A completed sign-in leaves the deletion scheduled and says so (ADR 081): the person may have
 * come for their data. "Keep my account" (the banner's) then cancels it, audited.
 */
async function stillScheduledThenKept(step: Response, userId: string, cookie: string) {
  const pending = await pendingOf(userId)
  expect(pending).toBeDefined()
  await expect(step).toSendToast(DELETION_PENDING(pending?.scheduledFor ?? new Date()))
  const kept = await post('account.keep.ts', '/account/keep', { redirectTo: '/contacts' }, cookie)
  expect(kept).toHaveRedirect('/contacts')
  await expect(kept).toSendToast(DELETION_CANCELLED)
  expect(await pendingOf(userId)).toBeUndefined()
  expect(await actionsOf(userId)).toContain('account.deletion_cancelled')
  // Nothing left to keep: refused, nothing written.
  const again = await post('account.keep.ts', '/account/keep', {}, cookie)
  expect(again.status).toBe(409)
}

describe('signing in during the grace period keeps it scheduled; Keep my account cancels it', () => {
  async function scheduled(overrides: { role?: 'end_user' | 'agency_admin' } = {}) {
    const person = await makeUser(tenant.id, { password: PASSWORD, ...overrides })
    const cookie = await sessionCookieFor(tenant.id, person.id)
    expect(await requestDeletion(cookie)).toHaveRedirect('/auth/login')
    expect(await pendingOf(person.id)).toBeDefined()
    return person
  }

  test('with the password; the data can be downloaded meanwhile', async () => {
    const person = await scheduled()
    const signedIn = await post('auth.login.tsx', '/auth/login', {
      email: person.email,
      password: PASSWORD,
    })
    expect(signedIn).toHaveRedirect('/dashboard/end-user')
    // Signed in for the data (issue 41 point 16): the export is taken, the deletion stands.
    const { cookie } = await signInAs(person.email)
    const exported = await post(
      'account.data-export.tsx',
      '/account/data-export',
      { intent: 'request' },
      cookie,
    )
    expect(exported.status).toBe(302)
    const exports = await getDb()
      .select()
      .from(dataExports)
      .where(eq(dataExports.userId, person.id))
    expect(exports).toHaveLength(1)
    await stillScheduledThenKept(signedIn, person.id, cookie)
    // A later sign-in has nothing pending and says the usual.
    const again = await post('auth.login.tsx', '/auth/login', {
      email: person.email,
      password: PASSWORD,
    })
    await expect(again).toSendToast('Signed in successfully!')
  })

  async function withAuthenticator() {
    const person = await makeUser(tenant.id, { password: PASSWORD })
    const key = newTotpKey()
    const { sealedKey } = await enrolmentOf(key, tenant.name, person.email, {
      organizationId: tenant.id,
      userId: person.id,
      sessionId: 'no-session',
    })
    const recoveryCodes = await confirmEnrolment(
      tenant,
      person,
      'no-session',
      { sealedKey, code: generateTOTP(key, 30, 6) },
      IP,
    )
    const cookie = await sessionCookieFor(tenant.id, person.id)
    expect(await requestDeletion(cookie)).toHaveRedirect('/auth/login')
    return { person, key, recoveryCodes }
  }

  test('with the password and then the code: only the completed sign-in says it', async () => {
    const { person, key } = await withAuthenticator()
    const { cookie, deletionPending } = await signInAs(person.email)
    // The password alone leaves a pending session, which names no date.
    expect(deletionPending).toBeNull()
    expect(await pendingOf(person.id)).toBeDefined()
    const step = await post(
      'auth.two-factor.tsx',
      '/auth/two-factor',
      { intent: 'code', code: generateTOTP(key, 30, 6) },
      cookie,
    )
    expect(step).toHaveRedirect('/dashboard/end-user')
    await stillScheduledThenKept(step, person.id, cookie)
  })

  test('with a recovery code', async () => {
    const { person, recoveryCodes } = await withAuthenticator()
    const { cookie } = await signInAs(person.email)
    const step = await post(
      'auth.two-factor.tsx',
      '/auth/two-factor',
      { intent: 'recovery', recoveryCode: recoveryCodes[0] ?? '' },
      cookie,
    )
    await stillScheduledThenKept(step, person.id, cookie)
  })

  test('with a passkey', async () => {
    const person = await makeUser(tenant.id, { password: PASSWORD })
    const origin = `http://${host}`
    const key = virtualPasskey(origin)
    const cookie = await sessionCookieFor(tenant.id, person.id)
    const registration = await post(
      'account.two-factor.tsx',
      '/account/two-factor',
      { intent: 'passkey-options' },
      cookie,
    )
    const { options } = (await registration.json()) as { options: never }
    expect(
      await post(
        'account.two-factor.tsx',
        '/account/two-factor',
        {
          intent: 'passkey-add',
          name: 'Laptop',
          credential: JSON.stringify(key.register(options)),
        },
        cookie,
      ),
    ).toHaveRedirect('/account/two-factor')
    expect(await requestDeletion(cookie)).toHaveRedirect('/auth/login')

    const signedIn = await signInAs(person.email)
    expect(await pendingOf(person.id)).toBeDefined()
    const asked = await post(
      'auth.two-factor.tsx',
      '/auth/two-factor',
      { intent: 'passkey-options' },
      signedIn.cookie,
    )
    const challenge = ((await asked.json()) as { options: never }).options
    const step = await post(
      'auth.two-factor.tsx',
      '/auth/two-factor',
      { intent: 'passkey', credential: JSON.stringify(key.authenticate(challenge)) },
      signedIn.cookie,
    )
    expect(step).toHaveRedirect('/dashboard/end-user')
    await stillScheduledThenKept(step, person.id, signedIn.cookie)
  })

  test('with a passkey enrolled at the step (an admin required to have a second factor)', async () => {
    const person = await scheduled({ role: 'agency_admin' })
    const signedIn = await signInAs(person.email)
    expect(signedIn.deletionPending).toBeNull()
    // A first factor at the step needs the emailed link first (ADR 054).
    await openEnrolmentLink(
      (fields) => post('auth.two-factor.tsx', '/auth/two-factor', fields, signedIn.cookie),
      tenant.id,
      person.email,
    )
    const key = virtualPasskey(`http://${host}`)
    const asked = await post(
      'auth.two-factor.tsx',
      '/auth/two-factor',
      { intent: 'passkey-options' },
      signedIn.cookie,
    )
    const { options } = (await asked.json()) as { options: never }
    const step = await post(
      'auth.two-factor.tsx',
      '/auth/two-factor',
      { intent: 'passkey-add', name: 'Phone', credential: JSON.stringify(key.register(options)) },
      signedIn.cookie,
    )
    expect(step).toHaveRedirect('/dashboard/agency')
    await stillScheduledThenKept(step, person.id, signedIn.cookie)
  })

  test("a kept account's job does nothing, even once due", async () => {
    const person = await scheduled()
    const { cookie } = await signInAs(person.email)
    await post('account.keep.ts', '/account/keep', {}, cookie)
    await moveClockPast(person.id)
    await runJobsNow()
    expect(
      await withTenant(tenant.id, (tx) => findUserById(tx, tenant.id, person.id)),
    ).toBeDefined()
  })

  test('a deletion whose job died is queued again by the hourly visit, once per hour', async () => {
    const person = await scheduled()
    const waiting = await scheduled()
    // Both past their date; the first's job ran out of attempts an hour and more ago.
    await moveClockPast(person.id)
    const longAgo = new Date(Date.now() - 2 * 60 * 60 * 1000)
    await getDb()
      .update(accountDeletions)
      .set({ scheduledFor: longAgo })
      .where(eq(accountDeletions.userId, person.id))
    await getDb()
      .update(jobs)
      .set({ state: 'dead' })
      .where(and(eq(jobs.name, 'account.delete'), sql`${jobs.payload}->>'userId' = ${person.id}`))
    // Due within the hour: its own job is still on its way, nothing more is queued for it.
    await getDb()
      .update(accountDeletions)
      .set({ scheduledFor: new Date(Date.now() - 60_000) })
      .where(eq(accountDeletions.userId, waiting.id))

    expect(await requeueOverdueDeletions()).toBeGreaterThanOrEqual(1)
    const queuedFor = async (userId: string) =>
      getDb()
        .select({ state: jobs.state })
        .from(jobs)
        .where(and(eq(jobs.name, 'account.delete'), sql`${jobs.payload}->>'userId' = ${userId}`))
    expect((await queuedFor(person.id)).map((job) => job.state).sort()).toEqual(['dead', 'queued'])
    expect(await queuedFor(waiting.id)).toHaveLength(1)
    // The same hour's visit again queues nothing new.
    await requeueOverdueDeletions()
    expect(await queuedFor(person.id)).toHaveLength(2)

    await runJobsNow()
    expect(
      await withTenant(tenant.id, (tx) => findUserById(tx, tenant.id, person.id)),
    ).toBeUndefined()
    expect(await pendingOf(person.id)).toBeUndefined()
  })
})

describe('after the grace period', () => {
  async function agencyPerson() {
    const dora = await makeUser(tenant.id, {
      firstName: 'Dora',
      lastName: `Departed${uniqueSuffix()}`,
      password: PASSWORD,
    })
    const sam = await makeUser(tenant.id, {
      firstName: 'Sam',
      lastName: `Successor${uniqueSuffix()}`,
      passwordHash: 'x',
    })
    const doraCard = await makeCard(tenant.id, dora.id, { firstName: 'Dora', lastName: 'D' })
    const samCard = await makeCard(tenant.id, sam.id, { firstName: 'Sam', lastName: 'S' })
    const own = await storeMedia(getDb(), tenant.id, {
      bytes: await makePng(`#${uniqueSuffix().slice(0, 6)}`),
      contentType: 'image/png',
      width: 40,
      height: 20,
      purpose: 'profilePicture',
      uploadedBy: dora.id,
    })
    const shared = await storeMedia(getDb(), tenant.id, {
      bytes: await makePng(`#${uniqueSuffix().slice(0, 6)}`),
      contentType: 'image/png',
      width: 40,
      height: 20,
      purpose: 'logo',
      uploadedBy: dora.id,
    })
    await withTenant(tenant.id, async (tx) => {
      await updateProfile(tx, tenant.id, dora.id, {
        profilePictureMediaId: own.id,
        logoMediaId: shared.id,
      })
      // Sam uses the same logo: it stays.
      await updateProfile(tx, tenant.id, sam.id, { logoMediaId: shared.id })
      await addContact(tx, tenant.id, dora.id, { fullName: 'Client One', email: 'one@c.test' })
      await addContact(tx, tenant.id, dora.id, { fullName: 'Client Two' })
      const mum = await addContact(tx, tenant.id, dora.id, { fullName: 'Mum' })
      if (mum.status !== 'created') throw new Error('no contact')
      await setContactPersonal(tx, tenant.id, dora.id, mum.contact.id, true)
    })
    const slugOf = async (cardId: string) =>
      (
        await getDb()
          .select({ slug: cardSlugs.slug })
          .from(cardSlugs)
          .where(and(eq(cardSlugs.cardId, cardId), sql`${cardSlugs.retiredAt} is null`))
      )[0]?.slug ?? ''
    const fresh = await withTenant(tenant.id, (tx) => findUserById(tx, tenant.id, dora.id))
    return {
      dora,
      sam,
      doraCard,
      samCard,
      own,
      shared,
      doraSlug: await slugOf(doraCard.id),
      samSlug: await slugOf(samCard.id),
      nameLink: fresh?.linkSlug ?? null,
    }
  }

  async function openPage(route: string, path: string, params: Record<string, string>, on = host) {
    const page = await loadRoute(route)
    return settle(async () =>
      page.loader?.({ request: requestFor(on, path), context: contextFor(on), params }),
    )
  }

  /** Every card page a departed address may arrive at, as a visitor. */
  const cardPages = (cardId: string, slug: string, nameLink: string | null) => [
    ['card.$ref.tsx', `/card/${cardId}`, { ref: cardId }] as const,
    ['contact.$ref.tsx', `/contact/${cardId}`, { ref: cardId }] as const,
    ['c.$slug.tsx', `/c/${slug}`, { slug }] as const,
    ['c.$slug.tsx', `/C/${slug.toUpperCase()}`, { slug: slug.toUpperCase() }] as const,
    ...(nameLink
      ? [
          ['card.$ref.tsx', `/card/${nameLink}`, { ref: nameLink }] as const,
          ['contact.$ref.tsx', `/contact/${nameLink}`, { ref: nameLink }] as const,
        ]
      : []),
  ]

  test('the job hands the seat over, deletes rows and images, tells the admins, and the links forward', async () => {
    const agency = await agencyPerson()
    const { dora, sam } = agency
    await withTenant(tenant.id, (tx) => setSeatSuccessor(tx, tenant.id, dora.id, sam.id, null))
    const doraCookie = await sessionCookieFor(tenant.id, dora.id)
    expect(await requestDeletion(doraCookie)).toHaveRedirect('/auth/login')
    const otherBefore = await databaseChecksum({ organizationId: otherTenant.id })

    // Not due yet: the job's run changes nothing.
    expect(await deleteAccountWhenDue(tenant.id, dora.id)).toBe(false)
    await moveClockPast(dora.id)
    await runJobsNow()

    expect(
      await withTenant(tenant.id, (tx) => findUserById(tx, tenant.id, dora.id)),
    ).toBeUndefined()
    expect(await pendingOf(dora.id)).toBeUndefined()
    const cards = await getDb().select().from(digitalCards).where(eq(digitalCards.userId, dora.id))
    expect(cards).toHaveLength(0)
    // The company contacts are Sam's; the personal one went with Dora.
    const samContacts = await withTenant(tenant.id, (tx) => listContacts(tx, tenant.id, sam.id))
    expect(samContacts.map((contact) => contact.fullName).sort()).toEqual([
      'Client One',
      'Client Two',
    ])
    expect(await getDb().select().from(contacts).where(eq(contacts.userId, dora.id))).toHaveLength(
      0,
    )
    // Her own image is gone; the logo Sam uses too stays.
    const images = await getDb()
      .select({ id: media.id })
      .from(media)
      .where(eq(media.uploadedBy, dora.id))
    expect(images.map((image) => image.id)).toEqual([agency.shared.id])
    expect(await actionsOf(dora.id)).toEqual(
      expect.arrayContaining(['account.deleted', 'user.seat_handed_over']),
    )
    // The departed addresses: only what routing needs.
    const departed = await getDb()
      .select()
      .from(departedAddresses)
      .where(eq(departedAddresses.organizationId, tenant.id))
    expect(departed.map((row) => `${row.kind}:${row.address}`)).toEqual(
      expect.arrayContaining([
        `card:${agency.doraCard.id}`,
        `slug:${agency.doraSlug}`,
        ...(agency.nameLink ? [`name:${agency.nameLink}`] : []),
      ]),
    )
    expect(departed.every((row) => row.successorId === sam.id)).toBe(true)
    // The agency's admins heard, in its branding.
    const adminEmails = await getDb()
      .select()
      .from(emailOutbox)
      .where(
        and(
          eq(emailOutbox.organizationId, tenant.id),
          sql`${emailOutbox.subject} like ${`Dora ${dora.lastName} deleted their%`}`,
        ),
      )
    expect(adminEmails.length).toBeGreaterThan(0)
    expect(adminEmails[0]?.fromName).toBe(tenant.name)
    expect(adminEmails[0]?.text).toContain('2 contacts moved')

    // Every card page of hers opens Sam's card.
    for (const [route, path, params] of cardPages(
      agency.doraCard.id,
      agency.doraSlug,
      agency.nameLink,
    )) {
      const answer = await openPage(route, path, params)
      expect(answer, path).toHaveRedirect(new RegExp(`^/c/${agency.samSlug}(\\?s=q)?$`))
    }
    // Every other surface stays as closed as it was: the vCard, the QR code, the pass.
    for (const route of [
      'card_.$ref.vcard.ts',
      'card_.$ref.qr[.]png.ts',
      'card_.$ref.pass[.]pkpass.ts',
    ]) {
      const ref = agency.doraCard.id
      expect((await openPage(route, `/card/${ref}`, { ref })).status, route).toBe(404)
    }
    // Another agency's host knows nothing of them.
    const elsewhere = await openPage(
      'c.$slug.tsx',
      `/c/${agency.doraSlug}`,
      {
        slug: agency.doraSlug,
      },
      otherHost,
    )
    expect(elsewhere.status).toBe(404)
    expect(await databaseChecksum({ organizationId: otherTenant.id })).toEqual(otherBefore)

    // Run again (a repeated job): nothing more happens.
    expect(await deleteAccountWhenDue(tenant.id, dora.id)).toBe(false)
    // She cannot sign in any more.
    expect(
      await signIn(tenant, { email: dora.email, password: PASSWORD }, IP, requestFor(host)),
    ).toBeNull()
  })

  test("without a successor the links answer the agency's default; a live card taking the slug wins", async () => {
    const agency = await agencyPerson()
    const cookie = await sessionCookieFor(tenant.id, agency.dora.id)
    expect(await requestDeletion(cookie)).toHaveRedirect('/auth/login')
    await moveClockPast(agency.dora.id)
    await runJobsNow()
    for (const [route, path, params] of cardPages(
      agency.doraCard.id,
      agency.doraSlug,
      agency.nameLink,
    )) {
      const answer = await openPage(route, path, params)
      expect(answer.status, path).toBe(410)
      const body = await answer.text()
      expect(body).toContain('This person is no longer with us')
      expect(body).not.toContain('Dora')
    }
    // The slug taken by a new card: the new card answers.
    const newcomer = await makeUser(tenant.id, { passwordHash: 'x' })
    const card = await makeCard(tenant.id, newcomer.id)
    await withTenant(tenant.id, (tx) =>
      tx.execute(
        sql`update card_slugs set slug = ${agency.doraSlug} where card_id = ${card.id} and retired_at is null`,
      ),
    )
    const taken = await openPage('c.$slug.tsx', `/c/${agency.doraSlug}`, { slug: agency.doraSlug })
    expect(taken.status).toBe(200)
  })

  test('a private card leaves no address behind: its links 404', async () => {
    const agency = await agencyPerson()
    await withTenant(tenant.id, (tx) =>
      setUserPreference(tx, tenant.id, agency.dora.id, 'privacy', { visibility: 'private' }),
    )
    const cookie = await sessionCookieFor(tenant.id, agency.dora.id)
    expect(await requestDeletion(cookie)).toHaveRedirect('/auth/login')
    await moveClockPast(agency.dora.id)
    await runJobsNow()
    const answer = await openPage('c.$slug.tsx', `/c/${agency.doraSlug}`, {
      slug: agency.doraSlug,
    })
    expect(answer.status).toBe(404)
  })

  test('an account without an agency just goes: its links 404', async () => {
    const platform = await getPlatformOrganization()
    const person = await makeUser(platform.id, { password: PASSWORD })
    const card = await makeCard(platform.id, person.id)
    const cookie = await sessionCookieFor(platform.id, person.id)
    expect(await requestDeletion(cookie, PASSWORD, 'localhost')).toHaveRedirect('/auth/login')
    await moveClockPast(person.id)
    await runJobsNow()
    expect(
      await withTenant(platform.id, (tx) => findUserById(tx, platform.id, person.id)),
    ).toBeUndefined()
    const answer = await openPage(
      'card.$ref.tsx',
      `/card/${card.id}`,
      { ref: card.id },
      'localhost',
    )
    expect(answer.status).toBe(404)
    const kept = await getDb()
      .select()
      .from(departedAddresses)
      .where(eq(departedAddresses.organizationId, platform.id))
    expect(kept).toHaveLength(0)
  })
})
