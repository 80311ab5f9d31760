// The profile pages (spec §5 profile form, roles doc §2.4): every validation message with a
// 400 and nothing written, only the signed-in user's row changes, images are checked, the
// password change ends other sessions, and the pages are closed to other roles and tenants.
import type { LoaderFunctionArgs } from '@remix-run/node'
import { asc, count, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { verifyPassword } from '#app/auth/password.server'
import { sessionIdFromToken } from '#app/auth/session.server'
import type { UserRole } from '#app/models/users.server'
import { activityLabel } from '#app/profile/activity'
import { LIMITS, limitKey } from '#app/rate-limits/rate-limit.server'
import { action as profileAction, loader as profileLoader } from '#app/routes/profile._index'
import { action as variantAction, loader as variantLoader } from '#app/routes/profile.$variant'
import { action as agencyAction, loader as agencyLoader } from '#app/routes/profile.agency'
import { loader as superAdminLoader } from '#app/routes/profile.super-admin'
import { ROLES, roleArea, rolePaths } from '#app/validation/roles'
import { getDb } from '#drizzle/db.server'
import { auditEvents, emailOutbox, media, rateLimits, sessions, users } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeCard,
  makeOrganization,
  makePng,
  makeUser,
  replyErrors,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'

const INVALID_FILE = 'Invalid file. Please upload a JPG, PNG, or WebP image under 5MB.'

async function signedInUser(role: UserRole = 'end_user') {
  const organization = await makeOrganization()
  const user = await makeUser(organization.id, { role, password: 'old-secret' })
  const cookie = await sessionCookieFor(organization.id, user.id)
  return { organization, user, cookie, host: `${organization.slug}.localhost` }
}

type Signed = Awaited<ReturnType<typeof signedInUser>>

const validProfile = {
  intent: 'profile',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.test',
  workEmail: 'ada@work.example.test',
  phoneNumber: '+44 20 7946 0000',
  company: 'Analytical Engines',
  jobTitle: 'Mathematician',
  website: 'ada.example.test',
  // The users made below sign in with 'old-secret'; a new email needs it.
  currentPassword: 'old-secret',
}

const allUsers = () => getDb().select().from(users).orderBy(asc(users.id))
const mediaCount = async () => (await getDb().select({ n: count() }).from(media))[0]?.n

function post(signed: Signed, fields: Record<string, string>, path = '/profile?index') {
  return settle(() =>
    profileAction({
      request: formRequest(signed.host, path, fields, signed.cookie),
      context: contextFor(signed.host),
      params: {},
    }),
  )
}

function get(
  loader: (args: LoaderFunctionArgs) => Promise<unknown>,
  host: string,
  path: string,
  cookie?: string,
) {
  return settle(() =>
    loader({
      request: requestFor(host, path, cookie ? { headers: { Cookie: cookie } } : undefined),
      context: contextFor(host),
      params: {},
    }),
  )
}

describe('personal info', () => {
  test.each([
    [{ firstName: '' }, 'firstName', 'First name is required'],
    [{ firstName: '   ' }, 'firstName', 'First name is required'],
    [{ lastName: '' }, 'lastName', 'Last name is required'],
    [{ email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
    [{ email: '' }, 'email', 'Please enter a valid email address'],
    [{ workEmail: 'nope@' }, 'workEmail', 'Please enter a valid email address'],
    [{ website: 'not a url' }, 'website', 'Please enter a valid URL'],
    [{ website: 'javascript:alert(1)' }, 'website', 'Please enter a valid URL'],
    [{ website: 'https://ada.example.test\n/x' }, 'website', 'Please enter a valid URL'],
  ])('%j → %s: %s', async (override, field, message) => {
    const signed = await signedInUser()
    const before = await allUsers()
    const response = await post(signed, { ...validProfile, ...override })
    expect(response.status).toBe(400)
    expect((await replyErrors(response))[field]).toContain(message)
    expect(await allUsers()).toEqual(before)
  })

  test("another account's email of this organization is refused", async () => {
    const signed = await signedInUser()
    await makeUser(signed.organization.id, { email: 'taken@example.test' })
    const before = await allUsers()
    const response = await post(signed, { ...validProfile, email: 'TAKEN@example.test' })
    expect(response.status).toBe(400)
    expect((await replyErrors(response)).email).toContain(
      'An account with this email already exists',
    )
    expect(await allUsers()).toEqual(before)
  })

  test.each([
    [undefined, 'Please enter your current password to change your email'],
    ['', 'Please enter your current password to change your email'],
    ['wrong-secret', 'Current password is incorrect'],
  ])('a new email with current password %j is refused: %s', async (currentPassword, message) => {
    const signed = await signedInUser()
    const other = await sessionCookieFor(signed.organization.id, signed.user.id)
    const before = await allUsers()
    const sessionsBefore = await getDb().select().from(sessions)
    const { currentPassword: _, ...fields } = validProfile
    const response = await post(
      signed,
      currentPassword === undefined ? fields : { ...fields, currentPassword },
    )
    expect(response.status).toBe(400)
    expect((await replyErrors(response)).currentPassword).toEqual([message])
    expect(await allUsers()).toEqual(before)
    expect(await getDb().select().from(sessions)).toEqual(sessionsBefore)
    expect(other).toBeTruthy()
    const outbox = await getDb()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, signed.user.email))
    expect(outbox).toEqual([])
  })

  test('a new email with the current password ends the other sessions and tells the old address', async () => {
    const signed = await signedInUser()
    const otherCookie = await sessionCookieFor(signed.organization.id, signed.user.id)
    const sessionIdOf = (cookie: string) =>
      sessionIdFromToken(decodeURIComponent(cookie.split('=')[1]?.split(';')[0] ?? ''))
    const response = await post(signed, { ...validProfile, email: 'ada.new@example.test' })
    expect(response.status).toBe(302)
    const [updated] = await getDb().select().from(users).where(eq(users.id, signed.user.id))
    expect(updated?.email).toBe('ada.new@example.test')
    const left = (
      await getDb().select().from(sessions).where(eq(sessions.userId, signed.user.id))
    ).map((row) => row.id)
    expect(left).toEqual([sessionIdOf(signed.cookie)])
    expect(left).not.toContain(sessionIdOf(otherCookie))
    const [notice] = await getDb()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, signed.user.email))
    expect(notice?.subject).toContain('email address was changed')
    expect(notice?.text).toContain('ada.new@example.test')
    const actions = (
      await getDb().select().from(auditEvents).where(eq(auditEvents.actorUserId, signed.user.id))
    ).map((event) => event.action)
    expect(actions).toContain('email.changed')
  })

  test('keeping the email needs no password and ends no session', async () => {
    const signed = await signedInUser()
    await sessionCookieFor(signed.organization.id, signed.user.id)
    const { currentPassword: _, ...fields } = validProfile
    const response = await post(signed, { ...fields, email: signed.user.email.toUpperCase() })
    expect(response.status).toBe(302)
    const count = await getDb().select().from(sessions).where(eq(sessions.userId, signed.user.id))
    expect(count).toHaveLength(2)
  })

  test('the same email in another organization is no conflict', async () => {
    const signed = await signedInUser()
    const elsewhere = await makeOrganization()
    await makeUser(elsewhere.id, { email: 'shared@example.test' })
    const response = await post(signed, { ...validProfile, email: 'shared@example.test' })
    expect(response.status).toBe(302)
  })

  test("a valid save updates only the signed-in user's row; injected ids and roles are ignored", async () => {
    const signed = await signedInUser()
    const neighbour = await makeUser(signed.organization.id)
    const elsewhere = await makeOrganization()
    const stranger = await makeUser(elsewhere.id)
    const before = await allUsers()

    const response = await post(
      signed,
      {
        ...validProfile,
        email: 'Ada@Example.test',
        organizationId: elsewhere.id,
        role: 'super_admin',
        userId: neighbour.id,
        id: stranger.id,
      },
      '/profile?index&tab=personal',
    )
    expect(response).toHaveRedirect('/profile?tab=personal')
    await expect(response).toSendToast()

    const after = await allUsers()
    const updated = after.find((u) => u.id === signed.user.id)
    expect(updated).toMatchObject({
      organizationId: signed.organization.id,
      role: 'end_user',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.test',
      workEmail: 'ada@work.example.test',
      phoneNumber: '+44 20 7946 0000',
      company: 'Analytical Engines',
      jobTitle: 'Mathematician',
      website: 'https://ada.example.test',
      passwordHash: signed.user.passwordHash,
    })
    // Every other row is exactly as it was.
    expect(after.filter((u) => u.id !== signed.user.id)).toEqual(
      before.filter((u) => u.id !== signed.user.id),
    )

    const audit = await getDb()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.actorUserId, signed.user.id))
    expect(audit).toMatchObject([
      {
        organizationId: signed.organization.id,
        action: 'profile.updated',
        entityType: 'user',
        entityId: signed.user.id,
      },
      // The email changed too (to ada@example.test).
      { organizationId: signed.organization.id, action: 'email.changed', entityId: signed.user.id },
    ])
  })

  test('control characters (which Postgres text cannot hold) are refused and nothing is written', async () => {
    const signed = await signedInUser()
    const before = await allUsers()
    const response = await post(signed, { ...validProfile, company: 'Engines\u0000Ltd' })
    expect(response.status).toBe(400)
    expect((await replyErrors(response)).company).toEqual(['Please remove unsupported characters'])
    expect(await allUsers()).toEqual(before)
  })

  test('a text file sent as the profile picture is refused and stores nothing', async () => {
    const signed = await signedInUser()
    const before = await allUsers()
    const mediaBefore = await mediaCount()
    const body = new FormData()
    for (const [name, value] of Object.entries(validProfile)) body.set(name, value)
    body.set('profilePictureFile', new Blob(['just some text'], { type: 'text/plain' }), 'me.png')
    const response = await settle(() =>
      profileAction({
        request: new Request(`http://${signed.host}/profile?index`, {
          method: 'POST',
          headers: { Cookie: signed.cookie },
          body,
        }),
        context: contextFor(signed.host),
        params: {},
      }),
    )
    expect(response.status).toBe(400)
    expect((await replyErrors(response)).profilePicture).toEqual([INVALID_FILE])
    expect(await mediaCount()).toBe(mediaBefore)
    expect(await allUsers()).toEqual(before)
  })

  test('a real image sent without JavaScript is stored and becomes the logo', async () => {
    const signed = await signedInUser()
    const body = new FormData()
    for (const [name, value] of Object.entries(validProfile)) body.set(name, value)
    body.set(
      'logoFile',
      new Blob([await makePng('#336699', 80, 40)], { type: 'image/png' }),
      'l.png',
    )
    const response = await settle(() =>
      profileAction({
        request: new Request(`http://${signed.host}/profile?index`, {
          method: 'POST',
          headers: { Cookie: signed.cookie },
          body,
        }),
        context: contextFor(signed.host),
        params: {},
      }),
    )
    expect(response.status).toBe(302)
    const [row] = await getDb().select().from(users).where(eq(users.id, signed.user.id))
    expect(row?.logoMediaId).toBeTruthy()
    expect(row?.profilePictureMediaId).toBeNull()

    const loaded = await get(profileLoader, signed.host, '/profile/end-user', signed.cookie)
    const data = (await loaded.json()) as { profile: { logoUrl: string | null } }
    expect(data.profile.logoUrl).toMatch(/^\/media\/[0-9a-f]{64}\.jpg$/)
  })

  test('a media id of another organization is refused', async () => {
    const signed = await signedInUser()
    const other = await signedInUser()
    const before = await allUsers()
    // An id that exists, but in the other tenant.
    const stored = await getDb()
      .insert(media)
      .values({
        organizationId: other.organization.id,
        hash: 'f'.repeat(64),
        ext: 'png',
        contentType: 'image/png',
        purpose: 'logo',
        width: 1,
        height: 1,
        byteSize: 1,
        data: Buffer.from([0]),
      })
      .returning({ id: media.id })
    const response = await post(signed, { ...validProfile, logoMediaId: stored[0]?.id ?? '' })
    expect(response.status).toBe(400)
    expect((await replyErrors(response)).logo).toEqual([INVALID_FILE])
    expect(await allUsers()).toEqual(before)
  })
})

