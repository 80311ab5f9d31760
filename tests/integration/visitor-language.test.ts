// The card in the visitor's language (issue 45 point 5, ADR 105): the agency's choice of
// languages (validated, audited), the browser's Accept-Language negotiated within it, the card
// page's Vary header and cache key, replies and the lead's receipt in the visitor's language.
import { generateTOTP } from '@oslojs/otp'
import type { ActionFunctionArgs } from '@remix-run/node'
import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { signIn } from '#app/auth/accounts.server'
import { sessionCookieName } from '#app/auth/session.server'
import { confirmEnrolment, enrolmentOf, newTotpKey } from '#app/auth/two-factor.server'
import { lookupPage, pageCacheKey, storePage } from '#app/cache/page-cache.server'
import { rootLoader } from '#app/navigation/root-loader.server'
import * as confirmEmailPage from '#app/routes/auth.confirm-email'
import * as login from '#app/routes/auth.login'
import * as register from '#app/routes/auth.register'
import * as ssoPage from '#app/routes/auth.sso._index'
import * as twoFactor from '#app/routes/auth.two-factor'
import { action as cardAction, loader as cardLoader } from '#app/routes/card.$ref'
import * as branding from '#app/routes/dashboard.agency.branding'
import * as superAdminSettings from '#app/routes/settings.super-admin'
import { clearTenantCache, resolveTenant } from '#app/tenancy/tenant.server'
import {
  DEFAULT_MUST_BE_OFFERED,
  LANGUAGES_SAVED,
  OFFER_ONE_LANGUAGE,
} from '#app/validation/languages'
import { getDb } from '#drizzle/db.server'
import { auditEvents, emailOutbox } from '#drizzle/schema'
import { databaseChecksum } from '#tests/checksum'
import {
  contextFor,
  getPlatformOrganization,
  makeCard,
  makeOrganization,
  makeUser,
  replyErrors,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'
import { asDelivered } from '#tests/inbox'

async function agency() {
  const organization = await makeOrganization({ name: 'Polyglot Co' })
  const host = `${organization.slug}.localhost`
  const passwordHash = 'not-a-password'
  const admin = await makeUser(organization.id, { role: 'agency_admin', passwordHash })
  const member = await makeUser(organization.id, { role: 'agency_member', passwordHash })
  const owner = await makeUser(organization.id, {
    firstName: 'Greta',
    lastName: 'Owner',
    passwordHash,
  })
  const card = await makeCard(organization.id, owner.id, { firstName: 'Greta', lastName: 'Owner' })
  return {
    organization,
    host,
    card,
    admin: await sessionCookieFor(organization.id, admin.id),
    adminId: admin.id,
    member: await sessionCookieFor(organization.id, member.id),
  }
}
type World = Awaited<ReturnType<typeof agency>>

/** The languages form as a browser posts it: one `languages` entry per ticked box. */
function languagesRequest(host: string, path: string, fields: [string, string][], cookie: string) {
  return new Request(`http://${host}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
    body: new URLSearchParams([['intent', 'languages'], ...fields]).toString(),
  })
}

const saveLanguages = (world: World, fields: [string, string][], cookie = world.admin) =>
  settle(() =>
    branding.action({
      request: languagesRequest(world.host, '/dashboard/agency/branding', fields, cookie),
      context: contextFor(world.host),
      params: {},
    }),
  )

const openCard = (world: World, acceptLanguage?: string, query = '') =>
  settle(() =>
    cardLoader({
      request: requestFor(world.host, `/card/${world.card.id}${query}`, {
        headers: acceptLanguage ? { 'Accept-Language': acceptLanguage } : {},
      }),
      context: contextFor(world.host),
      params: { ref: world.card.id },
    }),
  )

async function pageLanguageOf(
  world: World,
  acceptLanguage?: string,
  path = `/card/${world.card.id}`,
) {
  const data = await rootLoader({
    request: requestFor(world.host, path, {
      headers: acceptLanguage ? { 'Accept-Language': acceptLanguage } : {},
    }),
    context: contextFor(world.host),
    params: {},
  })
  return data.language
}

describe('the agency’s languages', () => {
  test('saved from the Branding screen, audited, and honoured at once', async () => {
    const world = await agency()
    // Never chosen: the platform's (every language), so German for a German browser.
    expect(await pageLanguageOf(world, 'de-DE,de;q=0.9')).toBe('de')
    const saved = await saveLanguages(world, [
      ['languages', 'en'],
      ['languages', 'fr'],
      ['defaultLanguage', 'fr'],
    ])
    expect(saved.status).toBe(302)
    expect(saved).toSendToast({ type: 'success', title: LANGUAGES_SAVED })
    // German is not offered: the default answers a German browser, an offered one its own.
    expect(await pageLanguageOf(world, 'de-DE,de;q=0.9')).toBe('fr')
    expect(await pageLanguageOf(world, 'de-DE,en;q=0.5')).toBe('en')
    expect(await pageLanguageOf(world)).toBe('fr')
    // A dashboard is English whatever the browser asks: it speaks nothing else.
    expect(await pageLanguageOf(world, 'fr', '/dashboard/agency')).toBe('en')
    const audited = await getDb()
      .select({ action: auditEvents.action, metadata: auditEvents.metadata })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, world.organization.id),
          eq(auditEvents.action, 'languages.updated'),
        ),
      )
    expect(audited).toEqual([
      {
        action: 'languages.updated',
        metadata: { from: null, to: { defaultLanguage: 'fr', languages: ['en', 'fr'] } },
      },
    ])
    // The screen shows the choice.
    const page = await settle(() =>
      branding.loader({
        request: requestFor(world.host, '/dashboard/agency/branding', {
          headers: { Cookie: world.admin },
        }),
        context: contextFor(world.host),
        params: {},
      }),
    )
    expect(((await page.json()) as { languages: unknown }).languages).toEqual({
      defaultLanguage: 'fr',
      languages: ['en', 'fr'],
    })
  })

  test('refused next to the field, nothing written: no language, a default not offered, an unknown one', async () => {
    const world = await agency()
    const before = await databaseChecksum()
    const none = await saveLanguages(world, [['defaultLanguage', 'en']])
    expect(none.status).toBe(400)
    expect((await replyErrors(none)).languages).toEqual([OFFER_ONE_LANGUAGE])
    const notOffered = await saveLanguages(world, [
      ['languages', 'en'],
      ['defaultLanguage', 'de'],
    ])
    expect(notOffered.status).toBe(400)
    expect((await replyErrors(notOffered)).defaultLanguage).toEqual([DEFAULT_MUST_BE_OFFERED])
    const unknown = await saveLanguages(world, [
      ['languages', 'en'],
      ['languages', 'xx'],
      ['defaultLanguage', 'en'],
    ])
    expect(unknown.status).toBe(400)
    expect(await databaseChecksum()).toEqual(before)
  })

  test('an agency member may not change them', async () => {
    const world = await agency()
    const before = await databaseChecksum()
    const refused = await saveLanguages(
      world,
      [
        ['languages', 'en'],
        ['defaultLanguage', 'en'],
      ],
      world.member,
    )
    expect(refused.status).toBe(403)
    expect(await databaseChecksum()).toEqual(before)
  })

  test('the platform’s choice is every undecided agency’s, and the root host’s', async () => {
    const platform = await getPlatformOrganization()
    const superAdmin = await makeUser(platform.id, { role: 'super_admin', passwordHash: 'x' })
    const cookie = await sessionCookieFor(platform.id, superAdmin.id)
    const world = await agency()
    const save = (fields: [string, string][]) =>
      settle(() =>
        superAdminSettings.action({
          request: languagesRequest('localhost', '/settings/super-admin', fields, cookie),
          context: contextFor('localhost'),
          params: {},
        }),
      )
    try {
      const saved = await save([
        ['languages', 'en'],
        ['languages', 'nl'],
        ['defaultLanguage', 'nl'],
      ])
      expect(saved.status).toBe(302)
      expect(await pageLanguageOf(world, 'es')).toBe('nl')
      const root = await rootLoader({
        request: requestFor('localhost', '/card/anyone', { headers: { 'Accept-Language': 'es' } }),
        context: contextFor('localhost'),
        params: {},
      })
      expect(root.language).toBe('nl')
      // The agency's own choice stands over the platform's.
      await saveLanguages(world, [
        ['languages', 'es'],
        ['defaultLanguage', 'es'],
      ])
      expect(await pageLanguageOf(world, 'nl')).toBe('es')
    } finally {
      // Back to "never chose" for the other tests of this database.
      await save([
        ['languages', 'en'],
        ['languages', 'de'],
        ['languages', 'fr'],
        ['languages', 'es'],
        ['languages', 'nl'],
        ['defaultLanguage', 'en'],
      ])
      clearTenantCache()
    }
  })
})

describe('the card page in the visitor’s language', () => {
  test('says it varies by Accept-Language, found or not', async () => {
    const world = await agency()
    const found = await openCard(world, 'de')
    expect(found.status).toBe(200)
    expect(found.headers.get('Vary')).toBe('Accept-Language')
    const missing = await settle(() =>
      cardLoader({
        request: requestFor(world.host, '/card/no-such-card'),
        context: contextFor(world.host),
        params: { ref: 'no-such-card' },
      }),
    )
    expect(missing.status).toBe(404)
    expect(missing.headers.get('Vary')).toBe('Accept-Language')
  })

  test('the switcher’s ?lang= picks an offered language', async () => {
    const world = await agency()
    expect(await pageLanguageOf(world, 'de', `/card/${world.card.id}?lang=es`)).toBe('es')
  })

  test('the page cache keeps one page per ranked language list', () => {
    const german = pageCacheKey('a.localhost', '/card/x', 'de-DE,de;q=0.9')
    const english = pageCacheKey('a.localhost', '/card/x', 'en-US,en;q=0.9')
    expect(german).not.toBe(english)
    // Browsers that rank the product's languages the same share an entry.
    expect(pageCacheKey('a.localhost', '/card/x', 'de-AT')).toBe(
      pageCacheKey('a.localhost', '/card/x', 'de-CH,ja;q=0.5'),
    )
    storePage(german, {
      status: 200,
      headers: { 'content-type': 'text/html', 'x-page-cache': 'org-1' },
      body: Buffer.from('<html lang="de"></html>'),
      nonce: '',
    })
    expect(lookupPage(german)?.identity.toString()).toBe('<html lang="de"></html>')
    expect(lookupPage(english)).toBeUndefined()
  })

  test('the lead form answers, refuses and sends its receipt in the visitor’s language', async () => {
    const world = await agency()
    await settle(() =>
      branding.action({
        request: new Request(`http://${world.host}/dashboard/agency/branding`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            Cookie: world.admin,
          },
          body: new URLSearchParams({
            intent: 'save-consent',
            consentText: 'Ich stimme zu.',
          }).toString(),
        }),
        context: contextFor(world.host),
        params: {},
      }),
    )
    const consent = ((await (await openCard(world, 'de')).json()) as { consent: { id: string } })
      .consent
    const send = (fields: Record<string, string>, ip: string) =>
      settle(() =>
        cardAction({
          request: new Request(`http://${world.host}/card/${world.card.id}`, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/x-www-form-urlencoded',
              'Accept-Language': 'de-DE,de;q=0.9,en;q=0.5',
            },
            body: new URLSearchParams({ intent: 'lead', ...fields }).toString(),
          }),
          context: contextFor(world.host, ip),
          params: { ref: world.card.id },
        }),
      )
    const refused = await send(
      { fullName: '', email: 'nope', consentTextId: consent.id },
      '198.51.100.71',
    )
    expect(refused.status).toBe(400)
    const errors = await replyErrors(refused)
    expect(errors.fullName).toEqual(['Bitte geben Sie Ihren Namen ein'])
    expect(errors.email).toEqual(['Bitte geben Sie eine gültige E-Mail-Adresse ein'])
    expect(errors.consent).toEqual(['Bitte setzen Sie das Häkchen, bevor Sie Ihre Daten senden'])
    const sent = await send(
      {
        fullName: 'Lena Lead',
        email: 'lena.de@example.test',
        consentTextId: consent.id,
        consent: 'on',
      },
      '198.51.100.72',
    )
    expect(sent.status).toBe(200)
    expect(((await sent.json()) as { message: string }).message).toBe(
      'Danke! Greta meldet sich bei Ihnen.',
    )
    const rows = await getDb()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.organizationId, world.organization.id))
    const receipt = asDelivered(rows.filter((row) => row.toAddress === 'lena.de@example.test'))[0]
    expect(receipt?.subject).toBe('Ihre Daten wurden mit Greta Owner geteilt')
    expect(receipt?.html).toContain('<html lang="de">')
    expect(receipt?.text).toContain('Meine Daten ansehen oder löschen')
    // The agency's consent text stays as it wrote it.
    expect(receipt?.text).toContain('Ich stimme zu.')
  })
})

