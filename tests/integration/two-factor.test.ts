// Two-factor sign-in and password rotation (ADR 045): the second step at sign-in, its codes,
// who must have it, the one guard refusing a pending session on every route, and rotation.
import { readdirSync } from 'node:fs'
import { generateTOTP } from '@oslojs/otp'
import { and, eq, sql } from 'drizzle-orm'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { signIn } from '#app/auth/accounts.server'
import { sessionCookieName } from '#app/auth/session.server'
import {
  confirmEnrolment,
  disableTwoFactor,
  enrolmentOf,
  keyFromText,
  newTotpKey,
  REQUIRED_MESSAGE,
  regenerateRecoveryCodes,
} from '#app/auth/two-factor.server'
import { saveOrganizationPreferences } from '#app/models/organization-settings.server'
import { savePlatformSettings } from '#app/models/platform-settings.server'
import { findUserById } from '#app/models/users.server'
import { invalidatePlatformSettings } from '#app/tenancy/platform-settings-cache.server'
import { resolveTenant, type Tenant } from '#app/tenancy/tenant.server'
import { Refusal } from '#app/utils/action-error'
import { getDb, withTenant } from '#drizzle/db.server'
import { auditEvents, rateLimits, sessions, users } from '#drizzle/schema'
import { databaseChecksum } from '#tests/checksum'
import { openEnrolmentLink } from '#tests/enrolment-link'
import {
  contextFor,
  formRequest,
  makeBrandedOrganization,
  makeCard,
  makeUser,
  requestFor,
  settle,
} from '#tests/factories'
import { loadRoute } from '#tests/route-modules'

const PASSWORD = 'password123'
const IP = '203.0.113.40'

let tenant: Tenant
let host: string

beforeAll(async () => {
  const { organization } = await makeBrandedOrganization()
  host = `${organization.slug}.localhost`
  const resolution = await resolveTenant(host)
  if (resolution.status !== 'found') throw new Error('tenant not found')
  tenant = resolution.tenant
})

async function setPlatform(values: {
  requireTwoFactorForAdmins?: boolean
  passwordRotation?: boolean
}) {
  await savePlatformSettings(getDb(), values)
  invalidatePlatformSettings()
}

afterEach(async () => {
  await setPlatform({ requireTwoFactorForAdmins: true, passwordRotation: false })
  // Every test posts codes from one address: each starts under the limits.
  await getDb().delete(rateLimits)
})

async function signInAs(email: string, password = PASSWORD) {
  const signedIn = await signIn(tenant, { email, password }, IP, requestFor(host, '/auth/login'))
  if (!signedIn) throw new Error('sign-in failed')
  const cookie = `${sessionCookieName()}=${signedIn.session.token}`
  return { ...signedIn, cookie }
}

const stepRoute = () => loadRoute('auth.two-factor.tsx')

async function postStep(cookie: string, fields: Record<string, string>) {
  const mod = await stepRoute()
  return settle(async () =>
    mod.action?.({
      request: formRequest(host, '/auth/two-factor', fields, cookie),
      context: contextFor(host, IP),
      params: {},
    }),
  )
}

/** /profile, followed to the person's own profile screen it leads to (ADR 078). */
async function openProfile(cookie: string) {
  const mod = await loadRoute('profile._index.tsx')
  const open = (path: string) =>
    settle(async () =>
      mod.loader?.({
        request: requestFor(host, path, { headers: { Cookie: cookie } }),
        context: contextFor(host, IP),
        params: {},
      }),
    )
  const response = await open('/profile')
  const location = response.headers.get('Location') ?? ''
  return response.status === 302 && location.startsWith('/profile/') ? open(location) : response
}

/** The set-up the step's page offers this pending session: its sealed key and the key. */
async function stepEnrolment(cookie: string) {
  const mod = await stepRoute()
  const page = await settle(async () =>
    mod.loader?.({
      request: requestFor(host, '/auth/two-factor', { headers: { Cookie: cookie } }),
      context: contextFor(host, IP),
      params: {},
    }),
  )
  const body = (await page.json()) as { enrolment: { sealedKey: string; keyText: string } | null }
  if (!body.enrolment) throw new Error('the step offers no enrolment')
  return { sealedKey: body.enrolment.sealedKey, key: keyFromText(body.enrolment.keyText) }
}

