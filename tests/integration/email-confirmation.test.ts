// The sign-up confirmation email (issue 12): sent on sign-up and email change, branded, on the
// tenant's host; its token is hashed, single use, 24 h, for one address of one tenant; the
// banner and its rate-limited resend; the profile's status.
import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { hashToken } from '#app/email/link-token.server'
import { insertEmailConfirmationToken } from '#app/models/email-confirmations.server'
import { activityLabel } from '#app/profile/activity'
import { loader as rootLoader } from '#app/root'
import { action as confirmAction, loader as confirmLoader } from '#app/routes/auth.confirm-email'
import { action as registerAction } from '#app/routes/auth.register'
import { action as profileAction, loader as profileLoader } from '#app/routes/profile._index'
import { action as bannerAction } from '#app/routes/resources.email-confirmation'
import {
  ALREADY_CONFIRMED_MESSAGE,
  CONFIRMATION_SENT_MESSAGE,
  EMAIL_CONFIRMED_MESSAGE,
  INVALID_CONFIRMATION_MESSAGE,
} from '#app/validation/email-confirmation'
import { getDb, withTenant } from '#drizzle/db.server'
import { auditEvents, emailConfirmationTokens, emailOutbox, users } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeBrandedOrganization,
  makeOrganization,
  makeUser,
  replyErrors,
  requestFor,
  sessionCookieFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'
import { asDelivered } from '#tests/inbox'

const LINK = /(https?:\/\/[^\s"]+)\/auth\/confirm-email\?token=([a-z2-7]+)/

async function tenant() {
  const branded = await makeBrandedOrganization({ name: 'Confirm Co', primaryColor: '#0a7b83' })
  return { ...branded, host: `${branded.organization.slug}.localhost` }
}

function register(host: string, email: string, headers: Record<string, string> = {}) {
  const request = formRequest(host, '/auth/register', {
    firstName: 'Cora',
    lastName: 'Confirm',
    email,
    password: 'cora-secret',
  })
  for (const [name, value] of Object.entries(headers)) request.headers.set(name, value)
  return settle(() =>
    registerAction({ request, context: contextFor(host, `198.51.100.${run()}`), params: {} }),
  )
}
let runs = 0
const run = () => (runs++ % 200) + 1

async function emailsTo(organizationId: string, to: string) {
  return asDelivered(
    await getDb()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.organizationId, organizationId), eq(emailOutbox.toAddress, to))),
  )
}

async function confirmationLinksTo(organizationId: string, to: string) {
  const emails = (await emailsTo(organizationId, to)).filter((e) =>
    e.subject.startsWith('Confirm your email'),
  )
  return emails.map((e) => {
    const match = LINK.exec(e.text)
    if (!match) throw new Error(`no confirmation link in ${e.text}`)
    return { origin: match[1] ?? '', token: match[2] ?? '', email: e }
  })
}

const userByEmail = async (organizationId: string, email: string) => {
  const [user] = await getDb()
    .select()
    .from(users)
    .where(and(eq(users.organizationId, organizationId), eq(users.email, email)))
  if (!user) throw new Error(`no user ${email}`)
  return user
}

function openLink(host: string, token: string, cookie?: string) {
  return settle(() =>
    confirmLoader({
      request: requestFor(host, `/auth/confirm-email?token=${token}`, {
        headers: cookie ? { Cookie: cookie } : {},
      }),
      context: contextFor(host),
      params: {},
    }),
  )
}

function pressConfirm(host: string, token: string, cookie?: string) {
  return settle(() =>
    confirmAction({
      request: formRequest(host, `/auth/confirm-email?token=${token}`, { token }, cookie),
      context: contextFor(host),
      params: {},
    }),
  )
}

function bannerPost(host: string, cookie: string, fields: Record<string, string>, ip?: string) {
  return settle(() =>
    bannerAction({
      request: formRequest(host, '/resources/email-confirmation', fields, cookie),
      context: contextFor(host, ip),
      params: {},
    }),
  )
}

async function rootData(host: string, cookie: string) {
  const response = await settle(() =>
    rootLoader({
      request: requestFor(host, '/', { headers: { Cookie: cookie } }),
      context: contextFor(host),
      params: {},
    }),
  )
  return (await response.json()) as { confirmationBanner: boolean }
}

