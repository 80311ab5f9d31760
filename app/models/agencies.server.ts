// Agencies as the super admin manages them (roles-teams-admin.md §2.11, §3, §4). The
// organizations table is the tenant registry (no row-level security); the team size counts
// tenant rows, so the list runs inside withPlatformScope, the one way to read across tenants.
import { and, asc, count, eq, ilike, or, sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { organizations, users } from '#drizzle/schema'
import { containsPattern } from './search.server'

export type AgencyRow = {
  id: string
  name: string
  slug: string
  status: 'active' | 'inactive' | 'pending'
  approvalStatus: 'approved' | 'pending' | 'rejected'
  subscriptionTier: 'free' | 'starter' | 'professional' | 'enterprise'
  ownerName: string | null
  contactEmail: string | null
  teamSize: number
  createdAt: Date
}

/** The one rule of what the Agencies screen lists: every tenant but the platform, whatever its status. */
const isAgency = eq(organizations.kind, 'agency')

/** Every agency, by name, with its real head count; `search` matches name, slug or owner. */
export async function listAgenciesForPlatform(db: Queryable, search = ''): Promise<AgencyRow[]> {
  const term = search.trim()
  const pattern = containsPattern(term)
  const matches = term
    ? or(
        ilike(organizations.name, pattern),
        ilike(organizations.slug, pattern),
        ilike(organizations.ownerName, pattern),
        ilike(organizations.contactEmail, pattern),
      )
    : undefined
  return db
    .select({
      id: organizations.id,
      name: organizations.name,
      slug: organizations.slug,
      status: organizations.status,
      approvalStatus: organizations.approvalStatus,
      subscriptionTier: organizations.subscriptionTier,
      ownerName: organizations.ownerName,
      contactEmail: organizations.contactEmail,
      // Correlated on the outer row by its qualified name: inside the subquery a bare "id"
      // would be the user's.
      teamSize: sql<number>`(select count(*)::int from ${users} where ${users.organizationId} = "organizations"."id")`,
      createdAt: organizations.createdAt,
    })
    .from(organizations)
    .where(and(isAgency, matches))
    .orderBy(asc(organizations.name), asc(organizations.id))
}

/** How many agencies the Agencies screen lists unsearched (the super admin's tile). */
export async function countAgenciesForPlatform(db: Queryable) {
  const [row] = await db.select({ n: count() }).from(organizations).where(isAgency)
  return row?.n ?? 0
}

export type AgencyFields = {
  name: string
  slug: string
  ownerName: string
  contactEmail: string
  subscriptionTier: AgencyRow['subscriptionTier']
  status: 'active' | 'inactive'
}

/** The agency with this id, never the platform itself. */
export async function findAgency(db: Queryable, organizationId: string) {
  const [row] = await db
    .select()
    .from(organizations)
    .where(and(eq(organizations.id, organizationId), eq(organizations.kind, 'agency')))
    .limit(1)
  return row
}

/** New agencies are approved (spec §4). */
export async function insertAgency(db: Queryable, fields: AgencyFields) {
  const [row] = await db
    .insert(organizations)
    .values({ ...fields, kind: 'agency', approvalStatus: 'approved' })
    .returning()
  if (!row) throw new Error('agency insert returned nothing')
  return row
}

async function changeAgency(
  db: Queryable,
  organizationId: string,
  set: Partial<typeof organizations.$inferInsert>,
) {
  const [row] = await db
    .update(organizations)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(organizations.id, organizationId), eq(organizations.kind, 'agency')))
    .returning()
  return row
}

export function updateAgency(db: Queryable, organizationId: string, fields: AgencyFields) {
  return changeAgency(db, organizationId, fields)
}

export function setAgencyStatus(
  db: Queryable,
  organizationId: string,
  status: AgencyRow['status'],
) {
  return changeAgency(db, organizationId, { status })
}

export function setAgencyApproval(
  db: Queryable,
  organizationId: string,
  approvalStatus: AgencyRow['approvalStatus'],
) {
  return changeAgency(db, organizationId, { approvalStatus })
}

/** Deletes the agency and, through the cascading keys, every row it holds. */
export async function deleteAgency(db: Queryable, organizationId: string) {
  const [row] = await db
    .delete(organizations)
    .where(and(eq(organizations.id, organizationId), eq(organizations.kind, 'agency')))
    .returning({ id: organizations.id, name: organizations.name })
  return row
}