/** An account with an authenticator: its key, for making codes, and its recovery codes. */
async function enrolledUser(role: 'end_user' | 'agency_admin' = 'end_user') {
  const user = await makeUser(tenant.id, { role, password: PASSWORD })
  const key = newTotpKey()
  const { sealedKey } = await enrolmentOf(key, tenant.name, user.email, {
    organizationId: tenant.id,
    userId: user.id,
    sessionId: 'no-session',
  })
  // Enrolment needs a session of the user's own: one that needs no step yet.
  const recoveryCodes = await confirmEnrolment(
    tenant,
    user,
    'no-session',
    { sealedKey, code: generateTOTP(key, 30, 6) },
    IP,
  )
  const enrolled = await withTenant(tenant.id, (tx) => findUserById(tx, tenant.id, user.id))
  if (!enrolled) throw new Error('user gone')
  return { user: enrolled, key, recoveryCodes }
}

describe('sign-in with an authenticator', () => {
  test('a pending session reaches only the step; the right code completes it', async () => {
    const { user, key } = await enrolledUser()
    const { cookie } = await signInAs(user.email)
    expect(await openProfile(cookie)).toHaveRedirect('/auth/two-factor')
    const wrong = await postStep(cookie, { intent: 'code', code: '000000' })
    expect(wrong.status).toBe(400)
    expect(await openProfile(cookie)).toHaveRedirect('/auth/two-factor')
    const right = await postStep(cookie, { intent: 'code', code: generateTOTP(key, 30, 6) })
    expect(right).toHaveRedirect('/dashboard/end-user')
    expect((await openProfile(cookie)).status).toBe(200)
  })

  test('a recovery code works once; the second time it is refused', async () => {
    const { user, recoveryCodes } = await enrolledUser()
    expect(recoveryCodes).toHaveLength(10)
    const code = recoveryCodes[0] as string
    const first = await signInAs(user.email)
    expect(await postStep(first.cookie, { intent: 'recovery', recoveryCode: code })).toHaveRedirect(
      '/dashboard/end-user',
    )
    const second = await signInAs(user.email)
    const again = await postStep(second.cookie, { intent: 'recovery', recoveryCode: code })
    expect(again.status).toBe(400)
    expect(await openProfile(second.cookie)).toHaveRedirect('/auth/two-factor')
    const stored = await withTenant(tenant.id, (tx) => findUserById(tx, tenant.id, user.id))
    expect(stored?.recoveryCodeHashes).toHaveLength(9)
    // Stored only hashed: no code appears in the row.
    expect(JSON.stringify(stored)).not.toContain(code)
    const used = await getDb()
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.actorUserId, user.id),
          eq(auditEvents.action, 'two_factor.recovery_code_used'),
        ),
      )
    expect(used).toHaveLength(1)
  })

  test('two requests with one recovery code: only one passes', async () => {
    const { user, recoveryCodes } = await enrolledUser()
    const code = recoveryCodes[1] as string
    const [a, b] = [await signInAs(user.email), await signInAs(user.email)]
    const answers = await Promise.all([
      postStep(a.cookie, { intent: 'recovery', recoveryCode: code }),
      postStep(b.cookie, { intent: 'recovery', recoveryCode: code }),
    ])
    expect(answers.map((answer) => answer.status).sort()).toEqual([302, 400])
  })

  test('the key rests sealed: the row holds no base32 key', async () => {
    const { user, key } = await enrolledUser()
    const [row] = await getDb().select().from(users).where(eq(users.id, user.id))
    const { encodeBase32UpperCaseNoPadding } = await import('@oslojs/encoding')
    expect(row?.totpKeySealed).toMatch(/^v1\./)
    expect(JSON.stringify(row)).not.toContain(encodeBase32UpperCaseNoPadding(key))
  })

  test('code attempts are limited: past ten, even the right code is refused', async () => {
    const { user, key } = await enrolledUser()
    const { cookie } = await signInAs(user.email)
    // Enrolment's code counted one attempt; nine wrong ones make ten.
    for (let attempt = 0; attempt < 9; attempt++) {
      expect((await postStep(cookie, { intent: 'code', code: '000000' })).status).toBe(400)
    }
    const limited = await postStep(cookie, { intent: 'code', code: generateTOTP(key, 30, 6) })
    expect(limited.status).toBe(429)
    expect(await openProfile(cookie)).toHaveRedirect('/auth/two-factor')
  })
})