describe('the email sign-up sends', () => {
  test('branded, HTML and text, with a link on the tenant host even with a spoofed Host', async () => {
    const { organization, host, logo } = await tenant()
    const email = `cora-${uniqueSuffix()}@example.test`
    const response = await register(host, email, {
      Host: 'evil.test',
      'X-Forwarded-Host': 'evil.test',
    })
    expect(response.status).toBe(302)
    await expect(response).toSendToast({
      title: 'Account created successfully! Please check your email to confirm your account.',
    })
    const [link, ...more] = await confirmationLinksTo(organization.id, email)
    expect(more).toEqual([])
    if (!link) throw new Error('no confirmation email')
    expect(link.email.subject).toBe('Confirm your email for Confirm Co')
    expect(link.origin).toBe(`http://${organization.slug}.localhost:3000`)
    expect(link.email.html).toContain('#0a7b83')
    expect(link.email.html).toContain('Confirm Co')
    expect(link.email.html).toContain(`${link.origin}/media/${logo.hash}.png`)
    expect(link.email.html).toContain(
      `href="${link.origin}/auth/confirm-email?token=${link.token}"`,
    )
    expect(link.email.text).toContain('Confirm Co')
    expect(link.email.text).toContain(`${link.origin}/auth/confirm-email?token=${link.token}`)
    expect(JSON.stringify(link.email)).not.toContain('evil.test')
    const user = await userByEmail(organization.id, email)
    expect(user.emailConfirmedAt).toBeNull()
  })

  test('a taken email gets the account-exists notice, not a confirmation', async () => {
    const { organization, host } = await tenant()
    const taken = await makeUser(organization.id)
    await register(host, taken.email)
    expect(await confirmationLinksTo(organization.id, taken.email)).toEqual([])
    expect((await emailsTo(organization.id, taken.email)).map((e) => e.subject)).toEqual([
      'Your Confirm Co account',
    ])
  })
})

describe('the link', () => {
  async function registered() {
    const t = await tenant()
    const email = `link-${uniqueSuffix()}@example.test`
    await register(t.host, email)
    const [link] = await confirmationLinksTo(t.organization.id, email)
    if (!link) throw new Error('no confirmation email')
    return { ...t, email, token: link.token, user: await userByEmail(t.organization.id, email) }
  }

  test('is stored hashed, for the address, valid 24 hours', async () => {
    const { user, token, email } = await registered()
    const rows = await getDb()
      .select()
      .from(emailConfirmationTokens)
      .where(eq(emailConfirmationTokens.userId, user.id))
    expect(rows).toHaveLength(1)
    const [row] = rows
    expect(row?.tokenHash).toBe(hashToken(token))
    expect(row?.tokenHash).not.toContain(token)
    expect(row?.tokenHash).toMatch(/^[0-9a-f]{64}$/)
    expect(row?.email).toBe(email)
    const ttl = (row?.expiresAt.getTime() ?? 0) - Date.now()
    expect(ttl).toBeGreaterThan(24 * 3600_000 - 60_000)
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000)
  })

  test('opening it confirms nothing; the button confirms once, without a session', async () => {
    const { organization, host, user, token } = await registered()
    const page = await openLink(host, token)
    expect(page.headers.get('Referrer-Policy')).toBe('no-referrer')
    expect(await page.json()).toEqual({ token, viewer: null })
    expect((await userByEmail(organization.id, user.email)).emailConfirmedAt).toBeNull()

    const confirmed = await pressConfirm(host, token)
    expect(confirmed).toHaveRedirect('/auth/login')
    await expect(confirmed).toSendToast({ title: EMAIL_CONFIRMED_MESSAGE })
    expect((await userByEmail(organization.id, user.email)).emailConfirmedAt).toBeInstanceOf(Date)
    const [row] = await getDb()
      .select()
      .from(emailConfirmationTokens)
      .where(eq(emailConfirmationTokens.userId, user.id))
    expect(row?.usedAt).toBeInstanceOf(Date)
    const audit = await getDb()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.actorUserId, user.id), eq(auditEvents.action, 'email.confirmed')))
    expect(audit).toHaveLength(1)
    expect(activityLabel('email.confirmed')).toBe('Confirmed your email address')

    // The second time: refused, on the page and on the button.
    expect(await (await openLink(host, token)).json()).toEqual({ token: null, viewer: null })
    const again = await pressConfirm(host, token)
    expect(again.status).toBe(400)
    expect((await replyErrors(again))['']).toEqual([INVALID_CONFIRMATION_MESSAGE])
  })

  test('a signed-in user goes back to their dashboard', async () => {
    const { organization, host, user, token } = await registered()
    const cookie = await sessionCookieFor(organization.id, user.id)
    const confirmed = await pressConfirm(host, token, cookie)
    expect(confirmed).toHaveRedirect('/dashboard/end-user')
  })

  test('expires after 24 hours', async () => {
    const { organization, host, user, token } = await registered()
    await getDb()
      .update(emailConfirmationTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailConfirmationTokens.userId, user.id))
    expect(await (await openLink(host, token)).json()).toMatchObject({ token: null })
    expect((await pressConfirm(host, token)).status).toBe(400)
    expect((await userByEmail(organization.id, user.email)).emailConfirmedAt).toBeNull()
  })

  test("another tenant's host refuses it; unknown and malformed tokens are refused", async () => {
    const { organization, user, token } = await registered()
    const other = await makeOrganization()
    const otherHost = `${other.slug}.localhost`
    expect(await (await openLink(otherHost, token)).json()).toMatchObject({ token: null })
    const refused = await pressConfirm(otherHost, token)
    expect(refused.status).toBe(400)
    expect((await userByEmail(organization.id, user.email)).emailConfirmedAt).toBeNull()
    for (const bad of ['a'.repeat(52), 'not a token', '', 'A'.repeat(52)]) {
      const response = await pressConfirm(`${organization.slug}.localhost`, bad)
      expect(response.status, bad).toBe(400)
      expect((await replyErrors(response))['']).toEqual([INVALID_CONFIRMATION_MESSAGE])
    }
  })
})

