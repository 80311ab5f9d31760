// The agency's Branding screen (issue 14 point 2) through its loader and action: the admin's save
// applies to the host at once and is audited; members read but cannot change it; bad input
// changes nothing; images go through the pipeline (favicon 32x32 PNG and ICO); white labeling
// off shows the platform's branding; 'Verify domain' asks a local DNS server.
import { eq } from 'drizzle-orm'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ImageField } from '#app/components/image-field'
import { resetEnvForTests } from '#app/env.server'
import { loader as rootLoader } from '#app/root'
import * as branding from '#app/routes/dashboard.agency.branding'
import { loader as faviconLoader } from '#app/routes/favicon[.]ico'
import { getDb } from '#drizzle/db.server'
import { auditEvents, organizations } from '#drizzle/schema'
import { databaseChecksum } from '#tests/checksum'
import {
  contextFor,
  formRequest,
  getPlatformOrganization,
  makeBrandedOrganization,
  makePng,
  makeUser,
  replyErrors,
  requestFor,
  sessionCookieFor,
  settle,
  toResponse,
  uniqueSuffix,
} from '#tests/factories'
import { type FakeDns, startFakeDns } from '#tests/fake-dns'

const PATH = '/dashboard/agency/branding'
let dns: FakeDns

beforeAll(async () => {
  dns = await startFakeDns()
  process.env.DNS_RESOLVER = `127.0.0.1:${dns.port}`
  resetEnvForTests()
})

afterAll(async () => {
  process.env.DNS_RESOLVER = '127.0.0.1:9'
  resetEnvForTests()
  await dns.close()
})

