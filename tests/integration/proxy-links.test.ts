// Behind a TLS-terminating proxy (TRUST_PROXY=1, X-Forwarded-Proto: https), every link the app
// builds starts with https:// and the agency's host and port as the visitor used them: card page
// (canonical, Open Graph), QR code, vCard, QR screen, and an email written later by a job.
import { eq } from 'drizzle-orm'
import jsQR from 'jsqr'
import sharp from 'sharp'
import { beforeAll, describe, expect, test } from 'vitest'
import { qrTextOf } from '#app/cards/short-link'
import { action as forgotAction } from '#app/routes/auth.forgot-password'
import { loader as cardLoader } from '#app/routes/card.$ref'
import { loader as qrPngLoader } from '#app/routes/card_.$ref.qr[.]png'
import { loader as vcardLoader } from '#app/routes/card_.$ref.vcard'
import { action as agenciesAction } from '#app/routes/dashboard.super-admin.agencies'
import { loader as qrScreenLoader } from '#app/routes/qrcode.$cardId'
import type { PublicAddress } from '#app/tenancy/host'
import { invalidateTenant } from '#app/tenancy/tenant.server'
import { getDb } from '#drizzle/db.server'
import { emailOutbox, organizations, users } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  getPlatformOrganization,
  makeBrandedOrganization,
  makeCard,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'

let domain: string
let organizationId: string
let cardId: string
let email: string

beforeAll(async () => {
  const { organization } = await makeBrandedOrganization({ name: 'Proxy Co' })
  organizationId = organization.id
  domain = `cards-${uniqueSuffix()}.example.com`
  // A verified custom domain (ADR 016; tests/integration/custom-domains.test.ts verifies one).
  await getDb()
    .update(organizations)
    .set({ customDomain: domain, customDomainVerifiedAt: new Date() })
    .where(eq(organizations.id, organization.id))
  invalidateTenant(organization.id)
  const owner = await makeUser(organization.id, { firstName: 'Pia', lastName: 'Proxy' })
  email = owner.email
  cardId = (await makeCard(organization.id, owner.id, { firstName: 'Pia', lastName: 'Proxy' })).id
})

const HTTPS_8443: PublicAddress = { scheme: 'https', port: '8443' }
const context = (via: PublicAddress | null) => ({ ...contextFor(domain), via })

async function cardUrlOf(via: PublicAddress | null) {
  const response = await settle(() =>
    cardLoader({
      request: requestFor(domain, `/card/${cardId}`),
      context: context(via),
      params: { ref: cardId },
    }),
  )
  return ((await response.json()) as { cardUrl: string }).cardUrl
}

async function qrOf(via: PublicAddress | null) {
  const response = await settle(() =>
    qrPngLoader({
      request: requestFor(domain, `/card/${cardId}/qr.png`),
      context: context(via),
      params: { ref: cardId },
    }),
  )
  const { data, info } = await sharp(Buffer.from(await response.arrayBuffer()))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data
}

describe('links behind a TLS proxy', () => {
  test('card page canonical and Open Graph URL, QR code, vCard and QR screen use https and the host', async () => {
    // The card's short link (ADR 041); the QR code carries it in capitals.
    const expected = `https://${domain}:8443/c/pia-proxy`
    expect(await cardUrlOf(HTTPS_8443)).toBe(expected)
    expect(await qrOf(HTTPS_8443)).toBe(qrTextOf(expected))
    const vcard = await settle(() =>
      vcardLoader({
        request: requestFor(domain, `/card/${cardId}/vcard`),
        context: context(HTTPS_8443),
        params: { ref: cardId },
      }),
    )
    // vCard lines fold at 75 octets (RFC 6350 §3.2): unfolded before reading.
    expect((await vcard.text()).replace(/\r?\n[ \t]/g, '')).toContain(
      `URL;TYPE=CARD:${expected}?s=v`,
    )
    const screen = await settle(() =>
      qrScreenLoader({
        request: requestFor(domain, `/qrcode/${cardId}`),
        context: context(HTTPS_8443),
        params: { cardId },
      }),
    )
    expect(((await screen.json()) as { shareUrl: string }).shareUrl).toBe(expected)
    // On the standard port, no port at all.
    expect(await cardUrlOf({ scheme: 'https', port: null })).toBe(`https://${domain}/c/pia-proxy`)
  })

  test('without a proxy saying so, links keep the configured scheme and port', async () => {
    expect(await cardUrlOf(null)).toMatch(new RegExp(`^http://${domain}:\\d+/c/pia-proxy$`))
  })

  test('a reset email, written later by the job queue, links over https on the host', async () => {
    const response = await settle(() =>
      forgotAction({
        request: formRequest(domain, '/auth/forgot-password', { email }),
        context: context(HTTPS_8443),
        params: {},
      }),
    )
    // Redirects are relative: the browser stays on the scheme and host it used.
    expect(response).toHaveRedirect('/auth/login')
    const [sent] = await getDb()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.organizationId, organizationId))
    expect(sent?.text).toMatch(
      new RegExp(`https://${domain.replaceAll('.', '\\.')}:8443/auth/reset-password\\?token=`),
    )
    // The logo too: every absolute URL in the email is on the host over https.
    const urls = (sent?.html ?? '').match(/https?:\/\/[^"'\s<]+/g) ?? []
    expect(urls.length).toBeGreaterThan(1)
    for (const url of urls) expect(url).toMatch(new RegExp(`^https://${domain}:8443/`))
  })

  test("a new agency's welcome email, sent from the platform host, links to its subdomain over https", async () => {
    const platform = await getPlatformOrganization()
    const admin = await makeUser(platform.id, { role: 'super_admin' })
    const cookie = await sessionCookieFor(platform.id, admin.id)
    const suffix = uniqueSuffix()
    const ownerEmail = `owner-${suffix}@example.test`
    const response = await settle(() =>
      agenciesAction({
        request: formRequest(
          'localhost',
          '/dashboard/super-admin/agencies',
          {
            intent: 'create',
            name: `Tls ${suffix}`,
            ownerName: 'Olive Owner',
            email: ownerEmail,
            subscription: 'starter',
            active: 'on',
          },
          cookie,
        ),
        context: { ...contextFor('localhost'), via: HTTPS_8443 },
        params: {},
      }),
    )
    expect(response.status).toBe(302)
    const [owner] = await getDb().select().from(users).where(eq(users.email, ownerEmail))
    const [sent] = await getDb()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, ownerEmail))
    expect(owner).toBeDefined()
    const [agency] = await getDb()
      .select()
      .from(organizations)
      .where(eq(organizations.id, owner?.organizationId ?? ''))
    expect(sent?.text).toContain(
      `https://${agency?.slug}.localhost:8443/auth/reset-password?token=`,
    )
  })
})