describe('the sign-in pages in the visitor’s language', () => {
  const signIn = (world: World, fields: Record<string, string>, ip: string, language?: string) =>
    settle(() =>
      login.action({
        request: new Request(`http://${world.host}/auth/login`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            ...(language ? { 'Accept-Language': language } : {}),
          },
          body: new URLSearchParams(fields).toString(),
        }),
        context: contextFor(world.host, ip),
        params: {},
      }),
    )

  test('the page speaks German to a German browser, English by default; the dashboard stays English', async () => {
    const world = await agency()
    expect(await pageLanguageOf(world, 'de-DE,de;q=0.9', '/auth/login')).toBe('de')
    expect(await pageLanguageOf(world, 'fr', '/auth/forgot-password')).toBe('fr')
    expect(await pageLanguageOf(world, undefined, '/auth/login')).toBe('en')
    expect(await pageLanguageOf(world, 'de', '/dashboard/end-user')).toBe('en')
    const page = await settle(() =>
      login.loader({
        request: requestFor(world.host, '/auth/login?redirectTo=%2Fonboarding%3Fmode%3Dcard', {
          headers: { 'Accept-Language': 'de' },
        }),
        context: contextFor(world.host),
        params: {},
      }),
    )
    expect(((await page.json()) as { info: string }).info).toBe(
      'Sie müssen angemeldet sein, um eine digitale Karte zu erstellen',
    )
    const headers = login.headers as (args: unknown) => Headers
    expect(
      headers({ actionHeaders: new Headers(), loaderHeaders: new Headers() }).get('Vary'),
    ).toBe('Accept-Language')
  })

  test('refusals in German for Accept-Language: de, in English without it', async () => {
    const world = await agency()
    const empty = await signIn(world, { email: '', password: '' }, '198.51.100.81', 'de')
    expect(empty.status).toBe(400)
    const errors = await replyErrors(empty)
    expect(errors.email).toEqual(['Bitte geben Sie eine gültige E-Mail-Adresse ein'])
    expect(errors.password).toEqual(['Das Passwort muss mindestens 6 Zeichen lang sein'])
    const credentials = { email: 'nobody@example.test', password: 'wrong-password' }
    const german = await signIn(world, credentials, '198.51.100.82', 'de-DE,de;q=0.9')
    expect(((await german.json()) as { error: string }).error).toBe(
      'Anmeldung fehlgeschlagen. Bitte überprüfen Sie Ihre Zugangsdaten.',
    )
    const english = await signIn(world, credentials, '198.51.100.83')
    expect(((await english.json()) as { error: string }).error).toBe(
      'Failed to sign in. Please check your credentials.',
    )
  })
})

