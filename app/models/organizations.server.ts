import { and, eq, isNotNull, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Queryable } from '#drizzle/db.server'
import { media, organizations } from '#drizzle/schema'

export type Organization = typeof organizations.$inferSelect

export type OrganizationWithBranding = Organization & {
  logoPath: string | null
  faviconPath: string | null
}

const logo = alias(media, 'logo')
const favicon = alias(media, 'favicon')

/**
 * Tenant lookup for a host: the organizations table is the tenant registry itself, so this
 * is the one read made before a tenant is known. One query, branding images included.
 */
export async function findOrganizationForHost(
  db: Queryable,
  match:
    | { kind: 'platform' }
    | { kind: 'subdomain'; slug: string }
    | { kind: 'custom-domain'; domain: string },
): Promise<OrganizationWithBranding | undefined> {
  let where: SQL | undefined
  if (match.kind === 'platform') where = eq(organizations.kind, 'platform')
  else if (match.kind === 'subdomain')
    where = and(eq(organizations.slug, match.slug), eq(organizations.kind, 'agency'))
  else
    where = and(
      eq(organizations.customDomain, match.domain),
      isNotNull(organizations.customDomainVerifiedAt),
    )
  const [row] = await db
    .select({
      organization: organizations,
      logoHash: logo.hash,
      logoExt: logo.ext,
      faviconHash: favicon.hash,
      faviconExt: favicon.ext,
    })
    .from(organizations)
    .leftJoin(
      logo,
      and(eq(logo.organizationId, organizations.id), eq(logo.id, organizations.logoMediaId)),
    )
    .leftJoin(
      favicon,
      and(
        eq(favicon.organizationId, organizations.id),
        eq(favicon.id, organizations.faviconMediaId),
      ),
    )
    .where(where)
    .limit(1)
  if (!row) return undefined
  return {
    ...row.organization,
    logoPath: row.logoHash ? `/media/${row.logoHash}.${row.logoExt}` : null,
    faviconPath: row.faviconHash ? `/media/${row.faviconHash}.${row.faviconExt}` : null,
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
      | 'customDomainVerifiedAt'
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
