// Inbox flooding in the agency's name (issue 26 point 7): re-inviting an address within the
// cooldown sends nothing; every email a person can cause passes one gate with per-sender,
// per-recipient and per-tenant limits (429, a clear message, nothing queued); an account whose
// email is unconfirmed invites nobody.
import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { setUserPlan } from '#app/models/users.server'
import { LIMITS, limitKey } from '#app/rate-limits/rate-limit.server'
import { action as registerAction } from '#app/routes/auth.register'
import { action as cardAction } from '#app/routes/card.$ref'
import { action as teamAction } from '#app/routes/dashboard.end-user.team'
import { action as profileAction } from '#app/routes/profile._index'
import { action as confirmationAction } from '#app/routes/resources.email-confirmation'
import { CONFIRM_EMAIL_TO_INVITE } from '#app/validation/plans'
import { getDb, withTenant } from '#drizzle/db.server'
import { contacts, emailOutbox, rateLimits, teamInvitations, users } from '#drizzle/schema'
import { databaseChecksum } from '#tests/checksum'
import {
  contextFor,
  formRequest,
  makeCard,
  makeOrganization,
  makeUser,
  replyErrors,
  sessionCookieFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'

type Org = Awaited<ReturnType<typeof makeOrganization>>

const TEAM_PATH = '/dashboard/end-user/team'
const hostOf = (org: Org) => `${org.slug}.localhost`

async function teamOwner(org: Org, overrides: { emailConfirmedAt?: Date | null } = {}) {
  const made = await makeUser(org.id, {
    email: `owner-${uniqueSuffix()}@example.test`,
    ...overrides,
  })
  // The plan as an admin grants it (self-upgrades are refused; teams.test.ts).
  const user = await withTenant(org.id, async (tx) => {
    const updated = await setUserPlan(tx, org.id, made.id, 'free', 'team_pro')
    if (!updated) throw new Error('plan not set')
    return updated
  })
  return { user, cookie: await sessionCookieFor(org.id, user.id) }
}

function postTeam(org: Org, cookie: string, fields: Record<string, string>) {
  return settle(() =>
    teamAction({
      request: formRequest(hostOf(org), TEAM_PATH, fields, cookie),
      context: contextFor(hostOf(org)),
      params: {},
    }),
  )
}

async function createTeam(org: Org, cookie: string, name: string) {
  const response = await postTeam(org, cookie, { intent: 'create-team', name, description: '' })
  expect(response.status).toBe(302)
  const teamId = new URL(response.headers.get('Location') ?? '', 'http://x').searchParams.get(
    'team',
  )
  if (!teamId) throw new Error('no team id')
  return teamId
}

const invite = (org: Org, cookie: string, teamId: string, email: string) =>
  postTeam(org, cookie, { intent: 'add-member', teamId, email, role: 'member' })

const emailsTo = (org: Org, address: string) =>
  getDb()
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.organizationId, org.id), eq(emailOutbox.toAddress, address)))

async function errorOf(response: Response) {
  return ((await response.json()) as { error?: string }).error
}

/** Fills a limit's counter to its maximum, as that many earlier emails would have. */
async function exhaust(name: keyof typeof LIMITS, ...parts: string[]) {
  await getDb()
    .insert(rateLimits)
    .values({
      key: limitKey(name, ...parts),
      count: LIMITS[name].max,
      resetAt: new Date(Date.now() + LIMITS[name].windowMs),
    })
}

/** Every table but the limits' own counters (a refused lead or sign-up still counts for its form). */
const checksum = () => databaseChecksum({ exclude: ['rate_limits'] })

