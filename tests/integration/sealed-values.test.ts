// Values sealed for a form (ADR 054, issue 39 point 1): each opens only for the organization,
// user, session and purpose it was sealed for. The endpoints that open one are found from the
// code (every route action that reaches `openFromForm`), and at each a value sealed for another
// account (on this tenant and another), another session of the same account and another purpose
// is posted with a right code for its key: all refused, nothing stored, and the value the page
// made for this session still works. The sign-in step also refuses to enrol an account that has
// a factor (a passkey alone) or that has not opened the emailed link.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { generateTOTP } from '@oslojs/otp'
import { and, eq } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { signIn } from '#app/auth/accounts.server'
import { sessionCookieName, sessionIdFromToken } from '#app/auth/session.server'
import { keyFromText, newTotpKey, sealKey } from '#app/auth/two-factor.server'
import { insertPasskey } from '#app/models/passkeys.server'
import { savePlatformSettings } from '#app/models/platform-settings.server'
import { findUserById } from '#app/models/users.server'
import { invalidatePlatformSettings } from '#app/tenancy/platform-settings-cache.server'
import { resolveTenant, type Tenant } from '#app/tenancy/tenant.server'
import { FORM_SEAL_PURPOSES, type FormSealPurpose, sealForForm } from '#app/utils/secret-box.server'
import { getDb, withTenant } from '#drizzle/db.server'
import { emailOutbox, rateLimits } from '#drizzle/schema'
import { enrolmentLinkToken, openEnrolmentLink } from '#tests/enrolment-link'
import {
  contextFor,
  formRequest,
  makeBrandedOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'
import { loadRoute } from '#tests/route-modules'

const PASSWORD = 'password123'
const IP = '203.0.113.54'

// ── The sealing sites, from the code ──────────────────────────────────────────────────────

function sourcesUnder(dir: string): { file: string; text: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourcesUnder(path)
    return /\.tsx?$/.test(name) ? [{ file: path, text: readFileSync(path, 'utf8') }] : []
  })
}

const SECRET_BOX = join('app', 'utils', 'secret-box.server.ts')
const SOURCES = sourcesUnder('app').filter(({ file }) => file !== SECRET_BOX)
const ROUTES_DIR = join('app', 'routes')
// Route modules are imported by no other module: their `loader` and `action` are not followed.
const MODULES = SOURCES.filter(({ file }) => !file.startsWith(ROUTES_DIR))

/** A module's top-level functions and constants, each with its text up to the next one. */
function chunksOf(text: string) {
  const starts = [
    ...text.matchAll(/^(?:export\s+)?(?:async\s+)?(?:function\s+(\w+)|const\s+(\w+)\s*[:=])/gm),
  ]
  return starts.map((match, index) => ({
    name: (match[1] ?? match[2]) as string,
    body: text.slice(match.index, starts[index + 1]?.index ?? text.length),
  }))
}

/** Names of every top-level function that calls `root`, directly or through others. */
function reaching(root: string) {
  const names = new Set([root])
  for (let grew = true; grew; ) {
    grew = false
    for (const { text } of MODULES) {
      for (const chunk of chunksOf(text)) {
        if (names.has(chunk.name)) continue
        const calls = [...names].some((name) => new RegExp(`\\b${name}\\(`).test(chunk.body))
        if (calls) {
          names.add(chunk.name)
          grew = true
        }
      }
    }
  }
  return names
}

/** The route files whose loader or action (or an intent of it) reaches `root`. */
function routesReaching(root: string, part: 'loader' | 'action') {
  const names = [...reaching(root)]
  return SOURCES.filter(({ file }) => file.startsWith(ROUTES_DIR))
    .filter(({ text }) =>
      chunksOf(text).some(
        (chunk) =>
          chunk.name === part && names.some((name) => new RegExp(`\\b${name}\\(`).test(chunk.body)),
      ),
    )
    .map(({ file }) => file.slice(ROUTES_DIR.length + 1))
    .sort()
}

/** Every endpoint that opens a value sealed for a form: the form field and its intent. */
const OPENERS: Record<string, { intent: string; field: string; purpose: FormSealPurpose }> = {
  'account.two-factor.tsx': {
    intent: 'enrol',
    field: 'sealedKey',
    purpose: 'two-factor-enrolment',
  },
  'auth.two-factor.tsx': { intent: 'enrol', field: 'sealedKey', purpose: 'two-factor-enrolment' },
}

