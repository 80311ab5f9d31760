// Legal and support links (issue 17 point 5): an agency admin sets a privacy policy, terms and a
// support email on the Branding screen, the super admin sets the platform's in System Settings;
// each host's footer, sign-up form and emails show its own, the platform's filling what an
// agency left empty (and all of them while its white labeling is off).
import type { ActionFunctionArgs } from '@remix-run/node'
import { eq } from 'drizzle-orm'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { SignUpAgreement, SiteFooter } from '#app/components/layout/site-footer'
import { loader as rootLoader } from '#app/root'
import { action as forgotAction } from '#app/routes/auth.forgot-password'
import * as branding from '#app/routes/dashboard.agency.branding'
import { action as agenciesAction } from '#app/routes/dashboard.super-admin.agencies'
import { action as usersAction } from '#app/routes/dashboard.super-admin.users._index'
import { loader as privacyLoader } from '#app/routes/privacy'
import * as superAdminSettings from '#app/routes/settings.super-admin'
import { clearTenantCache } from '#app/tenancy/tenant.server'
import { LEGAL_URL_MESSAGE, type LegalLinks } from '#app/validation/legal'
import { getDb } from '#drizzle/db.server'
import { auditEvents, emailOutbox, organizations } from '#drizzle/schema'
import { databaseChecksum } from '#tests/checksum'
import {
  contextFor,
  formRequest,
  getPlatformOrganization,
  makeBrandedOrganization,
  makeUser,
  replyErrors,
  requestFor,
  sessionCookieFor,
  settle,
  settleBackgroundWork,
  toResponse,
  uniqueSuffix,
} from '#tests/factories'

const BRANDING = '/dashboard/agency/branding'
const SETTINGS = '/settings/super-admin'

const AGENCY_LINKS: LegalLinks = {
  privacyPolicyUrl: 'https://legal.brand-co.test/privacy',
  termsOfServiceUrl: 'https://legal.brand-co.test/terms',
  supportEmail: 'help@brand-co.test',
  accessibilityEmail: 'access@brand-co.test',
}
const PLATFORM_LINKS: LegalLinks = {
  privacyPolicyUrl: 'https://reseller-legal.test/privacy',
  termsOfServiceUrl: 'https://reseller-legal.test/terms',
  supportEmail: 'care@reseller-legal.test',
  accessibilityEmail: 'access@reseller-legal.test',
}

async function agency(name = 'Brand Co') {
  const { organization } = await makeBrandedOrganization({ name })
  const host = `${organization.slug}.localhost`
  const admin = await makeUser(organization.id, { role: 'agency_admin' })
  const member = await makeUser(organization.id, { role: 'agency_member' })
  return {
    organization,
    host,
    admin: { id: admin.id, cookie: await sessionCookieFor(organization.id, admin.id) },
    member: { id: member.id, cookie: await sessionCookieFor(organization.id, member.id) },
  }
}

const brandingFields = (overrides: Record<string, string> = {}) => ({
  intent: 'save',
  companyName: 'Brand Co',
  primaryColor: '#3b82f6',
  secondaryColor: '#10b981',
  customDomain: '',
  whiteLabelActive: 'on',
  ...AGENCY_LINKS,
  ...overrides,
})

function saveBranding(host: string, cookie: string, fields: Record<string, string>) {
  return settle(() =>
    branding.action({
      request: formRequest(host, BRANDING, fields, cookie),
      context: contextFor(host),
      params: {},
    }),
  )
}

async function superAdmin() {
  const platform = await getPlatformOrganization()
  const user = await makeUser(platform.id, { role: 'super_admin' })
  return { platform, cookie: await sessionCookieFor(platform.id, user.id) }
}

function saveGeneral(cookie: string, fields: Record<string, string>) {
  return settle(() =>
    superAdminSettings.action({
      request: formRequest('localhost', SETTINGS, fields, cookie),
      context: contextFor('localhost'),
      params: {},
    }),
  )
}

const generalFields = (overrides: Record<string, string> = {}) => ({
  intent: 'general',
  platformName: 'Brandcard',
  platformUrl: 'http://localhost:3000',
  ...PLATFORM_LINKS,
  ...overrides,
})

async function hostLegal(host: string) {
  const response = toResponse(
    await rootLoader({
      request: requestFor(host),
      context: contextFor(host),
      params: {},
    }),
  )
  return ((await response.json()) as { branding: { legal: LegalLinks } }).branding.legal
}

