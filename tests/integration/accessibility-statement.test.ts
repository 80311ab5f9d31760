// The accessibility statement (issue 45 point 6, ADR 100): /accessibility on every host, under
// the host's name, with its own address for accessibility requests (the organization's
// accessibility email, else its support email, else the platform's), the facts the suite proves
// and the build's date; linked from every footer, the card page's included.
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { ACCESSIBILITY_CHECKED_ON } from '#app/accessibility/checked-on'
import { SiteFooter } from '#app/components/layout/site-footer'
import { loader as statementLoader } from '#app/routes/accessibility'
import * as branding from '#app/routes/dashboard.agency.branding'
import * as superAdminSettings from '#app/routes/settings.super-admin'
import { NO_LEGAL_LINKS } from '#app/validation/legal'
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
} from '#tests/factories'

const PLATFORM = {
  platformName: 'Brandcard',
  platformUrl: 'http://localhost:3000',
  privacyPolicyUrl: '',
  termsOfServiceUrl: '',
  supportEmail: 'care@platform-help.test',
  accessibilityEmail: '',
}

async function saveGeneral(fields: Partial<typeof PLATFORM>) {
  const platform = await getPlatformOrganization()
  const user = await makeUser(platform.id, { role: 'super_admin' })
  const cookie = await sessionCookieFor(platform.id, user.id)
  return settle(() =>
    superAdminSettings.action({
      request: formRequest(
        'localhost',
        '/settings/super-admin',
        { intent: 'general', ...PLATFORM, ...fields },
        cookie,
      ),
      context: contextFor('localhost'),
      params: {},
    }),
  )
}

async function agency(name: string, whiteLabelActive = true) {
  const { organization } = await makeBrandedOrganization({ name })
  const host = `${organization.slug}.localhost`
  const admin = await makeUser(organization.id, { role: 'agency_admin' })
  const cookie = await sessionCookieFor(organization.id, admin.id)
  const save = (fields: Record<string, string>) =>
    settle(() =>
      branding.action({
        request: formRequest(
          host,
          '/dashboard/agency/branding',
          {
            intent: 'save',
            companyName: name,
            primaryColor: '#3b82f6',
            secondaryColor: '#10b981',
            customDomain: '',
            ...(whiteLabelActive ? { whiteLabelActive: 'on' } : {}),
            ...fields,
          },
          cookie,
        ),
        context: contextFor(host),
        params: {},
      }),
    )
  return { host, save }
}

async function statementOn(host: string) {
  return statementLoader({
    request: requestFor(host, '/accessibility'),
    context: contextFor(host),
    params: {},
  })
}

describe('the accessibility statement', () => {
  test("each host names its own contact: its accessibility email, else its support email, else the platform's", async () => {
    expect((await saveGeneral({ accessibilityEmail: 'access@platform-help.test' })).status).toBe(
      302,
    )
    const onRoot = await statementOn('localhost')
    expect(onRoot).toEqual({
      name: 'Brandcard',
      contact: 'access@platform-help.test',
      checkedOn: ACCESSIBILITY_CHECKED_ON,
    })

    const own = await agency('Access Co')
    expect(
      (
        await own.save({
          supportEmail: 'help@access-co.test',
          accessibilityEmail: 'a11y@access-co.test',
        })
      ).status,
    ).toBe(302)
    expect(await statementOn(own.host)).toMatchObject({
      name: 'Access Co',
      contact: 'a11y@access-co.test',
    })

    // Its accessibility email left empty: its support desk.
    await own.save({ supportEmail: 'help@access-co.test', accessibilityEmail: '' })
    expect((await statementOn(own.host)).contact).toBe('help@access-co.test')

    // Neither: the platform's.
    await own.save({ supportEmail: '', accessibilityEmail: '' })
    expect((await statementOn(own.host)).contact).toBe('access@platform-help.test')

    // The platform without an accessibility email: its support email, here and there.
    await saveGeneral({ accessibilityEmail: '' })
    expect((await statementOn('localhost')).contact).toBe(PLATFORM.supportEmail)
    expect((await statementOn(own.host)).contact).toBe(PLATFORM.supportEmail)

    // White labeling off: the platform's name, and its contact, as with its other links.
    const plain = await agency('Plain Access Co', false)
    await plain.save({ accessibilityEmail: 'a11y@plain-access.test' })
    expect(await statementOn(plain.host)).toMatchObject({
      name: 'Brandcard',
      contact: PLATFORM.supportEmail,
    })
  })

  test('an address that is no email is refused next to its field, and nothing changes', async () => {
    const { host, save } = await agency('Typo Co')
    const before = await databaseChecksum()
    const response = await save({ accessibilityEmail: 'not an email' })
    expect(response.status).toBe(400)
    expect((await replyErrors(response)).accessibilityEmail).toEqual([
      'Please enter a valid email address',
    ])
    expect(await databaseChecksum()).toEqual(before)
    const refused = await saveGeneral({ accessibilityEmail: 'nobody@' })
    expect(refused.status).toBe(400)
    expect((await replyErrors(refused)).accessibilityEmail).toEqual([
      'Please enter a valid email address',
    ])
    expect((await statementOn(host)).name).toBe('Typo Co')
  })

  test('every footer links it, a recipient’s card page included', () => {
    for (const getYourOwnCardUrl of [null, '/auth/register']) {
      const footer = renderToStaticMarkup(
        createElement(SiteFooter, {
          name: 'X',
          year: 2026,
          legal: NO_LEGAL_LINKS,
          getYourOwnCardUrl,
        }),
      )
      expect(footer).toContain('href="/accessibility">Accessibility</a>')
    }
  })
})
