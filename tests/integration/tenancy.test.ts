import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { invalidateTenant, resolveTenant } from '#app/tenancy/tenant.server'
import { getDb } from '#drizzle/db.server'
import { organizations } from '#drizzle/schema'
import {
  contextFor,
  getPlatformOrganization,
  makeBrandedOrganization,
  makeOrganization,
  uniqueSuffix,
} from '#tests/factories'

describe('resolveTenant', () => {
  test('root and www resolve to the platform organization', async () => {
    const platform = await getPlatformOrganization()
    for (const host of ['localhost', 'www.localhost']) {
      const resolution = await resolveTenant(host)
      expect(resolution.status).toBe('found')
      if (resolution.status === 'found') expect(resolution.tenant.id).toBe(platform.id)
    }
  })

  test('a subdomain resolves to its agency, with branding', async () => {
    const { organization, logo, favicon } = await makeBrandedOrganization({
      primaryColor: '#112233',
    })
    const resolution = await resolveTenant(`${organization.slug}.localhost`)
    expect(resolution).toMatchObject({
      status: 'found',
      tenant: {
        id: organization.id,
        name: organization.name,
        primaryColor: '#112233',
        logoUrl: `/media/${logo.hash}.png`,
        faviconUrl: `/media/${favicon.hash}.png`,
      },
    })
  })

  test('a custom domain resolves only once verified', async () => {
    const domain = `cards-${uniqueSuffix()}.example.test`
    const organization = await makeOrganization({ customDomain: domain })
    expect((await resolveTenant(domain)).status).toBe('not-found')

    await getDb()
      .update(organizations)
      .set({ customDomainVerifiedAt: new Date() })
      .where(eq(organizations.id, organization.id))
    invalidateTenant(organization.id)
    const resolution = await resolveTenant(domain)
    expect(resolution.status).toBe('found')
    if (resolution.status === 'found') expect(resolution.tenant.id).toBe(organization.id)
  })

  test('the platform organization is not reachable as a subdomain', async () => {
    const platform = await getPlatformOrganization()
    expect((await resolveTenant(`${platform.slug}.localhost`)).status).toBe('not-found')
  })

  test('inactive or unapproved agencies are unavailable', async () => {
    const inactive = await makeOrganization({ status: 'inactive' })
    const pending = await makeOrganization({ approvalStatus: 'pending' })
    const rejected = await makeOrganization({ approvalStatus: 'rejected' })
    for (const org of [inactive, pending, rejected]) {
      expect((await resolveTenant(`${org.slug}.localhost`)).status).toBe('unavailable')
    }
  })

  test('unknown hosts, IPs and empty hosts are not found', async () => {
    for (const host of ['nobody.localhost', '127.0.0.1', 'unknown.example.test', null]) {
      expect((await resolveTenant(host)).status).toBe('not-found')
    }
  })

  test('results are cached until the organization is invalidated', async () => {
    const organization = await makeOrganization({ name: 'Before' })
    const host = `${organization.slug}.localhost`
    await resolveTenant(host)
    await getDb()
      .update(organizations)
      .set({ name: 'After' })
      .where(eq(organizations.id, organization.id))
    const cached = await resolveTenant(host)
    expect(cached.status === 'found' && cached.tenant.name).toBe('Before')
    invalidateTenant(organization.id)
    const fresh = await resolveTenant(host)
    expect(fresh.status === 'found' && fresh.tenant.name).toBe('After')
  })
})

describe('requireTenant', () => {
  test('throws a plain 404 naming no tenant for an unknown host', async () => {
    const error = await requireTenant(contextFor('ghost.localhost')).catch((e) => e)
    expect(error).toBeInstanceOf(Response)
    expect(error.status).toBe(404)
    expect(await error.json()).toEqual({ tenantError: 'no-such-site' })
  })

  test('throws 403 site-unavailable for an inactive agency', async () => {
    const organization = await makeOrganization({ status: 'inactive' })
    const error = await requireTenant(contextFor(`${organization.slug}.localhost`)).catch((e) => e)
    expect(error.status).toBe(403)
    expect(await error.json()).toEqual({ tenantError: 'site-unavailable' })
  })

  test('resolves once per request however many loaders ask', async () => {
    const organization = await makeOrganization()
    const context = contextFor(`${organization.slug}.localhost`)
    const [a, b] = await Promise.all([requireTenant(context), requireTenant(context)])
    expect(a).toBe(b)
  })
})