describe('re-inviting an address within the cooldown sends no second email', () => {
  test('20 re-invitations of one outside address at once send one email', async () => {
    const org = await makeOrganization({ name: 'Agency Mail' })
    const owner = await teamOwner(org)
    const teamId = await createTeam(org, owner.cookie, 'Prize: claim at evil.test/win')
    const victim = `victim-${uniqueSuffix()}@outside.test`
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => invite(org, owner.cookie, teamId, victim)),
    )
    const statuses = answers.map((response) => response.status)
    expect(statuses.filter((status) => status === 302)).toHaveLength(1)
    expect(statuses.filter((status) => status === 429)).toHaveLength(19)
    expect(await emailsTo(org, victim)).toHaveLength(1)
    const refusal = answers.find((response) => response.status === 429) as Response
    expect(refusal.headers.get('Retry-After')).toMatch(/^\d+$/)
    expect(await errorOf(refusal)).toMatch(
      new RegExp(
        `^An invitation was sent to ${victim.replace('.', '\\.')} a moment ago\\. You can send it again in (9|10) minutes\\.$`,
      ),
    )
  })

  test('cancelling and inviting again is no way around it; after the cooldown it sends again', async () => {
    const org = await makeOrganization()
    const owner = await teamOwner(org)
    const teamId = await createTeam(org, owner.cookie, 'Sales')
    const invitee = `again-${uniqueSuffix()}@outside.test`
    expect((await invite(org, owner.cookie, teamId, invitee)).status).toBe(302)
    const [invitation] = await getDb()
      .select()
      .from(teamInvitations)
      .where(eq(teamInvitations.teamId, teamId))
    const cancelled = await postTeam(org, owner.cookie, {
      intent: 'cancel-invitation',
      teamId,
      invitationId: invitation?.id ?? '',
    })
    expect(cancelled.status).toBe(302)
    const before = await checksum()
    expect((await invite(org, owner.cookie, teamId, invitee)).status).toBe(429)
    expect(await checksum()).toEqual(before)
    await getDb()
      .update(rateLimits)
      .set({ resetAt: new Date(Date.now() - 1000) })
      .where(eq(rateLimits.key, limitKey('invitationResend', org.id, teamId, invitee)))
    expect((await invite(org, owner.cookie, teamId, invitee)).status).toBe(302)
    expect(await emailsTo(org, invitee)).toHaveLength(2)
  })
})