describe('the rest of the sign-in pages in the visitor’s language', () => {
  const german = { 'Accept-Language': 'de-DE,de;q=0.9' }
  const post = (
    route: { action: (args: ActionFunctionArgs) => unknown },
    world: World,
    path: string,
    fields: Record<string, string>,
    { headers = {}, ip = '198.51.100.90' }: { headers?: Record<string, string>; ip?: string } = {},
  ) =>
    settle(
      () =>
        route.action({
          request: new Request(`http://${world.host}${path}`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
            body: new URLSearchParams(fields).toString(),
          }),
          context: contextFor(world.host, ip),
          params: {},
        }) as Promise<Response>,
    )

  /** A signed-in session that owes the second step, for an account with an authenticator. */
  async function pendingStep(world: World) {
    const resolution = await resolveTenant(world.host)
    if (resolution.status !== 'found') throw new Error('tenant not found')
    const tenant = resolution.tenant
    const user = await makeUser(world.organization.id, { password: 'password123' })
    const key = newTotpKey()
    const { sealedKey } = await enrolmentOf(key, tenant.name, user.email, {
      organizationId: tenant.id,
      userId: user.id,
      sessionId: 'no-session',
    })
    const code = generateTOTP(key, 30, 6)
    await confirmEnrolment(tenant, user, 'no-session', { sealedKey, code }, '198.51.100.91')
    const request = requestFor(world.host, '/auth/login')
    const signedIn = await signIn(
      tenant,
      { email: user.email, password: 'password123' },
      '198.51.100.91',
      request,
    )
    if (!signedIn) throw new Error('sign-in failed')
    return `${sessionCookieName()}=${signedIn.session.token}`
  }

  test('sign-up, the second step and the confirmation link speak German to a German browser, English by default, within the agency’s languages', async () => {
    const world = await agency()
    for (const path of ['/auth/register', '/auth/two-factor', '/auth/confirm-email', '/auth/sso']) {
      expect(await pageLanguageOf(world, 'de-DE,de;q=0.9', path)).toBe('de')
      expect(await pageLanguageOf(world, undefined, path)).toBe('en')
    }
    // The single sign-on provider's callback and the Security area's two-factor page are not.
    expect(await pageLanguageOf(world, 'de', '/auth/sso/callback')).toBe('en')
    expect(await pageLanguageOf(world, 'de', '/account/two-factor')).toBe('en')
    // The agency offers English and French, French its default: a German browser gets French.
    await saveLanguages(world, [
      ['languages', 'en'],
      ['languages', 'fr'],
      ['defaultLanguage', 'fr'],
    ])
    expect(await pageLanguageOf(world, 'de', '/auth/two-factor')).toBe('fr')
    expect(await pageLanguageOf(world, 'de, en;q=0.5', '/auth/register')).toBe('en')
    for (const route of [register, twoFactor, confirmEmailPage, ssoPage]) {
      const headers = route.headers as (args: unknown) => Headers
      const answer = new Headers(
        headers({ actionHeaders: new Headers(), loaderHeaders: new Headers() }),
      )
      expect(answer.get('Vary')).toBe('Accept-Language')
    }
  })

  test('sign-up’s refusals next to the field in German, in English without Accept-Language', async () => {
    const world = await agency()
    const empty = { firstName: 'A', lastName: '', email: 'not-an-email', password: '123' }
    const refused = await post(register, world, '/auth/register', empty, { headers: german })
    expect(refused.status).toBe(400)
    expect(await replyErrors(refused)).toMatchObject({
      firstName: ['Vorname muss mindestens 2 Zeichen lang sein'],
      lastName: ['Nachname muss mindestens 2 Zeichen lang sein'],
      email: ['Bitte geben Sie eine gültige E-Mail-Adresse ein'],
      password: ['Das Passwort muss mindestens 6 Zeichen lang sein'],
    })
    const english = await post(register, world, '/auth/register', empty)
    expect(await replyErrors(english)).toMatchObject({
      firstName: ['First name must be at least 2 characters'],
      password: ['Password must be at least 6 characters'],
    })
  })

  test('the single sign-on form refuses a work email in German next to the field, in English by default', async () => {
    const world = await agency()
    const bad = { email: 'not-an-email', redirectTo: '' }
    const refused = await post(ssoPage, world, '/auth/sso', bad, { headers: german })
    expect(refused.status).toBe(400)
    expect((await replyErrors(refused)).email).toEqual([
      'Bitte geben Sie eine gültige E-Mail-Adresse ein',
    ])
    const english = await post(ssoPage, world, '/auth/sso', bad)
    expect((await replyErrors(english)).email).toEqual(['Please enter a valid email address'])
    // An address with no provider here: the refusal in German too.
    const unknown = { email: 'someone@nowhere.example', redirectTo: '' }
    const noProvider = await post(ssoPage, world, '/auth/sso', unknown, { headers: german })
    expect(JSON.stringify(await noProvider.json())).toContain(
      'Single Sign-on ist für diese E-Mail-Adresse hier nicht eingerichtet.',
    )
  })

  test('the sign-in limit in German, with its minutes; in English by default', async () => {
    const world = await agency()
    const credentials = { email: 'limited@example.test', password: 'wrong-password' }
    for (let attempt = 0; attempt < 10; attempt++) {
      await post(login, world, '/auth/login', credentials, { ip: '198.51.100.92' })
    }
    const limited = await post(login, world, '/auth/login', credentials, {
      headers: german,
      ip: '198.51.100.92',
    })
    expect(limited.status).toBe(429)
    expect(((await limited.json()) as { error: string }).error).toMatch(
      /^Zu viele Versuche\. Bitte warten Sie \d+ Minuten? und versuchen Sie es dann erneut\.$/,
    )
    const english = await post(login, world, '/auth/login', credentials, { ip: '198.51.100.92' })
    expect(((await english.json()) as { error: string }).error).toMatch(
      /^Too many attempts\. Please wait \d+ minutes? and try again\.$/,
    )
  })

  test('the second step refuses a code in German next to the field, in English by default', async () => {
    const world = await agency()
    const cookie = await pendingStep(world)
    const step = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      post(twoFactor, world, '/auth/two-factor', fields, {
        headers: { Cookie: cookie, ...headers },
      })
    const empty = await step({ intent: 'code', code: '' }, german)
    expect(empty.status).toBe(400)
    expect(await replyErrors(empty)).toMatchObject({
      code: ['Bitte geben Sie den 6-stelligen Code aus Ihrer Authenticator-App ein'],
    })
    const wrong = await step({ intent: 'code', code: '000000' }, german)
    expect(wrong.status).toBe(400)
    expect(await replyErrors(wrong)).toMatchObject({
      code: ['Dieser Code stimmt nicht. Bitte versuchen Sie es erneut.'],
    })
    const english = await step({ intent: 'code', code: '000000' })
    expect(await replyErrors(english)).toMatchObject({
      code: ['That code is not right. Please try again.'],
    })
  })

  test('the confirmation link’s refusal in German, in English by default', async () => {
    const world = await agency()
    const used = { token: 'no-such-token' }
    const inGerman = await post(confirmEmailPage, world, '/auth/confirm-email', used, {
      headers: german,
    })
    expect(((await inGerman.json()) as { error: string }).error).toBe(
      'Dieser Bestätigungslink ist ungültig oder abgelaufen.',
    )
    const english = await post(confirmEmailPage, world, '/auth/confirm-email', used)
    expect(((await english.json()) as { error: string }).error).toBe(
      'This confirmation link is invalid or has expired.',
    )
  })
})