describe('who must have a second factor', () => {
  test('platform toggle on: an agency admin without one enrols at sign-in; off: signs straight in', async () => {
    const admin = await makeUser(tenant.id, { role: 'agency_admin', password: PASSWORD })
    const on = await signInAs(admin.email)
    expect(await openProfile(on.cookie)).toHaveRedirect('/auth/two-factor')
    const mod = await stepRoute()
    const page = await settle(async () =>
      mod.loader?.({
        request: requestFor(host, '/auth/two-factor', { headers: { Cookie: on.cookie } }),
        context: contextFor(host, IP),
        params: {},
      }),
    )
    // Set-up waits for the link emailed to the account (ADR 054); then the page offers a key.
    expect(((await page.json()) as { mode: string }).mode).toBe('confirm-email')
    await openEnrolmentLink((fields) => postStep(on.cookie, fields), tenant.id, admin.email)
    const after = await settle(async () =>
      mod.loader?.({
        request: requestFor(host, '/auth/two-factor', { headers: { Cookie: on.cookie } }),
        context: contextFor(host, IP),
        params: {},
      }),
    )
    const body = (await after.json()) as { mode: string; enrolment: { uri: string } }
    expect(body.mode).toBe('enrol')
    expect(body.enrolment.uri).toMatch(/^otpauth:\/\/totp\//)
    await setPlatform({ requireTwoFactorForAdmins: false })
    const off = await signInAs(admin.email)
    expect((await openProfile(off.cookie)).status).toBe(200)
  })

  test('enrolling at the step completes the session and answers ten recovery codes', async () => {
    const admin = await makeUser(tenant.id, { role: 'agency_admin', password: PASSWORD })
    const { cookie } = await signInAs(admin.email)
    // The link emailed to the account first; then the key the step's page made for this session
    // (ADR 054: it opens in this session only).
    await openEnrolmentLink((fields) => postStep(cookie, fields), tenant.id, admin.email)
    const { sealedKey, key } = await stepEnrolment(cookie)
    const wrong = await postStep(cookie, { intent: 'enrol', sealedKey, code: '000000' })
    expect(wrong.status).toBe(400)
    const done = await postStep(cookie, {
      intent: 'enrol',
      sealedKey,
      code: generateTOTP(key, 30, 6),
    })
    expect(done.status).toBe(200)
    expect(((await done.json()) as { recoveryCodes: string[] }).recoveryCodes).toHaveLength(10)
    expect((await openProfile(cookie)).status).toBe(200)
  })

  test('a key the server did not seal is refused', async () => {
    const admin = await makeUser(tenant.id, { role: 'agency_admin', password: PASSWORD })
    const { cookie } = await signInAs(admin.email)
    await openEnrolmentLink((fields) => postStep(cookie, fields), tenant.id, admin.email)
    const forged = await postStep(cookie, {
      intent: 'enrol',
      sealedKey: 'v1.forged.key.value',
      code: '123456',
    })
    expect(forged.status).toBe(400)
  })

  test('end users and team admins are not asked; an agency may require it of its staff', async () => {
    await setPlatform({ requireTwoFactorForAdmins: false })
    const member = await makeUser(tenant.id, { role: 'agency_member', password: PASSWORD })
    const endUser = await makeUser(tenant.id, { role: 'end_user', password: PASSWORD })
    expect((await openProfile((await signInAs(member.email)).cookie)).status).toBe(200)
    await withTenant(tenant.id, (tx) =>
      saveOrganizationPreferences(tx, tenant.id, { requireStaffTwoFactor: true }),
    )
    try {
      expect(await openProfile((await signInAs(member.email)).cookie)).toHaveRedirect(
        '/auth/two-factor',
      )
      expect((await openProfile((await signInAs(endUser.email)).cookie)).status).toBe(200)
    } finally {
      await withTenant(tenant.id, (tx) =>
        saveOrganizationPreferences(tx, tenant.id, { requireStaffTwoFactor: false }),
      )
    }
  })

  test('turning it off: refused while required, allowed with a code when not', async () => {
    const { user: admin, key } = await enrolledUser('agency_admin')
    const refused = await disableTwoFactor(tenant, admin, generateTOTP(key, 30, 6), IP).catch(
      (error: unknown) => error,
    )
    expect(refused).toBeInstanceOf(Refusal)
    expect((refused as Refusal).message).toBe(REQUIRED_MESSAGE)
    const { user, key: ownKey } = await enrolledUser()
    await disableTwoFactor(tenant, user, generateTOTP(ownKey, 30, 6), IP)
    const after = await withTenant(tenant.id, (tx) => findUserById(tx, tenant.id, user.id))
    expect(after?.totpKeySealed).toBeNull()
    expect(after?.recoveryCodeHashes).toEqual([])
    const actions = await getDb()
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.actorUserId, user.id))
    expect(actions.map((row) => row.action).sort()).toEqual([
      'two_factor.disabled',
      'two_factor.enabled',
    ])
  })

  test('new recovery codes replace the old ones', async () => {
    const { user, recoveryCodes } = await enrolledUser()
    const fresh = await regenerateRecoveryCodes(tenant, user)
    expect(fresh).toHaveLength(10)
    const { cookie } = await signInAs(user.email)
    expect(
      (await postStep(cookie, { intent: 'recovery', recoveryCode: recoveryCodes[0] as string }))
        .status,
    ).toBe(400)
    expect(
      await postStep(cookie, { intent: 'recovery', recoveryCode: fresh[0] as string }),
    ).toHaveRedirect('/dashboard/end-user')
  })
})