describe('the send limits: 429 with a clear message, nothing queued', () => {
  test('per sender: an account past its limit invites nobody', async () => {
    const org = await makeOrganization()
    const owner = await teamOwner(org)
    const teamId = await createTeam(org, owner.cookie, 'Sales')
    await exhaust('emailSender', org.id, owner.user.id)
    const before = await databaseChecksum()
    const response = await invite(org, owner.cookie, teamId, `n-${uniqueSuffix()}@outside.test`)
    expect(response.status).toBe(429)
    expect(response.headers.get('Retry-After')).toMatch(/^\d+$/)
    expect(await errorOf(response)).toMatch(
      /^You have caused too many emails in a short time\. Please wait \d+ minutes and try again\.$/,
    )
    expect(await databaseChecksum()).toEqual(before)
  })

  test('per sender, not signed in: one client address past its limit across the public forms', async () => {
    const org = await makeOrganization()
    const owner = await makeUser(org.id)
    const card = await makeCard(org.id, owner.id)
    await exhaust('emailSenderIp', '198.51.100.76')
    const before = await checksum()
    const response = await settle(() =>
      cardAction({
        request: formRequest(hostOf(org), `/card/${card.id}`, {
          intent: 'lead',
          fullName: 'Lee Lead',
          email: `lead-${uniqueSuffix()}@example.test`,
        }),
        context: contextFor(hostOf(org), '198.51.100.76'),
        params: { ref: card.id },
      }),
    )
    expect(response.status).toBe(429)
    expect((await replyErrors(response))['']?.[0]).toMatch(/^You have caused too many emails/)
    expect(await checksum()).toEqual(before)
  })

  test('per recipient: a card owner flooded with leads from many addresses', async () => {
    const org = await makeOrganization()
    const owner = await makeUser(org.id, { email: `flooded-${uniqueSuffix()}@example.test` })
    const card = await makeCard(org.id, owner.id)
    await exhaust('emailRecipient', org.id, owner.email)
    const before = await checksum()
    const response = await settle(() =>
      cardAction({
        request: formRequest(hostOf(org), `/card/${card.id}`, {
          intent: 'lead',
          fullName: 'Lee Lead',
          email: `lead-${uniqueSuffix()}@example.test`,
        }),
        context: contextFor(hostOf(org), '198.51.100.77'),
        params: { ref: card.id },
      }),
    )
    expect(response.status).toBe(429)
    expect(await replyErrors(response)).toEqual({
      '': [
        expect.stringMatching(
          /^Too many emails have gone to this address recently\. Please wait \d+ minutes and try again\.$/,
        ),
      ],
    })
    // The lead rolled back with its email: nothing was saved or queued.
    expect(await checksum()).toEqual(before)
    expect(await getDb().select().from(contacts).where(eq(contacts.userId, owner.id))).toEqual([])
  })

  test('per tenant: a sign-up on a tenant past its limit', async () => {
    const org = await makeOrganization()
    await exhaust('emailTenant', org.id)
    const email = `new-${uniqueSuffix()}@example.test`
    const before = await checksum()
    const response = await settle(() =>
      registerAction({
        request: formRequest(hostOf(org), '/auth/register', {
          firstName: 'New',
          lastName: 'Person',
          email,
          password: 'a-long-password',
        }),
        context: contextFor(hostOf(org), '198.51.100.78'),
        params: {},
      }),
    )
    expect(response.status).toBe(429)
    expect((await replyErrors(response))['']).toEqual([
      expect.stringMatching(
        /^This site has sent too many emails in the last hour\. Please wait \d+ minutes and try again\.$/,
      ),
    ])
    expect(await checksum()).toEqual(before)
    expect(await getDb().select().from(users).where(eq(users.email, email))).toEqual([])
  })

  test('an email change to an address past its limit is refused, not made in silence', async () => {
    const org = await makeOrganization()
    const user = await makeUser(org.id, { password: 'old-secret' })
    const cookie = await sessionCookieFor(org.id, user.id)
    const target = `target-${uniqueSuffix()}@example.test`
    await exhaust('emailRecipient', org.id, target)
    const before = await checksum()
    const response = await settle(() =>
      profileAction({
        request: formRequest(
          hostOf(org),
          '/profile?index',
          {
            intent: 'profile',
            firstName: 'Ada',
            lastName: 'Lovelace',
            email: target,
            currentPassword: 'old-secret',
          },
          cookie,
        ),
        context: contextFor(hostOf(org), '198.51.100.79'),
        params: {},
      }),
    )
    expect(response.status).toBe(429)
    expect((await replyErrors(response))['']?.[0]).toMatch(/^Too many emails have gone to this/)
    expect(await checksum()).toEqual(before)
  })

  test('a confirmation resend past the sender limit says so and queues nothing', async () => {
    const org = await makeOrganization()
    const user = await makeUser(org.id, { emailConfirmedAt: null })
    const cookie = await sessionCookieFor(org.id, user.id)
    await exhaust('emailSender', org.id, user.id)
    const before = await checksum()
    const response = await settle(() =>
      confirmationAction({
        request: formRequest(
          hostOf(org),
          '/resources/email-confirmation',
          { intent: 'resend', redirectTo: '/' },
          cookie,
        ),
        context: contextFor(hostOf(org), '198.51.100.80'),
        params: {},
      }),
    )
    // The banner's form answers with a redirect carrying the refusal (it works without JavaScript).
    expect(response.headers.get('Retry-After')).toMatch(/^\d+$/)
    await expect(response).toSendToast({
      title: expect.stringMatching(/^You have caused too many emails in a short time/),
    })
    expect(await checksum()).toEqual(before)
  })
})

test('an account whose email is unconfirmed invites nobody', async () => {
  const org = await makeOrganization()
  const owner = await teamOwner(org, { emailConfirmedAt: null })
  const teamId = await createTeam(org, owner.cookie, 'Unconfirmed')
  const before = await databaseChecksum()
  const response = await invite(org, owner.cookie, teamId, `x-${uniqueSuffix()}@outside.test`)
  expect(response.status).toBe(403)
  expect(await errorOf(response)).toBe(CONFIRM_EMAIL_TO_INVITE)
  expect(await databaseChecksum()).toEqual(before)
})