describe('change password', () => {
  const passwords = { intent: 'password', newPassword: 'new-secret', confirmPassword: 'new-secret' }

  test('a wrong current password is refused and nothing changes', async () => {
    const signed = await signedInUser()
    const other = await sessionCookieFor(signed.organization.id, signed.user.id)
    const response = await post(signed, { ...passwords, currentPassword: 'wrong-one' })
    expect(response.status).toBe(400)
    expect((await replyErrors(response)).currentPassword).toEqual(['Current password is incorrect'])
    const [row] = await getDb().select().from(users).where(eq(users.id, signed.user.id))
    expect(row?.passwordHash).toBe(signed.user.passwordHash)
    const remaining = await getDb()
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.userId, signed.user.id))
    expect(remaining.map((s) => s.id).sort()).toEqual(
      [signed.cookie, other].map((c) => sessionIdFromToken(c.split('=')[1] ?? '')).sort(),
    )
  })

  test.each([
    [{ currentPassword: '' }, 'currentPassword', 'Please enter your current password'],
    [
      { newPassword: '12345', confirmPassword: '12345' },
      'newPassword',
      'Password must be at least 6 characters',
    ],
    [{ confirmPassword: 'different' }, 'confirmPassword', 'Passwords do not match'],
  ])('%j → %s: %s', async (override, field, message) => {
    const signed = await signedInUser()
    const before = await allUsers()
    const response = await post(signed, {
      ...passwords,
      currentPassword: 'old-secret',
      ...override,
    })
    expect(response.status).toBe(400)
    expect((await replyErrors(response))[field]).toContain(message)
    expect(await allUsers()).toEqual(before)
  })

  test('the right current password sets the new one and ends the other sessions', async () => {
    const signed = await signedInUser()
    await sessionCookieFor(signed.organization.id, signed.user.id)
    await sessionCookieFor(signed.organization.id, signed.user.id)
    const response = await post(
      signed,
      { ...passwords, currentPassword: 'old-secret' },
      '/profile?index&tab=security',
    )
    expect(response).toHaveRedirect('/profile?tab=security')
    const [row] = await getDb().select().from(users).where(eq(users.id, signed.user.id))
    expect(await verifyPassword(row?.passwordHash ?? '', 'new-secret')).toBe(true)
    const remaining = await getDb()
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.userId, signed.user.id))
    expect(remaining.map((s) => s.id)).toEqual([
      sessionIdFromToken(signed.cookie.split('=')[1] ?? ''),
    ])
  })
})