describe('the banner and its resend', () => {
  async function unconfirmed() {
    const t = await tenant()
    const user = await makeUser(t.organization.id, { emailConfirmedAt: null })
    const cookie = await sessionCookieFor(t.organization.id, user.id)
    return { ...t, user, cookie }
  }

  test('shows for an unconfirmed user until dismissed for the session; never for a confirmed one', async () => {
    const { organization, host, user, cookie } = await unconfirmed()
    expect((await rootData(host, cookie)).confirmationBanner).toBe(true)
    const dismissed = await bannerPost(host, cookie, { intent: 'dismiss', redirectTo: '/profile' })
    expect(dismissed).toHaveRedirect('/profile')
    const setCookie = dismissed.headers.get('Set-Cookie') ?? ''
    expect(setCookie).toMatch(/^confirm_banner=/)
    expect(setCookie).not.toMatch(/Max-Age|Expires/i)
    const dismissal = setCookie.split(';')[0] ?? ''
    expect((await rootData(host, `${cookie}; ${dismissal}`)).confirmationBanner).toBe(false)
    // Another account in the same browser still sees its own banner.
    const other = await makeUser(organization.id, { emailConfirmedAt: null })
    const otherCookie = await sessionCookieFor(organization.id, other.id)
    expect((await rootData(host, `${otherCookie}; ${dismissal}`)).confirmationBanner).toBe(true)
    const confirmed = await makeUser(organization.id)
    const confirmedCookie = await sessionCookieFor(organization.id, confirmed.id)
    expect((await rootData(host, confirmedCookie)).confirmationBanner).toBe(false)
    expect(user.emailConfirmedAt).toBeNull()
  })

  test('resend sends a new link (only the newest works), 3 per hour, then a 429 message', async () => {
    const { organization, host, user, cookie } = await unconfirmed()
    for (let i = 0; i < 3; i++) {
      const sent = await bannerPost(
        host,
        cookie,
        { intent: 'resend', redirectTo: '/qrcode' },
        `203.0.113.${10 + i}`,
      )
      expect(sent).toHaveRedirect('/qrcode')
      await expect(sent).toSendToast({ title: CONFIRMATION_SENT_MESSAGE })
    }
    const limited = await bannerPost(host, cookie, { intent: 'resend' }, '203.0.113.99')
    expect(limited.status).toBe(302)
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    await expect(limited).toSendToast({
      type: 'error',
      title: expect.stringMatching(
        /^Too many attempts\. Please wait \d+ minutes? and try again\.$/,
      ),
    })

    const links = await confirmationLinksTo(organization.id, user.email)
    expect(links).toHaveLength(3)
    const [first, , newest] = links.sort(
      (a, b) => a.email.createdAt.getTime() - b.email.createdAt.getTime(),
    )
    expect((await pressConfirm(host, first?.token ?? '')).status).toBe(400)
    expect((await pressConfirm(host, newest?.token ?? '')).status).toBe(302)
  })

  test('a confirmed user is told so and nothing is sent; bad input is a 400 with a message', async () => {
    const t = await tenant()
    const user = await makeUser(t.organization.id)
    const cookie = await sessionCookieFor(t.organization.id, user.id)
    const answer = await bannerPost(t.host, cookie, { intent: 'resend' })
    await expect(answer).toSendToast({ title: ALREADY_CONFIRMED_MESSAGE })
    expect(await emailsTo(t.organization.id, user.email)).toEqual([])
    const bad = await bannerPost(t.host, cookie, { intent: 'explode' })
    expect(bad.status).toBe(400)
    expect((await replyErrors(bad)).intent?.[0]).toMatch(/intent/)
    const away = await bannerPost(t.host, cookie, { intent: 'dismiss', redirectTo: '//evil.test' })
    expect(away).toHaveRedirect('/')
  })
})