describe('password rotation', () => {
  async function agePassword(userId: string, days: number) {
    await getDb()
      .update(users)
      .set({ passwordChangedAt: sql`now() - make_interval(days => ${days})` })
      .where(eq(users.id, userId))
  }

  test('on, after 90 days: sign-in asks for a new, different password before anything else', async () => {
    const user = await makeUser(tenant.id, { password: PASSWORD })
    await setPlatform({ passwordRotation: true })
    await agePassword(user.id, 89)
    expect((await openProfile((await signInAs(user.email)).cookie)).status).toBe(200)
    await agePassword(user.id, 91)
    const { cookie } = await signInAs(user.email)
    expect(await openProfile(cookie)).toHaveRedirect('/auth/new-password')
    const mod = await loadRoute('auth.new-password.tsx')
    const post = (fields: Record<string, string>) =>
      settle(async () =>
        mod.action?.({
          request: formRequest(host, '/auth/new-password', fields, cookie),
          context: contextFor(host, IP),
          params: {},
        }),
      )
    const same = await post({ password: PASSWORD, confirmPassword: PASSWORD })
    expect(same.status).toBe(400)
    const short = await post({ password: 'abc', confirmPassword: 'abc' })
    expect(short.status).toBe(400)
    const done = await post({ password: 'a-fresh-password', confirmPassword: 'a-fresh-password' })
    expect(done).toHaveRedirect('/dashboard/end-user')
    expect((await openProfile(cookie)).status).toBe(200)
    const [row] = await getDb().select().from(users).where(eq(users.id, user.id))
    expect(Date.now() - (row?.passwordChangedAt.getTime() ?? 0)).toBeLessThan(60_000)
  })

  test('off: an old password is never asked about', async () => {
    const user = await makeUser(tenant.id, { password: PASSWORD })
    await agePassword(user.id, 400)
    expect((await openProfile((await signInAs(user.email)).cookie)).status).toBe(200)
  })

  test('the second factor comes first, then the new password', async () => {
    const { user, key } = await enrolledUser()
    await setPlatform({ passwordRotation: true })
    await agePassword(user.id, 120)
    const { cookie } = await signInAs(user.email)
    expect(await openProfile(cookie)).toHaveRedirect('/auth/two-factor')
    await postStep(cookie, { intent: 'code', code: generateTOTP(key, 30, 6) })
    expect(await openProfile(cookie)).toHaveRedirect('/auth/new-password')
  })
})

