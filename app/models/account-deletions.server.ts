// "Delete my account" (issue 31 point 4, ADR 053): the pending deletions, and the addresses a
// deleted agency account's cards leave behind for the card gate to forward. Every function takes
// the organization and filters by it (row-level security holds the same line underneath).
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import {
  accountDeletions,
  cardSlugs,
  departedAddresses,
  digitalCards,
  media,
  users,
} from '#drizzle/schema'
import { isUnreferencedMedia } from './media.server'

export type AccountDeletion = typeof accountDeletions.$inferSelect
export type DepartedKind = 'card' | 'slug' | 'name'

/** Schedules (or moves) the account's deletion to `scheduledFor`. */
export async function scheduleAccountDeletion(
  db: Queryable,
  organizationId: string,
  userId: string,
  scheduledFor: Date,
) {
  const [row] = await db
    .insert(accountDeletions)
    .values({ organizationId, userId, scheduledFor })
    .onConflictDoUpdate({
      target: [accountDeletions.organizationId, accountDeletions.userId],
      set: { scheduledFor, requestedAt: new Date() },
    })
    .returning()
  if (!row) throw new Error('account deletion row vanished during insert')
  return row
}

export async function findAccountDeletion(db: Queryable, organizationId: string, userId: string) {
  const [row] = await db
    .select()
    .from(accountDeletions)
    .where(
      and(eq(accountDeletions.organizationId, organizationId), eq(accountDeletions.userId, userId)),
    )
    .limit(1)
  return row
}

/** Cancels a pending deletion; the row it removed, if there was one. */
export async function cancelAccountDeletion(db: Queryable, organizationId: string, userId: string) {
  const [row] = await db
    .delete(accountDeletions)
    .where(
      and(eq(accountDeletions.organizationId, organizationId), eq(accountDeletions.userId, userId)),
    )
    .returning()
  return row
}

/** The organization's accounts with a pending deletion (they do not count as keeping a role). */
export async function listPendingDeletionUserIds(db: Queryable, organizationId: string) {
  const rows = await db
    .select({ userId: accountDeletions.userId })
    .from(accountDeletions)
    .where(eq(accountDeletions.organizationId, organizationId))
  return rows.map((row) => row.userId)
}

/** The organization's deletions whose date passed before `before` (the hourly backstop's). */
export async function listOverdueAccountDeletions(
  db: Queryable,
  organizationId: string,
  before: Date,
) {
  return db
    .select({ userId: accountDeletions.userId, scheduledFor: accountDeletions.scheduledFor })
    .from(accountDeletions)
    .where(
      and(
        eq(accountDeletions.organizationId, organizationId),
        lt(accountDeletions.scheduledFor, before),
      ),
    )
    .limit(500)
}

/**
 * Every address that reaches the account's cards: each card's id, each of its short link slugs
 * (current and retired), and the account's name link.
 */
export async function listAccountAddresses(db: Queryable, organizationId: string, userId: string) {
  const cards = await db
    .select({ id: digitalCards.id })
    .from(digitalCards)
    .where(and(eq(digitalCards.organizationId, organizationId), eq(digitalCards.userId, userId)))
  const cardIds = cards.map((card) => card.id)
  const slugs =
    cardIds.length === 0
      ? []
      : await db
          .select({ slug: cardSlugs.slug })
          .from(cardSlugs)
          .where(
            and(eq(cardSlugs.organizationId, organizationId), inArray(cardSlugs.cardId, cardIds)),
          )
  const [account] = await db
    .select({ linkSlug: users.linkSlug })
    .from(users)
    .where(and(eq(users.organizationId, organizationId), eq(users.id, userId)))
    .limit(1)
  return [
    ...cardIds.map((address) => ({ kind: 'card' as const, address })),
    ...slugs.map(({ slug }) => ({ kind: 'slug' as const, address: slug.toLowerCase() })),
    ...(account?.linkSlug
      ? [{ kind: 'name' as const, address: account.linkSlug.toLowerCase() }]
      : []),
  ]
}

/**
 * Keeps the addresses (a later departure of the same address names the newer successor), held
 * from every claim until `heldUntil` (ADR 058).
 */
export async function recordDepartedAddresses(
  db: Queryable,
  organizationId: string,
  addresses: { kind: DepartedKind; address: string }[],
  successorId: string | null,
  heldUntil: Date,
) {
  if (addresses.length === 0) return 0
  const rows = await db
    .insert(departedAddresses)
    .values(addresses.map((address) => ({ organizationId, successorId, heldUntil, ...address })))
    .onConflictDoUpdate({
      target: [departedAddresses.organizationId, departedAddresses.kind, departedAddresses.address],
      set: { successorId, departedAt: new Date(), heldUntil },
    })
    .returning({ address: departedAddresses.address })
  return rows.length
}

/**
 * Which of these short link slugs a departed account left that are still in quarantine (ADR
 * 058): no card may take them yet. Slugs are compared in lower case, as they are kept.
 */
export async function listHeldDepartedSlugs(
  db: Queryable,
  organizationId: string,
  slugs: { startingWith: string } | { exactly: string },
) {
  const rows = await db
    .select({ address: departedAddresses.address })
    .from(departedAddresses)
    .where(
      and(
        eq(departedAddresses.organizationId, organizationId),
        eq(departedAddresses.kind, 'slug'),
        'exactly' in slugs
          ? sql`${departedAddresses.address} = lower(${slugs.exactly})`
          : sql`starts_with(${departedAddresses.address}, lower(${slugs.startingWith}))`,
        gt(departedAddresses.heldUntil, sql`now()`),
      ),
    )
  return new Set(rows.map((row) => row.address))
}

/** The departed address of one of these kinds, if the organization keeps it. */
export async function findDepartedAddress(
  db: Queryable,
  organizationId: string,
  kinds: DepartedKind[],
  address: string,
) {
  if (address.length > 200) return undefined
  const [row] = await db
    .select({ kind: departedAddresses.kind, successorId: departedAddresses.successorId })
    .from(departedAddresses)
    .where(
      and(
        eq(departedAddresses.organizationId, organizationId),
        inArray(departedAddresses.kind, kinds),
        sql`${departedAddresses.address} = lower(${address})`,
      ),
    )
    .limit(1)
  return row
}

/**
 * Deletes the images this account uploaded that nothing references any more (its own rows have
 * gone first). An image another account uses too stays; the sweep (ADR 029) takes the rest.
 */
export async function deleteUnreferencedUploadsOf(
  db: Queryable,
  organizationId: string,
  userId: string,
) {
  const rows = await db
    .delete(media)
    .where(
      and(
        eq(media.organizationId, organizationId),
        eq(media.uploadedBy, userId),
        isUnreferencedMedia,
      ),
    )
    .returning({ id: media.id })
  return rows.length
}
