import { and, asc, count, eq, inArray, type SQL } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { media, organizations, users } from '#drizzle/schema'
import { type KeysetPage, keyset } from './keyset.server'
import { userNameOrEmailMatches } from './search.server'
import { tenantJoin } from './tenant-join.server'

export type User = typeof users.$inferSelect
export type UserRole = User['role']

export type NewUser = {
  email: string
  /** Hashed by the caller (`hashPassword`): a model only stores it. */
  passwordHash: string
  role?: UserRole
  plan?: User['plan']
  status?: User['status']
  /** The team member (team_admin) who looks after this end user. */
  assignedToUserId?: string | null
  firstName?: string
  lastName?: string
  company?: string
  jobTitle?: string
  phoneNumber?: string
  website?: string
  workEmail?: string
  /** Null (the default) until the owner follows the sign-up confirmation link. */
  emailConfirmedAt?: Date | null
  /** The identity provider's id and fields, for an account the directory made (ADR 089). */
  externalId?: string | null
  directory?: Record<string, unknown>
}

/** Emails are compared case-insensitively: they are stored lower-cased. */
export function normalizeEmail(email: string) {
  return email.trim().toLowerCase()
}

export async function createUser(db: Queryable, organizationId: string, input: NewUser) {
  const { email, ...profile } = input
  const [user] = await db
    .insert(users)
    .values({
      organizationId,
      email: normalizeEmail(email),
      ...profile,
    })
    .returning()
  if (!user) throw new Error('user insert returned nothing')
  return user
}

export async function findUserByEmail(db: Queryable, organizationId: string, email: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.organizationId, organizationId), eq(users.email, normalizeEmail(email))))
    .limit(1)
  return user
}

export async function findUserById(db: Queryable, organizationId: string, userId: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.organizationId, organizationId), eq(users.id, userId)))
    .limit(1)
  return user
}

export async function setUserPassword(
  db: Queryable,
  organizationId: string,
  userId: string,
  passwordHash: string,
) {
  await db
    .update(users)
    // Password rotation (ADR 045) counts its 90 days from here.
    .set({ passwordHash, passwordChangedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(users.organizationId, organizationId), eq(users.id, userId)))
}

/** The contact details and images a profile and a card both hold, under the same names. */
export type ContactDetailField =
  | 'firstName'
  | 'lastName'
  | 'email'
  | 'workEmail'
  | 'phoneNumber'
  | 'company'
  | 'jobTitle'
  | 'website'
  | 'logoMediaId'
  | 'profilePictureMediaId'

/** The profile's own details a card, a card wizard's draft and the data export take over. */
export function contactDetailsOf(
  user: Pick<
    User,
    'firstName' | 'lastName' | 'workEmail' | 'phoneNumber' | 'company' | 'jobTitle' | 'website'
  >,
) {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    workEmail: user.workEmail,
    phoneNumber: user.phoneNumber,
    company: user.company,
    jobTitle: user.jobTitle,
    website: user.website,
  }
}

export type ProfileFields = Partial<
  Pick<User, ContactDetailField | 'onboardingStep' | 'onboardingCompletedAt' | 'emailConfirmedAt'>
>

export async function updateProfile(
  db: Queryable,
  organizationId: string,
  userId: string,
  fields: ProfileFields,
) {
  const [user] = await db
    .update(users)
    .set({
      ...fields,
      ...(fields.email ? { email: normalizeEmail(fields.email) } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(users.organizationId, organizationId), eq(users.id, userId)))
    .returning()
  return user
}

/** Confirms the account's email, only while it is still `email` (the address the link was for). */
export async function markEmailConfirmed(
  db: Queryable,
  organizationId: string,
  userId: string,
  email: string,
) {
  const [user] = await db
    .update(users)
    .set({ emailConfirmedAt: new Date(), updatedAt: new Date() })
    .where(
      and(eq(users.organizationId, organizationId), eq(users.id, userId), eq(users.email, email)),
    )
    .returning()
  return user
}

/** Moves the user to `plan`, only from `from` (so two upgrades at once cannot both apply). */
export async function setUserPlan(
  db: Queryable,
  organizationId: string,
  userId: string,
  from: User['plan'],
  plan: User['plan'],
) {
  const [user] = await db
    .update(users)
    .set({ plan, updatedAt: new Date() })
    .where(
      and(eq(users.organizationId, organizationId), eq(users.id, userId), eq(users.plan, from)),
    )
    .returning()
  return user
}

/** How many accounts of the organization have one of these roles (an agency's staff seats). */
export async function countUsersWithRoles(
  db: Queryable,
  organizationId: string,
  roles: readonly User['role'][],
) {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.organizationId, organizationId), inArray(users.role, [...roles])))
  return row?.n ?? 0
}