describe('current-password checks are limited like sign-in (issue 26 point 8)', () => {
  const passwords = { intent: 'password', newPassword: 'new-secret', confirmPassword: 'new-secret' }
  let lastIp = 0
  /** A client address of its own per test: the per-address limit is shared by every account. */
  const freshIp = () => `198.51.100.${++lastIp}`

  function postFrom(signed: Signed, fields: Record<string, string>, clientIp: string) {
    return settle(() =>
      profileAction({
        request: formRequest(signed.host, '/profile?index', fields, signed.cookie),
        context: contextFor(signed.host, clientIp),
        params: {},
      }),
    )
  }

  /** Ends every open window, as if the quarter of an hour had passed. */
  const windowPasses = () =>
    getDb()
      .update(rateLimits)
      .set({ resetAt: new Date(Date.now() - 1000) })

  test.each([
    ['change password', passwords, 'currentPassword'],
    ['change email', { ...validProfile, email: 'moved@example.test' }, 'currentPassword'],
  ] as const)(
    '%s: after the limit of wrong guesses the right password is refused too, until the window passes',
    async (_name, form, field) => {
      const signed = await signedInUser()
      const ip = freshIp()
      for (let guess = 0; guess < LIMITS.currentPasswordAccount.max; guess++) {
        const wrong = await postFrom(signed, { ...form, currentPassword: `guess-${guess}` }, ip)
        expect(wrong.status).toBe(400)
      }
      // Another address does not help: the account itself is limited.
      const before = await allUsers()
      for (const from of [ip, freshIp()]) {
        const right = await postFrom(signed, { ...form, currentPassword: 'old-secret' }, from)
        expect(right.status).toBe(429)
        expect(right.headers.get('Retry-After')).toMatch(/^\d+$/)
        expect((await replyErrors(right))[field]).toEqual([
          expect.stringMatching(/^Too many attempts\. Please wait 1[45] minutes and try again\.$/),
        ])
      }
      expect(await allUsers()).toEqual(before)
      await windowPasses()
      const right = await postFrom(signed, { ...form, currentPassword: 'old-secret' }, ip)
      expect(right.status).toBe(302)
    },
  )

  test('per address: guesses spread over many accounts from one address are limited too', async () => {
    const ip = freshIp()
    // Wrong guesses at other accounts from this address, up to one short of its limit.
    await getDb()
      .insert(rateLimits)
      .values({
        key: limitKey('currentPasswordIp', ip),
        count: LIMITS.currentPasswordIp.max - 1,
        resetAt: new Date(Date.now() + LIMITS.currentPasswordIp.windowMs),
      })
    const signed = await signedInUser()
    const wrong = await postFrom(signed, { ...passwords, currentPassword: 'nope' }, ip)
    expect(wrong.status).toBe(400)
    const refused = await postFrom(signed, { ...passwords, currentPassword: 'old-secret' }, ip)
    expect(refused.status).toBe(429)
    // The account itself is below its limit: from another address the right password works.
    const elsewhere = await postFrom(
      signed,
      { ...passwords, currentPassword: 'old-secret' },
      freshIp(),
    )
    expect(elsewhere.status).toBe(302)
  })
})