/** What the footer and the sign-up form render on a host, from the root loader's data. */
async function renderedOn(host: string) {
  const legal = await hostLegal(host)
  return {
    footer: renderToStaticMarkup(createElement(SiteFooter, { name: 'X', year: 2026, legal })),
    signUp: renderToStaticMarkup(createElement(SignUpAgreement, { legal })),
  }
}

async function emailsTo(organizationId: string, address: string) {
  const rows = await getDb()
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.organizationId, organizationId))
  return rows.filter((row) => row.toAddress === address)
}

async function requestReset(host: string, email: string) {
  const response = await settle(() =>
    forgotAction({
      request: formRequest(host, '/auth/forgot-password', { email }),
      context: contextFor(host),
      params: {},
    }),
  )
  expect(response.status).toBe(302)
}

describe('legal and support links', () => {
  test("an agency admin's links save, read back, are audited and show on the agency's host", async () => {
    const { organization, host, admin } = await agency()
    const response = await saveBranding(host, admin.cookie, brandingFields())
    expect(response.status).toBe(302)
    const screen = await settle(() =>
      branding.loader({
        request: requestFor(host, BRANDING, { headers: { Cookie: admin.cookie } }),
        context: contextFor(host),
        params: {},
      }),
    )
    expect((await screen.json()).legal).toEqual(AGENCY_LINKS)
    expect(await hostLegal(host)).toEqual(AGENCY_LINKS)
    const [event] = await getDb()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.organizationId, organization.id))
    expect(event?.action).toBe('branding.updated')
    expect(event?.metadata).toMatchObject({
      from: { privacyPolicyUrl: '', supportEmail: '' },
      to: AGENCY_LINKS,
    })
  })

  test('bad links are refused next to their field and change nothing', async () => {
    const { host, admin } = await agency()
    const cases: [Record<string, string>, string, string][] = [
      [
        { privacyPolicyUrl: 'http://legal.example.test/privacy' },
        'privacyPolicyUrl',
        LEGAL_URL_MESSAGE,
      ],
      [{ termsOfServiceUrl: 'javascript:alert(1)' }, 'termsOfServiceUrl', LEGAL_URL_MESSAGE],
      [{ termsOfServiceUrl: 'legal.example.test/terms' }, 'termsOfServiceUrl', LEGAL_URL_MESSAGE],
      [
        { privacyPolicyUrl: 'https://me:secret@example.test/' },
        'privacyPolicyUrl',
        LEGAL_URL_MESSAGE,
      ],
      [
        { privacyPolicyUrl: 'https://legal.example.test/a\nb' },
        'privacyPolicyUrl',
        LEGAL_URL_MESSAGE,
      ],
      [{ termsOfServiceUrl: 'java\nscript:alert(1)' }, 'termsOfServiceUrl', LEGAL_URL_MESSAGE],
      [{ supportEmail: 'not an email' }, 'supportEmail', 'Please enter a valid email address'],
    ]
    for (const [fields, field, message] of cases) {
      const before = await databaseChecksum()
      const response = await saveBranding(host, admin.cookie, brandingFields(fields))
      expect(response.status, JSON.stringify(fields)).toBe(400)
      expect((await replyErrors(response))[field]).toEqual([message])
      expect(await databaseChecksum()).toEqual(before)
    }
    // A page on a loopback host may be plain http (dev and test servers).
    const local = await saveBranding(
      host,
      admin.cookie,
      brandingFields({ privacyPolicyUrl: 'http://legal.localhost:3000/privacy' }),
    )
    expect(local.status).toBe(302)
  })

  test('an agency member cannot change them', async () => {
    const { host, member } = await agency()
    const before = await databaseChecksum()
    expect((await saveBranding(host, member.cookie, brandingFields())).status).toBe(403)
    expect(await databaseChecksum()).toEqual(before)
    expect(await hostLegal(host)).not.toEqual(AGENCY_LINKS)
  })

  test("the platform's links show on the root domain and fill what an agency left empty", async () => {
    const { cookie } = await superAdmin()
    const saved = await saveGeneral(cookie, generalFields())
    expect(saved.status).toBe(302)
    const screen = await settle(() =>
      superAdminSettings.loader({
        request: requestFor('localhost', SETTINGS, { headers: { Cookie: cookie } }),
        context: contextFor('localhost'),
        params: {},
      }),
    )
    expect(await screen.json()).toMatchObject(PLATFORM_LINKS)
    expect(await hostLegal('localhost')).toEqual(PLATFORM_LINKS)

    const partial = await agency('Partial Co')
    await saveBranding(
      partial.host,
      partial.admin.cookie,
      brandingFields({ companyName: 'Partial Co', privacyPolicyUrl: '', termsOfServiceUrl: '' }),
    )
    expect(await hostLegal(partial.host)).toEqual({
      ...PLATFORM_LINKS,
      supportEmail: AGENCY_LINKS.supportEmail,
      accessibilityEmail: AGENCY_LINKS.accessibilityEmail,
    })

    // White labeling off: the platform's name and colours, and its links too.
    const unlabeled = await agency('Plain Co')
    const { whiteLabelActive: _, ...withoutWhiteLabel } = brandingFields({
      companyName: 'Plain Co',
    })
    await saveBranding(unlabeled.host, unlabeled.admin.cookie, withoutWhiteLabel)
    expect(await hostLegal(unlabeled.host)).toEqual(PLATFORM_LINKS)

    // A later change of the platform's reaches agencies at once (their cached tenants drop).
    await saveGeneral(cookie, generalFields({ supportEmail: 'desk@reseller-legal.test' }))
    expect((await hostLegal(unlabeled.host)).supportEmail).toBe('desk@reseller-legal.test')
  })

  test("the footer and the sign-up form show the host's links: the agency's on its host, the platform's on the root domain", async () => {
    const { cookie } = await superAdmin()
    await saveGeneral(cookie, generalFields())
    const { host, admin } = await agency()
    await saveBranding(host, admin.cookie, brandingFields())

    const onAgency = await renderedOn(host)
    expect(onAgency.footer).toContain(`href="${AGENCY_LINKS.privacyPolicyUrl}"`)
    expect(onAgency.footer).toContain(`href="${AGENCY_LINKS.termsOfServiceUrl}"`)
    expect(onAgency.footer).toContain(`href="mailto:${AGENCY_LINKS.supportEmail}"`)
    expect(onAgency.signUp).toContain('By creating an account you agree to the')
    expect(onAgency.signUp).toContain(`href="${AGENCY_LINKS.termsOfServiceUrl}">Terms</a>`)
    expect(onAgency.signUp).toContain(`href="${AGENCY_LINKS.privacyPolicyUrl}">Privacy Policy</a>`)
    expect(onAgency.signUp).toContain(AGENCY_LINKS.supportEmail)
    for (const html of Object.values(onAgency)) expect(html).not.toContain('reseller-legal')

    const onRoot = await renderedOn('localhost')
    expect(onRoot.footer).toContain(`href="${PLATFORM_LINKS.privacyPolicyUrl}"`)
    expect(onRoot.signUp).toContain(`href="${PLATFORM_LINKS.termsOfServiceUrl}">Terms</a>`)
    for (const html of Object.values(onRoot)) expect(html).not.toContain('brand-co.test')
  })

  test('with no links anywhere, the footer leads to pricing and the built-in privacy notice; no terms are invented and the sign-up form shows no agreement', async () => {
    const { cookie } = await superAdmin()
    await saveGeneral(
      cookie,
      generalFields({ privacyPolicyUrl: '', termsOfServiceUrl: '', supportEmail: '' }),
    )
    const { host } = await agency()
    const rendered = await renderedOn(host)
    expect(rendered.footer).toContain('href="/pricing">Pricing</a>')
    expect(rendered.footer).toContain('href="/privacy">Privacy Policy</a>')
    expect(rendered.footer).not.toContain('Terms of Service')
    expect(rendered.signUp).toBe('')

    // The notice itself: the host's name, the product's real facts, no support line to invent.
    const notice = await privacyLoader({
      request: requestFor(host, '/privacy'),
      context: contextFor(host),
      params: {},
    })
    expect(notice).toEqual({ name: 'Brand Co', supportEmail: '' })
  })

  test("/privacy leads to the host's own policy once one is set", async () => {
    const { cookie } = await superAdmin()
    await saveGeneral(cookie, generalFields())
    const { host, admin } = await agency()
    await saveBranding(host, admin.cookie, brandingFields())
    const answer = await privacyLoader({
      request: requestFor(host, '/privacy'),
      context: contextFor(host),
      params: {},
    }).catch((thrown: unknown) => thrown)
    expect(answer).toBeInstanceOf(Response)
    expect((answer as Response).status).toBe(302)
    expect((answer as Response).headers.get('Location')).toBe(AGENCY_LINKS.privacyPolicyUrl)
  })

  test("a card's page keeps its footer to the privacy notice and its one way in (no pricing)", () => {
    const footer = renderToStaticMarkup(
      createElement(SiteFooter, {
        name: 'X',
        year: 2026,
        legal: {
          privacyPolicyUrl: '',
          termsOfServiceUrl: '',
          supportEmail: '',
          accessibilityEmail: '',
        },
        getYourOwnCardUrl: '/auth/register',
      }),
    )
    expect(footer).toContain('Get your own card')
    expect(footer).toContain('href="/privacy"')
    expect(footer).not.toContain('Pricing')
  })

  test("an email queued for an agency's user carries the agency's support email and links; the platform's carries its own", async () => {
    const { cookie, platform } = await superAdmin()
    await saveGeneral(cookie, generalFields())
    const { organization, host, admin } = await agency()
    await saveBranding(host, admin.cookie, brandingFields())
    await makeUser(organization.id, { email: 'reader@brand-co.test' })
    await requestReset(host, 'reader@brand-co.test')
    const [email] = await emailsTo(organization.id, 'reader@brand-co.test')
    expect(email?.html).toContain(`href="mailto:${AGENCY_LINKS.supportEmail}"`)
    expect(email?.html).toContain(`href="${AGENCY_LINKS.privacyPolicyUrl}"`)
    expect(email?.html).toContain(`href="${AGENCY_LINKS.termsOfServiceUrl}"`)
    expect(email?.text).toContain(`Support: ${AGENCY_LINKS.supportEmail}`)
    expect(email?.text).toContain(`Terms of Service: ${AGENCY_LINKS.termsOfServiceUrl}`)
    expect(email?.html).not.toContain('reseller-legal')

    await makeUser(platform.id, { email: 'someone@root.test' })
    clearTenantCache()
    await requestReset('localhost', 'someone@root.test')
    const [rootEmail] = await emailsTo(platform.id, 'someone@root.test')
    expect(rootEmail?.text).toContain(`Support: ${PLATFORM_LINKS.supportEmail}`)
    expect(rootEmail?.html).toContain(`href="${PLATFORM_LINKS.privacyPolicyUrl}"`)
  })

  test("emails a super admin's actions send on an agency's behalf carry the agency's links", async () => {
    const { cookie } = await superAdmin()
    await saveGeneral(cookie, generalFields())
    const onPlatform = (
      action: (args: ActionFunctionArgs) => Promise<unknown>,
      path: string,
      fields: Record<string, string>,
    ) =>
      settle(() =>
        action({
          request: formRequest('localhost', path, fields, cookie),
          context: contextFor('localhost'),
          params: {},
        }),
      )

    // An account added in an agency that set its own support email: its links, the platform's
    // policies where it left them empty.
    const { organization, host, admin } = await agency()
    await saveBranding(host, admin.cookie, brandingFields({ termsOfServiceUrl: '' }))
    const added = `added-${uniqueSuffix()}@example.test`
    const response = await onPlatform(usersAction, '/dashboard/super-admin/users', {
      intent: 'add-user',
      name: 'Nia New',
      email: added,
      organizationId: organization.id,
      active: 'on',
    })
    expect(response.status).toBe(302)
    await settleBackgroundWork()
    const [setPassword] = await emailsTo(organization.id, added)
    expect(setPassword?.text).toContain(`Support: ${AGENCY_LINKS.supportEmail}`)
    expect(setPassword?.text).toContain(`Privacy Policy: ${AGENCY_LINKS.privacyPolicyUrl}`)
    expect(setPassword?.text).toContain(`Terms of Service: ${PLATFORM_LINKS.termsOfServiceUrl}`)

    // A new agency's owner: it has set nothing yet, so the platform's defaults.
    const ownerEmail = `owner-${uniqueSuffix()}@example.test`
    const created = await onPlatform(agenciesAction, '/dashboard/super-admin/agencies', {
      intent: 'create',
      name: `Fresh ${uniqueSuffix()}`,
      ownerName: 'Olive Owner',
      email: ownerEmail,
      subscription: 'starter',
      active: 'on',
    })
    expect(created.status).toBe(302)
    const [fresh] = await getDb()
      .select()
      .from(organizations)
      .where(eq(organizations.contactEmail, ownerEmail))
    const [welcome] = await emailsTo(fresh?.id ?? '', ownerEmail)
    expect(welcome?.text).toContain(`Support: ${PLATFORM_LINKS.supportEmail}`)
    expect(welcome?.html).toContain(`href="${PLATFORM_LINKS.termsOfServiceUrl}"`)
  })

  test("the super admin's links are validated like the agency's; nobody else may set them", async () => {
    const { cookie } = await superAdmin()
    const { organization, admin } = await agency()
    const agencyHost = `${organization.slug}.localhost`
    const before = await databaseChecksum()
    const refused = await saveGeneral(
      cookie,
      generalFields({ termsOfServiceUrl: 'ftp://x.test/terms' }),
    )
    expect(refused.status).toBe(400)
    expect((await refused.json()).result.error.termsOfServiceUrl).toEqual([LEGAL_URL_MESSAGE])
    const onAgency = await settle(() =>
      superAdminSettings.action({
        request: formRequest(agencyHost, SETTINGS, generalFields(), admin.cookie),
        context: contextFor(agencyHost),
        params: {},
      }),
    )
    expect(onAgency.status).toBe(403)
    expect(await databaseChecksum()).toEqual(before)
  })
})