describe('every value sealed for a form is bound', () => {
  test('the routes that open one, found from the code, are the endpoints tested below', () => {
    expect(routesReaching('openFromForm', 'action')).toEqual(Object.keys(OPENERS).sort())
    // Each purpose has its endpoint here: a new purpose is tested before it ships.
    const tested = new Set(Object.values(OPENERS).map((opener) => opener.purpose))
    expect(FORM_SEAL_PURPOSES.filter((purpose) => !tested.has(purpose))).toEqual([])
  })

  test('no module seals a value without a binding: the unbound box is for columns only', () => {
    // The at-rest box writes to a column; a page gets only `sealForForm`, which takes a binding.
    const atRest = SOURCES.filter(({ text }) => /\b(sealAtRest|openAtRest)\(/.test(text)).map(
      ({ file }) => file,
    )
    expect(atRest.sort()).toEqual(
      [
        join('app', 'auth', 'two-factor.server.ts'),
        join('app', 'crm', 'crm-settings-route.server.ts'),
        join('app', 'crm', 'forwarding.server.ts'),
        // HubSpot's token and Salesforce's client secret (ADR 094), in api_settings' columns.
        join('app', 'crm', 'providers.server.ts'),
        // A webhook endpoint's signing secrets (ADR 093): sealed at save, opened to sign.
        join('app', 'webhooks', 'webhook-delivery.server.ts'),
        join('app', 'webhooks', 'webhook-endpoints.server.ts'),
        // An identity provider's client secret (ADR 088): sealed at save, opened to sign in.
        join('app', 'sso', 'manage-sso.server.ts'),
        join('app', 'sso', 'sso-sign-in.server.ts'),
      ].sort(),
    )
    // No page hands out an at-rest value: no loader reaches the at-rest sealing.
    expect(routesReaching('sealAtRest', 'loader')).toEqual([])
    // Pages seal through `sealForForm` only: its loaders are the ones that mint the openers' values.
    expect(routesReaching('sealForForm', 'loader')).toEqual(Object.keys(OPENERS).sort())
  })
})

// ── The endpoints, posted a value sealed for someone or something else ───────────────────────

let tenant: Tenant
let host: string
let other: Tenant
let otherHost: string

async function tenantFor() {
  const { organization } = await makeBrandedOrganization()
  const found = await resolveTenant(`${organization.slug}.localhost`)
  if (found.status !== 'found') throw new Error('tenant not found')
  return { tenant: found.tenant, host: `${organization.slug}.localhost` }
}

beforeAll(async () => {
  ;({ tenant, host } = await tenantFor())
  ;({ tenant: other, host: otherHost } = await tenantFor())
  await savePlatformSettings(getDb(), { requireTwoFactorForAdmins: true })
  invalidatePlatformSettings()
})

// Every test posts codes from one address: each starts under the limits.
beforeEach(async () => {
  await getDb().delete(rateLimits)
})

async function pendingSignIn(email: string) {
  const signedIn = await signIn(tenant, { email, password: PASSWORD }, IP, requestFor(host, '/'))
  if (!signedIn) throw new Error('sign-in failed')
  return {
    cookie: `${sessionCookieName()}=${signedIn.session.token}`,
    sessionId: sessionIdFromToken(signedIn.session.token),
  }
}

async function callRoute(
  file: string,
  kind: 'loader' | 'action',
  onHost: string,
  path: string,
  cookie: string,
  fields: Record<string, string> = {},
) {
  const mod = await loadRoute(file)
  return settle(async () =>
    mod[kind]?.({
      request:
        kind === 'loader'
          ? requestFor(onHost, path, { headers: { Cookie: cookie } })
          : formRequest(onHost, path, fields, cookie),
      context: contextFor(onHost, IP),
      params: {},
    }),
  )
}

/** The set-up a page offers this cookie's session: its sealed key and the key itself. */
async function offeredKey(file: string, onHost: string, path: string, cookie: string) {
  const page = await callRoute(file, 'loader', onHost, path, cookie)
  const body = (await page.json()) as { enrolment: { sealedKey: string; keyText: string } | null }
  if (!body.enrolment) throw new Error(`${file} offers no set-up`)
  return { sealedKey: body.enrolment.sealedKey, key: keyFromText(body.enrolment.keyText) }
}

const SECURITY = ['account.two-factor.tsx', '/account/two-factor'] as const
const STEP = ['auth.two-factor.tsx', '/auth/two-factor'] as const

/** Keys minted for others: their own Security pages, an at-rest value, another purpose. */
async function foreignKeys(victim: { id: string; sessionId: string }) {
  const elsewhere = await makeUser(other.id, { role: 'agency_admin', password: PASSWORD })
  const neighbour = await makeUser(tenant.id, { role: 'end_user', password: PASSWORD })
  const atRestKey = newTotpKey()
  const otherPurposeKey = newTotpKey()
  const { encodeBase32UpperCaseNoPadding } = await import('@oslojs/encoding')
  return {
    'another account on another tenant': await offeredKey(
      SECURITY[0],
      otherHost,
      SECURITY[1],
      await sessionCookieFor(other.id, elsewhere.id),
    ),
    'another account on this tenant': await offeredKey(
      SECURITY[0],
      host,
      SECURITY[1],
      await sessionCookieFor(tenant.id, neighbour.id),
    ),
    'another session of this account': await offeredKey(
      SECURITY[0],
      host,
      SECURITY[1],
      await sessionCookieFor(tenant.id, victim.id),
    ),
    'a key at rest (another purpose)': { sealedKey: sealKey(atRestKey), key: atRestKey },
    'this account and session, another purpose': {
      sealedKey: sealForForm(encodeBase32UpperCaseNoPadding(otherPurposeKey), {
        purpose: 'another-purpose' as FormSealPurpose,
        organizationId: tenant.id,
        userId: victim.id,
        sessionId: victim.sessionId,
      }),
      key: otherPurposeKey,
    },
  }
}

async function storedUser(id: string) {
  return withTenant(tenant.id, (tx) => findUserById(tx, tenant.id, id))
}

/** /profile, followed to the person's own profile screen it leads to (ADR 078). */
async function openProfile(cookie: string) {
  const response = await callRoute('profile._index.tsx', 'loader', host, '/profile', cookie)
  const location = response.headers.get('Location') ?? ''
  if (response.status !== 302 || !location.startsWith('/profile/')) return response
  return callRoute('profile._index.tsx', 'loader', host, location, cookie)
}

describe('a value sealed for another account, session or purpose opens nowhere', () => {
  test('the sign-in step refuses each foreign key, then enrols with its own', async () => {
    const opener = OPENERS[STEP[0]]
    if (!opener) throw new Error('the step opens no sealed value')
    const admin = await makeUser(tenant.id, { role: 'agency_admin', password: PASSWORD })
    const { cookie, sessionId } = await pendingSignIn(admin.email)
    await openEnrolmentLink(
      (fields) => callRoute(STEP[0], 'action', host, STEP[1], cookie, fields),
      tenant.id,
      admin.email,
    )
    const foreign = await foreignKeys({ id: admin.id, sessionId })
    const accepted: string[] = []
    for (const [who, { sealedKey, key }] of Object.entries(foreign)) {
      const answer = await callRoute(STEP[0], 'action', host, STEP[1], cookie, {
        intent: opener.intent,
        [opener.field]: sealedKey,
        code: generateTOTP(key, 30, 6),
      })
      if (answer.status !== 400) accepted.push(`${who}: ${answer.status}`)
    }
    expect(accepted).toEqual([])
    expect((await storedUser(admin.id))?.totpKeySealed).toBeNull()
    expect(await openProfile(cookie)).toHaveRedirect('/auth/two-factor')
    // The key this session's page made still works: the refusals were the binding's.
    const own = await offeredKey(STEP[0], host, STEP[1], cookie)
    const done = await callRoute(STEP[0], 'action', host, STEP[1], cookie, {
      intent: opener.intent,
      [opener.field]: own.sealedKey,
      code: generateTOTP(own.key, 30, 6),
    })
    expect(done.status).toBe(200)
    expect((await openProfile(cookie)).status).toBe(200)
  }, 120_000)

  test('the Security page refuses each foreign key, then enrols with its own', async () => {
    const opener = OPENERS[SECURITY[0]]
    if (!opener) throw new Error('the Security page opens no sealed value')
    const person = await makeUser(tenant.id, { role: 'end_user', password: PASSWORD })
    const { token } = await signInToken(person.email)
    const cookie = `${sessionCookieName()}=${token}`
    const foreign = await foreignKeys({ id: person.id, sessionId: sessionIdFromToken(token) })
    const accepted: string[] = []
    for (const [who, { sealedKey, key }] of Object.entries(foreign)) {
      const answer = await callRoute(SECURITY[0], 'action', host, SECURITY[1], cookie, {
        intent: opener.intent,
        [opener.field]: sealedKey,
        code: generateTOTP(key, 30, 6),
      })
      if (answer.status !== 400) accepted.push(`${who}: ${answer.status}`)
    }
    expect(accepted).toEqual([])
    expect((await storedUser(person.id))?.totpKeySealed).toBeNull()
    const own = await offeredKey(SECURITY[0], host, SECURITY[1], cookie)
    const done = await callRoute(SECURITY[0], 'action', host, SECURITY[1], cookie, {
      intent: opener.intent,
      [opener.field]: own.sealedKey,
      code: generateTOTP(own.key, 30, 6),
    })
    expect(done.status).toBe(200)
    expect((await storedUser(person.id))?.totpKeySealed).not.toBeNull()
  }, 120_000)
})

/** A full sign-in of an account that owes no step: its session token. */
async function signInToken(email: string) {
  const signedIn = await signIn(tenant, { email, password: PASSWORD }, IP, requestFor(host, '/'))
  if (!signedIn) throw new Error('sign-in failed')
  return { token: signedIn.session.token }
}

describe('the sign-in step enrols only an account that owes a factor, after the emailed link', () => {
  test('an account whose factor is a passkey alone cannot add an authenticator at the step', async () => {
    const admin = await makeUser(tenant.id, { role: 'agency_admin', password: PASSWORD })
    await withTenant(tenant.id, (tx) =>
      insertPasskey(tx, tenant.id, admin.id, {
        credentialId: `cred-${admin.id}`,
        publicKey: Buffer.from([1, 2, 3]),
        counter: 0,
        transports: [],
        name: 'Laptop',
      }),
    )
    const { cookie, sessionId } = await pendingSignIn(admin.email)
    // Even a key sealed for this very account and session: a passkey account passes with it.
    const key = newTotpKey()
    const { sealEnrolmentKey } = await import('#app/auth/two-factor.server')
    const sealedKey = sealEnrolmentKey(key, {
      organizationId: tenant.id,
      userId: admin.id,
      sessionId,
    })
    const answer = await callRoute(STEP[0], 'action', host, STEP[1], cookie, {
      intent: 'enrol',
      sealedKey,
      code: generateTOTP(key, 30, 6),
    })
    expect(answer.status).toBe(400)
    expect((await storedUser(admin.id))?.totpKeySealed).toBeNull()
    expect(await openProfile(cookie)).toHaveRedirect('/auth/two-factor')
  })

  test('without the emailed link the password alone enrols nothing; a link of another session does not open it', async () => {
    const admin = await makeUser(tenant.id, { role: 'agency_admin', password: PASSWORD })
    const { cookie, sessionId } = await pendingSignIn(admin.email)
    const page = await callRoute(STEP[0], 'loader', host, STEP[1], cookie)
    const body = (await page.json()) as { mode: string; enrolment: unknown }
    expect(body).toMatchObject({ mode: 'confirm-email', enrolment: null })
    const key = newTotpKey()
    const { sealEnrolmentKey } = await import('#app/auth/two-factor.server')
    const sealedKey = sealEnrolmentKey(key, {
      organizationId: tenant.id,
      userId: admin.id,
      sessionId,
    })
    const enrol = await callRoute(STEP[0], 'action', host, STEP[1], cookie, {
      intent: 'enrol',
      sealedKey,
      code: generateTOTP(key, 30, 6),
    })
    expect(enrol.status).toBe(403)
    const passkeyOptions = await callRoute(STEP[0], 'action', host, STEP[1], cookie, {
      intent: 'passkey-options',
    })
    expect(passkeyOptions.status).toBe(403)
    expect((await storedUser(admin.id))?.totpKeySealed).toBeNull()
    // A second sign-in asks for its own link; the first session's link does not open it.
    const second = await pendingSignIn(admin.email)
    await callRoute(STEP[0], 'action', host, STEP[1], cookie, { intent: 'send-enrolment-email' })
    const token = await enrolmentLinkToken(tenant.id, admin.email)
    // The outbox row holds no token (ADR 028).
    const [stored] = await getDb()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.organizationId, tenant.id), eq(emailOutbox.toAddress, admin.email)))
    expect(JSON.stringify(stored)).not.toContain(token)
    const elsewhere = await callRoute(STEP[0], 'action', host, STEP[1], second.cookie, {
      intent: 'confirm-email',
      token,
    })
    expect(elsewhere.status).toBe(400)
    // In the session that asked, it works once.
    const first = await callRoute(STEP[0], 'action', host, STEP[1], cookie, {
      intent: 'confirm-email',
      token,
    })
    expect(first).toHaveRedirect('/auth/two-factor')
    const again = await callRoute(STEP[0], 'action', host, STEP[1], cookie, {
      intent: 'confirm-email',
      token,
    })
    expect(again.status).toBe(400)
    const enrolling = (await (
      await callRoute(STEP[0], 'loader', host, STEP[1], cookie)
    ).json()) as {
      mode: string
    }
    expect(enrolling.mode).toBe('enrol')
    const secondPage = (await (
      await callRoute(STEP[0], 'loader', host, STEP[1], second.cookie)
    ).json()) as { mode: string }
    expect(secondPage.mode).toBe('confirm-email')
  })
})