describe('loader', () => {
  test("shows the user's own profile, default card and activity", async () => {
    const signed = await signedInUser()
    const card = await makeCard(signed.organization.id, signed.user.id, { company: 'Engines' })
    expect((await post(signed, validProfile)).status).toBe(302)
    const response = await get(profileLoader, signed.host, '/profile/end-user', signed.cookie)
    expect(response.status).toBe(200)
    const data = (await response.json()) as {
      profile: { firstName: string; email: string }
      card: { id: string; company: string } | null
      activity: { label: string; relative: string }[]
      role: string
    }
    expect(data.profile).toMatchObject({ firstName: 'Ada', email: 'ada@example.test' })
    expect(data.card).toMatchObject({ id: card.id, company: 'Engines' })
    expect(data.activity.map((a) => a.label).sort()).toEqual([
      'Changed your email address',
      'Updated your profile',
    ])
    expect(data.activity.every((a) => a.relative === 'just now')).toBe(true)
    expect(data.role).toBe('end_user')
  })

  test('a user without a card gets none', async () => {
    const signed = await signedInUser()
    const response = await get(profileLoader, signed.host, '/profile/end-user', signed.cookie)
    expect(((await response.json()) as { card: unknown }).card).toBeNull()
  })

  test('signed out, the profile sends you to sign in and back', async () => {
    const { host } = await signedInUser()
    const response = await get(profileLoader, host, '/profile?tab=security')
    expect(response).toHaveRedirect(
      `/auth/login?${new URLSearchParams({ redirectTo: '/profile?tab=security' })}`,
    )
  })

  test("another tenant's host never shows this user's data", async () => {
    const a = await signedInUser()
    const b = await signedInUser()
    const response = await get(profileLoader, b.host, '/profile', a.cookie)
    expect(response).toHaveRedirect(/^\/auth\/login\?redirectTo=/)

    const before = await allUsers()
    const posted = await settle(() =>
      profileAction({
        request: formRequest(b.host, '/profile?index', validProfile, a.cookie),
        context: contextFor(b.host),
        params: {},
      }),
    )
    expect(posted).toHaveRedirect(/^\/auth\/login\?redirectTo=/)
    expect(await allUsers()).toEqual(before)
  })
})

