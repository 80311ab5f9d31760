import { and, eq, inArray, isNotNull, type SQL } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { media, organizations } from '#drizzle/schema'

export type Organization = typeof organizations.$inferSelect

/**
 * Tenant lookup for a host: the organizations table is the tenant registry itself (not a
 * tenant table), so this is the one read made before a tenant is known.
 */
export async function findOrganizationForHost(
  db: Queryable,
  match:
    | { kind: 'platform' }
    | { kind: 'subdomain'; slug: string }
    | { kind: 'custom-domain'; domain: string },
): Promise<Organization | undefined> {
  let where: SQL | undefined
  if (match.kind === 'platform') where = eq(organizations.kind, 'platform')
  else if (match.kind === 'subdomain')
    where = and(eq(organizations.slug, match.slug), eq(organizations.kind, 'agency'))
  else
    where = and(
      eq(organizations.customDomain, match.domain),
      isNotNull(organizations.customDomainVerifiedAt),
    )
  const [row] = await db.select().from(organizations).where(where).limit(1)
  return row
}

export type BrandingImagePaths = { logoPath: string | null; faviconPath: string | null }

/**
 * The public paths of an organization's logo and favicon. Media rows are tenant rows: this runs
 * inside withTenant for that organization, where row-level security lets them through.
 */
export async function findBrandingImagePaths(
  db: Queryable,
  organizationId: string,
  organization: Pick<Organization, 'logoMediaId' | 'faviconMediaId'>,
): Promise<BrandingImagePaths> {
  const ids = [organization.logoMediaId, organization.faviconMediaId].filter((id): id is string =>
    Boolean(id),
  )
  if (ids.length === 0) return { logoPath: null, faviconPath: null }
  const rows = await db
    .select({ id: media.id, hash: media.hash, ext: media.ext })
    .from(media)
    .where(and(eq(media.organizationId, organizationId), inArray(media.id, ids)))
  const pathOf = (id: string | null) => {
    const row = rows.find((r) => r.id === id)
    return row ? `/media/${row.hash}.${row.ext}` : null
  }
  return {
    logoPath: pathOf(organization.logoMediaId),
    faviconPath: pathOf(organization.faviconMediaId),
  }
}

export type NewOrganization = Pick<typeof organizations.$inferInsert, 'slug' | 'name'> &
  Partial<
    Pick<
      typeof organizations.$inferInsert,
      | 'kind'
      | 'status'
      | 'approvalStatus'
      | 'subscriptionTier'
      | 'ownerName'
      | 'contactEmail'
      | 'customDomain'
      | 'customDomainVerificationToken'
      | 'customDomainClaimedAt'
      | 'customDomainVerifiedAt'
      | 'customDomainCheckedAt'
      | 'primaryColor'
      | 'secondaryColor'
    >
  >

export async function createOrganization(db: Queryable, input: NewOrganization) {
  const [row] = await db.insert(organizations).values(input).returning()
  if (!row) throw new Error('organization insert returned nothing')
  return row
}

export async function setOrganizationBrandingImages(
  db: Queryable,
  organizationId: string,
  images: { logoMediaId?: string | null; faviconMediaId?: string | null },
) {
  await db
    .update(organizations)
    .set({ ...images, updatedAt: new Date() })
    .where(eq(organizations.id, organizationId))
}

export async function hasPlatformOrganization(db: Queryable) {
  const [row] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.kind, 'platform'))
    .limit(1)
  return Boolean(row)
}

/** The organization's display name; for the platform organization, the product name. */
export async function renameOrganization(db: Queryable, organizationId: string, name: string) {
  await db
    .update(organizations)
    .set({ name, updatedAt: new Date() })
    .where(eq(organizations.id, organizationId))
}

export async function findSubscriptionTier(db: Queryable, organizationId: string) {
  const [row] = await db
    .select({ tier: organizations.subscriptionTier })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
  return row?.tier ?? 'free'
}

/** The agency's tier, changed only from the tier it had (Agency Pro bought or lapsed, ADR 051). */
export async function setSubscriptionTier(
  db: Queryable,
  organizationId: string,
  from: Organization['subscriptionTier'],
  to: Organization['subscriptionTier'],
) {
  const [row] = await db
    .update(organizations)
    .set({ subscriptionTier: to, updatedAt: new Date() })
    .where(and(eq(organizations.id, organizationId), eq(organizations.subscriptionTier, from)))
    .returning({ id: organizations.id })
  return row
}

/** What the agency's Branding screen edits (its own values, whatever white labeling shows). */
export async function findOrganizationBranding(db: Queryable, organizationId: string) {
  const [row] = await db
    .select({
      name: organizations.name,
      primaryColor: organizations.primaryColor,
      secondaryColor: organizations.secondaryColor,
      whiteLabelActive: organizations.whiteLabelActive,
      logoMediaId: organizations.logoMediaId,
      faviconMediaId: organizations.faviconMediaId,
    })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
  return row
}

export async function updateOrganizationBranding(
  db: Queryable,
  organizationId: string,
  fields: {
    name: string
    primaryColor: string
    secondaryColor: string
    whiteLabelActive: boolean
    logoMediaId?: string | null
    faviconMediaId?: string | null
  },
) {
  await db
    .update(organizations)
    .set({ ...fields, updatedAt: new Date() })
    .where(eq(organizations.id, organizationId))
}

/** The address the super admin recorded for the agency: its billing contact until one is saved. */
export async function findContactEmail(db: Queryable, organizationId: string) {
  const [row] = await db
    .select({ contactEmail: organizations.contactEmail })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
  return row?.contactEmail ?? null
}

/** Every organization's id: work that visits each tenant in turn (the media sweep). */
export async function listOrganizationIds(db: Queryable) {
  return db.select({ id: organizations.id }).from(organizations).orderBy(organizations.id)
}
