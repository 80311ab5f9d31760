import { and, eq } from 'drizzle-orm'
import { hashPassword } from '#app/auth/password.server'
import type { Queryable } from '#drizzle/db.server'
import { users } from '#drizzle/schema'

export type User = typeof users.$inferSelect
export type UserRole = User['role']

export type NewUser = {
  email: string
  /** The password, hashed here; or `passwordHash` when the caller has hashed it already. */
  password: string
  passwordHash?: string
  role?: UserRole
  firstName?: string
  lastName?: string
  company?: string
  jobTitle?: string
  phoneNumber?: string
  website?: string
  workEmail?: string
  /** Null (the default) until the owner follows the sign-up confirmation link. */
  emailConfirmedAt?: Date | null
}

/** Emails are compared case-insensitively: they are stored lower-cased. */
export function normalizeEmail(email: string) {
  return email.trim().toLowerCase()
}

export async function createUser(db: Queryable, organizationId: string, input: NewUser) {
  const { password, passwordHash, email, ...profile } = input
  const [user] = await db
    .insert(users)
    .values({
      organizationId,
      email: normalizeEmail(email),
      passwordHash: passwordHash ?? (await hashPassword(password)),
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
    .set({ passwordHash, updatedAt: new Date() })
    .where(and(eq(users.organizationId, organizationId), eq(users.id, userId)))
}

export type ProfileFields = Partial<
  Pick<
    User,
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
    | 'onboardingStep'
    | 'onboardingCompletedAt'
    | 'emailConfirmedAt'
  >
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