// Every route module, read from app/routes: the ones that send a signed-out request to sign in
// are the signed-in routes; each must send a pending session to its step instead, for its loader
// and its action, and an action must change nothing. Public routes must answer a pending session
// as they answer nobody. A new route is covered without being listed here.
describe('the one guard: a pending session is refused on every route', () => {
  const ROUTES = readdirSync('app/routes').sort()
  const STEP_PAGES = ['auth.two-factor.tsx', 'auth.new-password.tsx', 'auth.logout.ts']
  let pendingCookie: string
  let cardId: string

  beforeAll(async () => {
    const { user } = await enrolledUser('agency_admin')
    cardId = (await makeCard(tenant.id, user.id)).id
    pendingCookie = (await signInAs(user.email)).cookie
    const [row] = await getDb()
      .select({ verified: sessions.twoFactorVerified })
      .from(sessions)
      .where(eq(sessions.userId, user.id))
    expect(row?.verified).toBe(false)
  })

  const pathOf = (file: string) =>
    `/${file
      .replace(/\.(tsx|ts)$/, '')
      .replace('_index', '')
      .replace('card_.', 'card.')
      .replaceAll('[.]', '~')
      .replaceAll('.', '/')
      .replaceAll('~', '.')
      .replace(/\$[a-zA-Z]+_?/g, 'x')}`.replace(/\/+$/, '') || '/'
  const paramsOf = () => ({
    cardId,
    ref: cardId,
    slug: cardId,
    token: 'a'.repeat(52),
    file: 'x.png',
    variant: 'x',
    '*': 'x',
  })

  async function call(file: string, kind: 'loader' | 'action', cookie?: string) {
    const mod = await loadRoute(file)
    const run = mod[kind]
    if (!run) return null
    const path = file === 'dashboard.tsx' ? '/dashboard/agency' : pathOf(file)
    const request =
      kind === 'loader'
        ? requestFor(host, path, cookie ? { headers: { Cookie: cookie } } : {})
        : formRequest(host, path, { intent: 'x' }, cookie)
    return settle(async () => {
      const answer = await run({ request, context: contextFor(host, IP), params: paramsOf() })
      // A public loader may answer plain data: a 200.
      return answer instanceof Response ? answer : Response.json(answer ?? null)
    })
  }

  // A 401 that asks for a bearer token (SCIM, ADR 089) is an API's, which no session opens: the
  // same for a pending session as for none, as on any public route.
  const bearerOnly = (response: Response | null) =>
    (response?.headers.get('WWW-Authenticate') ?? '').startsWith('Bearer')
  const signedIn = (response: Response | null) =>
    (response?.headers.get('Location') ?? '').startsWith('/auth/login') ||
    (response?.status === 401 && !bearerOnly(response))

  const COUNTED = [
    'rate_limits',
    'card_views',
    'card_view_hours',
    'card_event_hours',
    'user_data_versions',
  ]

  test('every signed-in loader and action sends a pending session to its step', async () => {
    const refused: string[] = []
    const checked: string[] = []
    // Opening a card page counts a view (card_views, its hourly roll-up and the owner's data
    // version, ADR 109), and its vCard a save (card_event_hours, ADR 082): the exceptions.
    const before = await databaseChecksum({ exclude: COUNTED })
    for (const file of ROUTES.filter((name) => !STEP_PAGES.includes(name))) {
      for (const kind of ['loader', 'action'] as const) {
        const anonymous = await call(file, kind)
        if (!anonymous) continue
        const pending = await call(file, kind, pendingCookie)
        const cell = `${file} ${kind} (${pending?.status} ${pending?.headers.get('Location') ?? ''})`
        if (signedIn(anonymous)) {
          checked.push(cell)
          if (pending?.headers.get('Location') !== '/auth/two-factor') refused.push(cell)
        } else if (pending?.status !== anonymous.status) {
          // A public route: a pending session is nobody there.
          refused.push(`${cell} answered signed out ${anonymous.status}`)
        }
      }
    }
    expect(refused).toEqual([])
    // The signed-in surface is found from the code, not listed: it is most of the app.
    expect(checked.length).toBeGreaterThan(60)
    expect(await databaseChecksum({ exclude: COUNTED })).toEqual(before)
  }, 120_000)
})
