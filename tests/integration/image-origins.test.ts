// Issue 41 point 2: the origin a tenant's pages may also show images from (server.ts adds it to
// the Content-Security-Policy's img-src). On the agency's subdomain: its verified custom domain,
// where the signature's photo and QR are built; on the custom domain itself, or without a
// verified one, nothing; a host of no tenant, nothing; never another tenant's domain.
import { beforeEach, expect, test } from 'vitest'
import { tenantImageOrigins } from '#app/tenancy/image-origins.server'
import { clearTenantCache } from '#app/tenancy/tenant.server'
import { makeOrganization, uniqueSuffix } from '#tests/factories'

beforeEach(() => clearTenantCache())

test("an agency's subdomain may show images from its verified custom domain, and only from it", async () => {
  const suffix = uniqueSuffix()
  const verified = await makeOrganization({
    slug: `verified-${suffix}`,
    customDomain: `cards-${suffix}.example.com`,
    customDomainVerifiedAt: new Date(),
  })
  await makeOrganization({
    slug: `other-${suffix}`,
    customDomain: `other-${suffix}.example.com`,
    customDomainVerifiedAt: new Date(),
  })
  const origins = await tenantImageOrigins(`${verified.slug}.localhost`, null)
  // tests run with ROOT_DOMAIN=localhost: plain http, on the app's port.
  expect(origins).toHaveLength(1)
  expect(new URL(origins[0] ?? '').hostname).toBe(`cards-${suffix}.example.com`)
  expect(origins.join()).not.toContain('other-')
  // Behind a proxy that reports https on 443, the origin is the one links are built with.
  expect(
    await tenantImageOrigins(`${verified.slug}.localhost`, { scheme: 'https', port: null }),
  ).toEqual([`https://cards-${suffix}.example.com`])
  // On the custom domain itself, its images are its own ('self').
  expect(await tenantImageOrigins(`cards-${suffix}.example.com`, null)).toEqual([])
})

test('an unverified custom domain, a tenant without one and an unknown host add nothing', async () => {
  const suffix = uniqueSuffix()
  const claimed = await makeOrganization({
    slug: `claimed-${suffix}`,
    customDomain: `claimed-${suffix}.example.com`,
  })
  const plain = await makeOrganization({ slug: `plain-${suffix}` })
  expect(await tenantImageOrigins(`${claimed.slug}.localhost`, null)).toEqual([])
  expect(await tenantImageOrigins(`${plain.slug}.localhost`, null)).toEqual([])
  expect(await tenantImageOrigins(`nobody-${suffix}.localhost`, null)).toEqual([])
  expect(await tenantImageOrigins(null, null)).toEqual([])
})