async function agency() {
  const { organization } = await makeBrandedOrganization({ name: 'Brand Co' })
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

const saveFields = (overrides: Record<string, string> = {}) => ({
  intent: 'save',
  companyName: 'Brand Co Renamed',
  primaryColor: '#E11D48',
  secondaryColor: '#22c55e',
  customDomain: '',
  whiteLabelActive: 'on',
  ...overrides,
})

function post(host: string, cookie: string, fields: Record<string, string>) {
  return settle(() =>
    branding.action({
      request: formRequest(host, PATH, fields, cookie),
      context: contextFor(host),
      params: {},
    }),
  )
}

async function rootBranding(host: string) {
  const response = toResponse(
    await rootLoader({
      request: requestFor(host),
      context: contextFor(host),
      params: {},
    }),
  )
  return ((await response.json()) as { branding: Record<string, unknown> }).branding
}

async function actions(organizationId: string) {
  const rows = await getDb()
    .select({ action: auditEvents.action, actor: auditEvents.actorUserId })
    .from(auditEvents)
    .where(eq(auditEvents.organizationId, organizationId))
  return rows
}

describe('agency branding', () => {
  test('the screen shows the saved branding and the domain state; members read it too', async () => {
    const { host, admin, member } = await agency()
    for (const who of [admin, member]) {
      const response = await settle(() =>
        branding.loader({
          request: requestFor(host, PATH, { headers: { Cookie: who.cookie } }),
          context: contextFor(host),
          params: {},
        }),
      )
      expect(response.status).toBe(200)
      const data = await response.json()
      expect(data).toMatchObject({
        canManage: who === admin,
        branding: { companyName: 'Brand Co', primaryColor: '#3b82f6', whiteLabelActive: true },
        domain: { domain: null, status: null, cnameTarget: 'cname.localhost' },
        subdomainHost: expect.stringMatching(new RegExp(`^${host}(:\\d+)?$`)),
      })
      expect(data.branding.logoUrl).toMatch(/^\/media\//)
      // The logo as each sees it: a member may look, not upload or remove.
      const logo = renderToStaticMarkup(
        createElement(ImageField, {
          name: 'logo',
          label: 'Logo',
          purpose: 'brandLogo',
          currentUrl: data.branding.logoUrl,
          readOnly: !data.canManage,
        }),
      )
      expect(logo).toContain('alt="Logo preview"')
      expect(logo.includes('Remove')).toBe(who === admin)
      expect(logo.includes('type="file"')).toBe(who === admin)
    }
  })

  test("an admin's save applies to the host at once, with its toast and audit event", async () => {
    const { organization, host, admin } = await agency()
    expect(await rootBranding(host)).toMatchObject({ name: 'Brand Co', primaryColor: '#3b82f6' })
    const response = await post(
      host,
      admin.cookie,
      saveFields({ customDomain: `cards-${uniqueSuffix()}.example.com` }),
    )
    expect(response.status).toBe(302)
    await expect(response).toSendToast({ title: 'Branding Updated' })
    expect(await rootBranding(host)).toMatchObject({
      name: 'Brand Co Renamed',
      primaryColor: '#e11d48',
      secondaryColor: '#22c55e',
    })
    const events = await actions(organization.id)
    expect(events).toContainEqual({ action: 'branding.updated', actor: admin.id })
    expect(events).toContainEqual({ action: 'domain.changed', actor: admin.id })
  })

  test('bad input is refused next to its field and changes nothing', async () => {
    const { organization, host, admin } = await agency()
    const other = await agency()
    await post(other.host, other.admin.cookie, saveFields({ customDomain: 'taken.example.com' }))
    // Only a verified claim holds a name (a pending one coexists with others', ADR 031).
    await getDb()
      .update(organizations)
      .set({ customDomainVerifiedAt: new Date() })
      .where(eq(organizations.id, other.organization.id))
    const cases: [Record<string, string>, string, string, number?][] = [
      [{ primaryColor: 'red' }, 'primaryColor', 'Please enter a colour such as #3b82f6'],
      [{ secondaryColor: '#12345' }, 'secondaryColor', 'Please enter a colour such as #3b82f6'],
      [{ companyName: '' }, 'companyName', 'Company name is required'],
      [
        { customDomain: 'not a domain' },
        'customDomain',
        'Enter a domain such as cards.example.com',
      ],
      [
        { customDomain: 'taken.example.com' },
        'customDomain',
        'This domain is not available. If it is yours, contact support.',
        409,
      ],
      [
        { customDomain: 'x.localhost' },
        'customDomain',
        'Choose a domain of your own, not one of the platform',
      ],
      [
        { logoMediaId: other.organization.id },
        'logo',
        'Invalid file. Please upload a JPG, PNG, or WebP image under 5MB.',
      ],
    ]
    for (const [fields, field, message, status = 400] of cases) {
      const before = await databaseChecksum()
      const response = await post(host, admin.cookie, saveFields(fields))
      expect(response.status, JSON.stringify(fields)).toBe(status)
      expect((await replyErrors(response))[field]).toEqual([message])
      expect(await databaseChecksum()).toEqual(before)
    }
    const [row] = await getDb()
      .select()
      .from(organizations)
      .where(eq(organizations.id, organization.id))
    expect(row?.name).toBe('Brand Co')
  })

  test('an agency member cannot change branding; the platform and other agencies cannot either', async () => {
    const { host, member } = await agency()
    const other = await agency()
    const platform = await getPlatformOrganization()
    const superAdmin = await makeUser(platform.id, { role: 'super_admin' })
    const superCookie = await sessionCookieFor(platform.id, superAdmin.id)
    const before = await databaseChecksum()
    expect((await post(host, member.cookie, saveFields())).status).toBe(403)
    expect((await post(host, member.cookie, { intent: 'verify-domain' })).status).toBe(403)
    // Another agency's admin has no session on this host: sent to sign in.
    expect((await post(host, other.admin.cookie, saveFields())).status).toBe(302)
    // A super admin on the platform host: no agency branding there.
    expect((await post('localhost', superCookie, saveFields())).status).toBe(403)
    expect(await databaseChecksum()).toEqual(before)
  })

  test('logo and favicon uploads: PNG through the pipeline, the favicon 32x32 and as ICO', async () => {
    const { host, admin } = await agency()
    const body = new FormData()
    for (const [key, value] of Object.entries(saveFields())) body.set(key, value)
    body.set(
      'logoFile',
      new Blob([await makePng('#ff0000', 800, 320)], { type: 'image/png' }),
      'logo.png',
    )
    body.set(
      'faviconFile',
      new Blob([await makePng('#00ff00', 100, 60)], { type: 'image/png' }),
      'icon.png',
    )
    const response = await settle(() =>
      branding.action({
        request: new Request(`http://${host}${PATH}`, {
          method: 'POST',
          body,
          headers: { Cookie: admin.cookie },
        }),
        context: contextFor(host),
        params: {},
      }),
    )
    expect(response.status).toBe(302)
    const applied = await rootBranding(host)
    expect(applied.logoUrl).toMatch(/^\/media\/[0-9a-f]{64}\.png$/)
    expect(applied.faviconUrl).toMatch(/^\/media\/[0-9a-f]{64}\.png$/)
    const ico = await settle(() =>
      faviconLoader({
        request: requestFor(host, '/favicon.ico'),
        context: contextFor(host),
        params: {},
      }),
    )
    expect(ico.headers.get('Content-Type')).toBe('image/x-icon')
    const bytes = Buffer.from(await ico.arrayBuffer())
    expect(bytes.readUInt16LE(2)).toBe(1)
    expect([bytes[6], bytes[7]]).toEqual([32, 32])
    const png = await sharp(bytes.subarray(22)).metadata()
    expect([png.format, png.width, png.height]).toEqual(['png', 32, 32])
    const logo = await sharp(
      await (await fetchMedia(host, applied.logoUrl as string)).arrayBuffer(),
    ).metadata()
    expect([logo.format, logo.width, logo.height]).toEqual(['png', 400, 160])
  })

  test("white labeling off shows the platform's name and colours on the agency's host", async () => {
    const { host, admin } = await agency()
    const platform = await getPlatformOrganization()
    await post(host, admin.cookie, saveFields({ whiteLabelActive: '' }))
    expect(await rootBranding(host)).toMatchObject({
      name: platform.name,
      primaryColor: platform.primaryColor,
    })
    await post(host, admin.cookie, saveFields())
    expect(await rootBranding(host)).toMatchObject({ name: 'Brand Co Renamed' })
  })

  test("'Verify domain' looks the TXT record up and says what it found", async () => {
    const { organization, host, admin } = await agency()
    const domain = `cards-${uniqueSuffix()}.example.com`
    await post(host, admin.cookie, saveFields({ customDomain: domain }))
    const notYet = await post(host, admin.cookie, { intent: 'verify-domain' })
    expect(notYet).toHaveRedirect(`${PATH}?tab=domain`)
    await expect(notYet).toSendToast({ type: 'error' })
    const [row] = await getDb()
      .select()
      .from(organizations)
      .where(eq(organizations.id, organization.id))
    dns.setTxt(`_domain-verification.${domain}`, [
      `domain-verification=${row?.customDomainVerificationToken}`,
    ])
    const verified = await post(host, admin.cookie, { intent: 'verify-domain' })
    await expect(verified).toSendToast({ type: 'success', title: 'Domain verified' })
    expect(await rootBranding(domain)).toMatchObject({ name: 'Brand Co Renamed' })
    expect(await actions(organization.id)).toContainEqual({
      action: 'domain.verified',
      actor: admin.id,
    })
  })
})

async function fetchMedia(host: string, path: string) {
  const { loader } = await import('#app/routes/media.$file')
  return settle(() =>
    loader({
      request: requestFor(host, path),
      context: contextFor(host),
      params: { file: path.slice('/media/'.length) },
    }),
  )
}