describe('role variants', () => {
  test('an end user gets 403 on the agency profile, for the page and its action', async () => {
    const signed = await signedInUser('end_user')
    const page = await get(agencyLoader, signed.host, '/profile/agency', signed.cookie)
    expect(page.status).toBe(403)
    const before = await allUsers()
    const posted = await settle(() =>
      agencyAction({
        request: formRequest(signed.host, '/profile/agency', validProfile, signed.cookie),
        context: contextFor(signed.host),
        params: {},
      }),
    )
    expect(posted.status).toBe(403)
    expect(await allUsers()).toEqual(before)
  })

  test('an agency admin gets the agency profile but not the super admin one', async () => {
    const signed = await signedInUser('agency_admin')
    const page = await get(agencyLoader, signed.host, '/profile/agency', signed.cookie)
    expect(page.status).toBe(200)
    const superAdmin = await get(
      superAdminLoader,
      signed.host,
      '/profile/super-admin',
      signed.cookie,
    )
    expect(superAdmin.status).toBe(403)
  })
})

// One profile screen per person (issue 41 point 11, ADR 078): /profile (the spec's home tile),
// /profile/role and any other path lead to the role's screen, the menu's, with the same query.
test.each(ROLES)(
  '%s: /profile and any other profile path open the one screen of the role',
  async (role) => {
    const signed = await signedInUser(role)
    const own = rolePaths(role).profile
    expect(await get(profileLoader, signed.host, '/profile', signed.cookie)).toHaveRedirect(own)
    expect(
      await get(profileLoader, signed.host, '/profile?tab=security', signed.cookie),
    ).toHaveRedirect(`${own}?tab=security`)
    for (const path of ['/profile/role', '/profile/anything', '/profile/default']) {
      const response = await get(
        variantLoader,
        signed.host,
        `${path}?tab=notifications`,
        signed.cookie,
      )
      expect(response).toHaveRedirect(`${own}?tab=notifications`)
    }
    const screen = await get(profileLoader, signed.host, own, signed.cookie)
    expect(screen.status).toBe(200)
    expect(await screen.json()).toMatchObject({ variant: roleArea(role) })
    // A form posted to an old path is still saved; its redirect back leads to the screen.
    const saved = await settle(() =>
      variantAction({
        request: formRequest(signed.host, '/profile/role', validProfile, signed.cookie),
        context: contextFor(signed.host),
        params: {},
      }),
    )
    expect(saved).toHaveRedirect('/profile/role')
    const [stored] = await getDb().select().from(users).where(eq(users.id, signed.user.id))
    expect(stored?.firstName).toBe('Ada')
  },
)