/** A team member's own plan (ADR 051): how many end users may be assigned to them. */
export async function setMemberPlan(
  db: Queryable,
  organizationId: string,
  userId: string,
  plan: User['memberPlan'],
) {
  const [user] = await db
    .update(users)
    .set({ memberPlan: plan, updatedAt: new Date() })
    .where(and(eq(users.organizationId, organizationId), eq(users.id, userId)))
    .returning()
  return user
}

// The User Accounts tab (roles doc §2.5): one page of accounts, searched by name or email. The
// organization variants serve agency admins (inside withTenant); the platform variants read
// every tenant and belong inside withPlatformScope only.

const accountSearch = userNameOrEmailMatches

export type UserAccountsPage = { limit: number; offset: number }

const accountColumns = {
  id: users.id,
  organizationId: users.organizationId,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  role: users.role,
  organizationName: organizations.name,
  pictureHash: media.hash,
  pictureExt: media.ext,
}

function selectAccounts(db: Queryable, where: SQL | undefined, page: UserAccountsPage) {
  return (
    db
      .select(accountColumns)
      .from(users)
      .leftJoin(organizations, eq(organizations.id, users.organizationId))
      // The picture must be the account's own organization's media (the same pair as its FK).
      .leftJoin(media, tenantJoin(media, users, media.id, users.profilePictureMediaId))
      .where(where)
      // Email then id: a stable order, so pages neither repeat nor skip an account.
      .orderBy(asc(users.email), asc(users.id))
      .limit(page.limit)
      .offset(page.offset)
  )
}

async function countAccounts(db: Queryable, where: SQL | undefined) {
  const [row] = await db.select({ n: count() }).from(users).where(where)
  return row?.n ?? 0
}

export function countUserAccountsForOrganization(
  db: Queryable,
  organizationId: string,
  search = '',
) {
  return countAccounts(db, and(eq(users.organizationId, organizationId), accountSearch(search)))
}

export function listUserAccountsForOrganization(
  db: Queryable,
  organizationId: string,
  search: string,
  page: UserAccountsPage,
) {
  return selectAccounts(
    db,
    and(eq(users.organizationId, organizationId), accountSearch(search)),
    page,
  )
}

/** Every tenant's accounts: only inside the platform scope (super admins). */
export function countUserAccountsForPlatform(db: Queryable, search = '') {
  return countAccounts(db, accountSearch(search))
}

/** Every tenant's accounts: only inside the platform scope (super admins). */
export function listUserAccountsForPlatform(db: Queryable, search: string, page: UserAccountsPage) {
  return selectAccounts(db, accountSearch(search), page)
}

export type UserAccountListRow = Awaited<ReturnType<typeof listUserAccountsForPlatform>>[number]

/**
 * The organization's accounts for the REST API (ADR 092) in (updated at, id) order from a
 * keyset page: what an integration needs of a person, never a secret or the directory's data.
 */
export function listOrganizationUsers(db: Queryable, organizationId: string, page: KeysetPage) {
  const set = keyset(users.updatedAt, users.id, page)
  return db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      role: users.role,
      status: users.status,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
      position: set.position,
    })
    .from(users)
    .where(and(eq(users.organizationId, organizationId), set.where))
    .orderBy(...set.orderBy)
    .limit(set.limit)
}