// Issue 41 point 6 (ADR 083): the card page footer's "Get your own card" leads where the agency
// chose, or to the sign-up page on the card's host.
describe('the "Get your own card" link', () => {
  async function footerLink(host: string) {
    const response = toResponse(
      await rootLoader({ request: requestFor(host), context: contextFor(host), params: {} }),
    )
    return ((await response.json()) as { branding: { getYourOwnCardUrl: string } }).branding
      .getYourOwnCardUrl
  }

  test('an agency admin sets it on Branding; the footer of a card page uses it; empty is sign-up', async () => {
    const { organization, host, admin } = await agency()
    expect(await footerLink(host)).toBe('/auth/register')
    const url = 'https://brand-co.test/get-a-card'
    expect(
      (await saveBranding(host, admin.cookie, brandingFields({ getYourOwnCardUrl: url }))).status,
    ).toBe(302)
    const screen = await settle(() =>
      branding.loader({
        request: requestFor(host, BRANDING, { headers: { Cookie: admin.cookie } }),
        context: contextFor(host),
        params: {},
      }),
    )
    expect((await screen.json()).getYourOwnCardUrl).toBe(url)
    expect(await footerLink(host)).toBe(url)
    const footer = renderToStaticMarkup(
      createElement(SiteFooter, {
        name: 'X',
        year: 2026,
        legal: AGENCY_LINKS,
        getYourOwnCardUrl: await footerLink(host),
      }),
    )
    expect(footer).toContain(`href="${url}"`)
    expect(footer).toContain('Get your own card')
    const events = await getDb()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.organizationId, organization.id))
    expect(events.at(-1)?.metadata).toMatchObject({ to: { getYourOwnCardUrl: url } })
    // Emptied: the sign-up page again. The legal links are untouched by it.
    expect(
      (await saveBranding(host, admin.cookie, brandingFields({ getYourOwnCardUrl: '' }))).status,
    ).toBe(302)
    expect(await footerLink(host)).toBe('/auth/register')
    expect(await hostLegal(host)).toEqual(AGENCY_LINKS)
    // Off a card page the footer offers no such link.
    expect(
      renderToStaticMarkup(
        createElement(SiteFooter, { name: 'X', year: 2026, legal: AGENCY_LINKS }),
      ),
    ).not.toContain('Get your own card')
  })

  test('anything but an https page is refused next to the field and changes nothing', async () => {
    const { host, admin } = await agency()
    for (const getYourOwnCardUrl of [
      'javascript:alert(1)',
      'http://brand-co.test/get',
      'brand-co.test/get',
      'https://me:secret@brand-co.test/',
      'https://brand-co.test/a\nb',
      `https://brand-co.test/${'a'.repeat(600)}`,
    ]) {
      const before = await databaseChecksum()
      const response = await saveBranding(host, admin.cookie, brandingFields({ getYourOwnCardUrl }))
      expect(response.status, getYourOwnCardUrl).toBe(400)
      expect((await replyErrors(response)).getYourOwnCardUrl).toEqual([LEGAL_URL_MESSAGE])
      expect(await databaseChecksum()).toEqual(before)
    }
    expect(await footerLink(host)).toBe('/auth/register')
  })
})
