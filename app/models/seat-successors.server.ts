// Whose card a departed person's links forward to (issue 31 point 2, ADR 049): one row per
// account whose seat its agency handed over. Read by the card gate only while the account is
// inactive; written by the hand-over (app/people/seat-handover.server.ts).
import { and, asc, eq } from 'drizzle-orm'
import { alias, type PgColumn, type PgSelect } from 'drizzle-orm/pg-core'
import type { Queryable } from '#drizzle/db.server'
import { cardSlugs, digitalCards, seatSuccessors, users } from '#drizzle/schema'
import { currentSlugOfCard } from './card-slugs.server'

/** Names the successor of an account (the last hand-over wins). */
export async function setSeatSuccessor(
  db: Queryable,
  organizationId: string,
  userId: string,
  successorId: string,
  handedOverByUserId: string | null,
) {
  await db
    .insert(seatSuccessors)
    .values({ organizationId, userId, successorId, handedOverByUserId })
    .onConflictDoUpdate({
      target: [seatSuccessors.organizationId, seatSuccessors.userId],
      set: { successorId, handedOverByUserId, handedOverAt: new Date() },
    })
}

/** The address of an account's default card: its current short link, else its id. */
function defaultCardAddressOf<T extends PgSelect>(
  query: T,
  organizationId: string,
  ownerId: PgColumn,
) {
  return query
    .leftJoin(
      digitalCards,
      and(
        eq(digitalCards.organizationId, organizationId),
        eq(digitalCards.userId, ownerId),
        eq(digitalCards.isDefault, true),
      ),
    )
    .leftJoin(cardSlugs, currentSlugOfCard)
}

/**
 * Where an account's links forward: its successor, the successor's status, and the address of
 * the successor's default card (its current short link, else its id; both null without a card).
 * Undefined when nobody took the seat over. One query, in the organization only.
 */
export async function findSeatSuccessorCard(db: Queryable, organizationId: string, userId: string) {
  const query = db
    .select({
      successorId: seatSuccessors.successorId,
      successorStatus: users.status,
      cardId: digitalCards.id,
      slug: cardSlugs.slug,
    })
    .from(seatSuccessors)
    .innerJoin(
      users,
      and(eq(users.organizationId, organizationId), eq(users.id, seatSuccessors.successorId)),
    )
    .$dynamic()
  const [row] = await defaultCardAddressOf(query, organizationId, seatSuccessors.successorId)
    .where(
      and(eq(seatSuccessors.organizationId, organizationId), eq(seatSuccessors.userId, userId)),
    )
    .limit(1)
  return row
}

/**
 * The same for a successor named directly (a deleted account's departed addresses, ADR 053):
 * the account's status and its default card's address. Undefined when the account is gone.
 */
export async function findSuccessorCard(
  db: Queryable,
  organizationId: string,
  successorId: string,
) {
  const query = db
    .select({
      successorId: users.id,
      successorStatus: users.status,
      cardId: digitalCards.id,
      slug: cardSlugs.slug,
    })
    .from(users)
    .$dynamic()
  const [row] = await defaultCardAddressOf(query, organizationId, users.id)
    .where(and(eq(users.organizationId, organizationId), eq(users.id, successorId)))
    .limit(1)
  return row
}

/**
 * Every handed-over seat of the organization, for the End Users screen's forwarding overview:
 * who (with their status: the links forward only while they are inactive) and to whom (with the
 * successor's status: an inactive successor means the agency's default answers).
 */
export async function listSeatSuccessors(db: Queryable, organizationId: string) {
  const successor = alias(users, 'successor')
  return db
    .select({
      userId: seatSuccessors.userId,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      status: users.status,
      successorId: seatSuccessors.successorId,
      successorFirstName: successor.firstName,
      successorLastName: successor.lastName,
      successorEmail: successor.email,
      successorStatus: successor.status,
      handedOverAt: seatSuccessors.handedOverAt,
    })
    .from(seatSuccessors)
    .innerJoin(
      users,
      and(eq(users.organizationId, organizationId), eq(users.id, seatSuccessors.userId)),
    )
    .innerJoin(
      successor,
      and(
        eq(successor.organizationId, organizationId),
        eq(successor.id, seatSuccessors.successorId),
      ),
    )
    .where(eq(seatSuccessors.organizationId, organizationId))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(seatSuccessors.userId))
    .limit(500)
}

/**
 * Takes an account's successor away: its links answer the agency's default again. The removed
 * row's successor, or undefined when the account had none.
 */
export async function clearSeatSuccessor(db: Queryable, organizationId: string, userId: string) {
  const [row] = await db
    .delete(seatSuccessors)
    .where(
      and(eq(seatSuccessors.organizationId, organizationId), eq(seatSuccessors.userId, userId)),
    )
    .returning({ successorId: seatSuccessors.successorId })
  return row
}