test('the activity feed names every action the app records, and writes CRM as CRM', async () => {
  expect(activityLabel('crm.settings_updated')).toBe('Changed your CRM settings')
  // An action without a label of its own keeps its acronyms.
  expect(activityLabel('crm.sync_failed')).toBe('CRM sync failed')
  expect(activityLabel('api.key_rotated')).toBe('API key rotated')
  expect(activityLabel('card.background_set')).toBe('Changed a card background')
  // Every action written in app/ has a label of its own (system ones excepted).
  const { readdirSync, readFileSync, statSync } = await import('node:fs')
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const file = `${dir}/${name}`
      return statSync(file).isDirectory() ? walk(file) : /\.tsx?$/.test(name) ? [file] : []
    })
  const actions = new Set(
    walk('app').flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/action: '([a-z_]+\.[a-z_]+)'/g)].map((m) => m[1]),
    ),
  )
  const system = ['domain.expired', 'domain.released', 'sending_domain.expired']
  const unlabelled = [...actions].filter(
    (action) => action && !system.includes(action) && activityLabel(action) === fallback(action),
  )
  expect(unlabelled).toEqual([])
})

/** What the fallback alone would say: the sign of an action with no label of its own. */
function fallback(action: string) {
  const words = action.replace(/[._-]+/g, ' ').trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}