describe('the profile', () => {
  const profileFields = (email: string) => ({
    intent: 'profile',
    firstName: 'Pia',
    lastName: 'Profile',
    email,
    workEmail: '',
    phoneNumber: '',
    company: '',
    jobTitle: '',
    website: '',
    currentPassword: 'pia-secret',
  })

  test('shows whether the email is confirmed', async () => {
    const t = await tenant()
    for (const emailConfirmedAt of [new Date(), null]) {
      const user = await makeUser(t.organization.id, { emailConfirmedAt })
      const cookie = await sessionCookieFor(t.organization.id, user.id)
      const response = await settle(() =>
        profileLoader({
          request: requestFor(t.host, '/profile/end-user', { headers: { Cookie: cookie } }),
          context: contextFor(t.host),
          params: {},
        }),
      )
      const data = (await response.json()) as { profile: { emailConfirmed: boolean } }
      expect(data.profile.emailConfirmed).toBe(emailConfirmedAt !== null)
    }
  })

  test('an email change clears the confirmation and sends a link for the new address only', async () => {
    const t = await tenant()
    const user = await makeUser(t.organization.id, { password: 'pia-secret' })
    const cookie = await sessionCookieFor(t.organization.id, user.id)
    const newEmail = `pia-${uniqueSuffix()}@example.test`
    const saved = await settle(() =>
      profileAction({
        request: formRequest(t.host, '/profile?index', profileFields(newEmail), cookie),
        context: contextFor(t.host),
        params: {},
      }),
    )
    expect(saved.status).toBe(302)
    const changed = await userByEmail(t.organization.id, newEmail)
    expect(changed.emailConfirmedAt).toBeNull()
    expect(await confirmationLinksTo(t.organization.id, user.email)).toEqual([])
    const [link] = await confirmationLinksTo(t.organization.id, newEmail)
    if (!link) throw new Error('no confirmation email to the new address')

    // A token issued for the old address (a link still in the old mailbox) confirms nothing.
    const oldToken = 'oldaddressoldaddressoldaddressoldaddressoldaddressol'
    await withTenant(t.organization.id, (tx) =>
      insertEmailConfirmationToken(tx, t.organization.id, user.id, user.email, hashToken(oldToken)),
    )
    expect(await (await openLink(t.host, oldToken)).json()).toMatchObject({ token: null })
    expect((await pressConfirm(t.host, oldToken)).status).toBe(400)
    expect((await userByEmail(t.organization.id, newEmail)).emailConfirmedAt).toBeNull()
  })

  test("the new address's link confirms it", async () => {
    const t = await tenant()
    const user = await makeUser(t.organization.id, {
      password: 'pia-secret',
      emailConfirmedAt: null,
    })
    const cookie = await sessionCookieFor(t.organization.id, user.id)
    const newEmail = `pia-${uniqueSuffix()}@example.test`
    await settle(() =>
      profileAction({
        request: formRequest(t.host, '/profile?index', profileFields(newEmail), cookie),
        context: contextFor(t.host),
        params: {},
      }),
    )
    const [link] = await confirmationLinksTo(t.organization.id, newEmail)
    expect((await pressConfirm(t.host, link?.token ?? '')).status).toBe(302)
    expect((await userByEmail(t.organization.id, newEmail)).emailConfirmedAt).toBeInstanceOf(Date)
  })
})
