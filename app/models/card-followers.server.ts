// The followers of a card (ADR 102): who asked to hear when it changes. Every query names the
// organization; only the SHA-256 of a confirmation token is ever stored, and it is cleared once
// used. Time is the database's (now()), never the process's clock.
import { and, count, eq, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm'
import { type Language, SOURCE_LANGUAGE } from '#app/validation/languages'
import { FOLLOW_CONFIRMATION_LINK } from '#app/validation/token-lifetimes'
import type { Queryable } from '#drizzle/db.server'
import { cardFollowers } from '#drizzle/schema'

/**
 * A pending address is sent a new confirmation at most this often, however many times it is
 * typed in (beside the send limits): asking cannot flood an inbox with confirmations.
 */
export const FOLLOW_RESEND_MINUTES = 60

/**
 * "Keep me updated" for this card and address: a new (or renewed) pending row with this token's
 * hash, or nothing for an address that already follows the card (`send` says whether to email
 * the confirmation). One row per card and address, whatever its state.
 */
export async function askToFollow(
  db: Queryable,
  organizationId: string,
  cardId: string,
  email: string,
  tokenHash: string,
  language: Language = SOURCE_LANGUAGE,
) {
  const address = email.trim().toLowerCase()
  const [row] = await db
    .insert(cardFollowers)
    .values({ organizationId, cardId, email: address, confirmTokenHash: tokenHash, language })
    .onConflictDoUpdate({
      target: [cardFollowers.organizationId, cardFollowers.cardId, cardFollowers.email],
      set: {
        state: 'pending',
        confirmTokenHash: tokenHash,
        confirmedAt: null,
        // The language of the page asked on last: the emails follow the latest ask.
        language,
        updatedAt: sql`now()`,
      },
      // A confirmed follower stays as they are: nothing is sent, nothing changes. Nor does an
      // address whose confirmation went out in the last hour.
      setWhere: sql`${cardFollowers.state} <> 'confirmed' and not (${cardFollowers.state} = 'pending' and ${cardFollowers.updatedAt} > now() - make_interval(mins => ${FOLLOW_RESEND_MINUTES}))`,
    })
    .returning({ id: cardFollowers.id })
  return { send: Boolean(row) }
}

const usableToken = (tokenHash: string) =>
  and(
    eq(cardFollowers.confirmTokenHash, tokenHash),
    eq(cardFollowers.state, 'pending'),
    // How long the link works: its home is token-lifetimes.ts.
    gt(
      cardFollowers.updatedAt,
      sql`now() - make_interval(secs => ${FOLLOW_CONFIRMATION_LINK.ms / 1000})`,
    ),
  )

/** The pending follower a confirmation token opens, while it still works. */
export async function findPendingFollowerByToken(
  db: Queryable,
  organizationId: string,
  tokenHash: string,
) {
  const [row] = await db
    .select({ id: cardFollowers.id, cardId: cardFollowers.cardId })
    .from(cardFollowers)
    .where(and(eq(cardFollowers.organizationId, organizationId), usableToken(tokenHash)))
  return row
}

/** Confirms the follower the token opens (once: the hash is cleared); undefined otherwise. */
export async function confirmFollower(db: Queryable, organizationId: string, tokenHash: string) {
  const [row] = await db
    .update(cardFollowers)
    .set({
      state: 'confirmed',
      confirmTokenHash: null,
      confirmedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(cardFollowers.organizationId, organizationId), usableToken(tokenHash)))
    .returning({ id: cardFollowers.id, cardId: cardFollowers.cardId })
  return row
}

export async function findFollowerById(db: Queryable, organizationId: string, id: string) {
  const [row] = await db
    .select({ id: cardFollowers.id, cardId: cardFollowers.cardId, state: cardFollowers.state })
    .from(cardFollowers)
    .where(and(eq(cardFollowers.organizationId, organizationId), eq(cardFollowers.id, id)))
  return row
}

/** The organization's confirmed followers among `which` (a follower, a card's), narrowed by `more`. */
function confirmed(organizationId: string, which: SQL, ...more: (SQL | undefined)[]) {
  return and(
    eq(cardFollowers.organizationId, organizationId),
    which,
    eq(cardFollowers.state, 'confirmed'),
    ...more,
  )
}

/** Stops a follower's updates; whether they were following until now. */
export async function stopFollowing(db: Queryable, organizationId: string, id: string) {
  const rows = await db
    .update(cardFollowers)
    .set({ state: 'unsubscribed', confirmTokenHash: null, updatedAt: sql`now()` })
    .where(confirmed(organizationId, eq(cardFollowers.id, id)))
    .returning({ id: cardFollowers.id })
  return rows.length > 0
}

/** How many confirmed followers each of these cards has (cards without any are left out). */
export async function countFollowers(db: Queryable, organizationId: string, cardIds: string[]) {
  if (cardIds.length === 0) return new Map<string, number>()
  const rows = await db
    .select({ cardId: cardFollowers.cardId, followers: count() })
    .from(cardFollowers)
    .where(confirmed(organizationId, inArray(cardFollowers.cardId, cardIds)))
    .groupBy(cardFollowers.cardId)
  return new Map(rows.map((row) => [row.cardId, row.followers]))
}

/**
 * The confirmed followers of the card who are owed a digest: a change newer than their last
 * one, and no digest of this card in the last 24 hours (at most one a day per card). Locked, so
 * two runs of the job cannot both send.
 */
export async function followersOwedDigest(db: Queryable, organizationId: string, cardId: string) {
  const recent = db
    .select({ id: cardFollowers.id })
    .from(cardFollowers)
    .where(
      and(
        eq(cardFollowers.organizationId, organizationId),
        eq(cardFollowers.cardId, cardId),
        gt(cardFollowers.lastDigestAt, sql`now() - interval '24 hours'`),
      ),
    )
  return db
    .select({ id: cardFollowers.id, email: cardFollowers.email, language: cardFollowers.language })
    .from(cardFollowers)
    .where(
      confirmed(
        organizationId,
        eq(cardFollowers.cardId, cardId),
        sql`${cardFollowers.changedAt} is not null`,
        or(
          isNull(cardFollowers.lastDigestAt),
          gt(cardFollowers.changedAt, cardFollowers.lastDigestAt),
        ),
        sql`not exists (${recent})`,
      ),
    )
    .for('update')
}

/**
 * When the card's next digest may go, if a confirmed follower is owed one that the day since the
 * last digest holds back (null when nobody waits).
 */
export async function nextDigestDue(db: Queryable, organizationId: string, cardId: string) {
  const [row] = await db
    .select({
      due: sql<string | null>`max(${cardFollowers.lastDigestAt}) + interval '24 hours'`.mapWith(
        (value: string | Date | null) => (value ? new Date(value) : null),
      ),
      waiting:
        sql<number>`count(*) filter (where ${cardFollowers.changedAt} > coalesce(${cardFollowers.lastDigestAt}, '-infinity'))`.mapWith(
          Number,
        ),
    })
    .from(cardFollowers)
    .where(confirmed(organizationId, eq(cardFollowers.cardId, cardId)))
  return row && row.waiting > 0 ? row.due : null
}

/** These followers got the digest now. */
export async function markDigestSent(db: Queryable, organizationId: string, ids: string[]) {
  if (ids.length === 0) return
  await db
    .update(cardFollowers)
    .set({ lastDigestAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(cardFollowers.organizationId, organizationId), inArray(cardFollowers.id, ids)))
}
