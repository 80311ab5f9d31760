// A card that follows a person who leaves (issue 45 point 2, ADR 103). Two aggregates, in two
// tenants: an agency's offer to a departing account (`personal_card_offers`, the agency's rows:
// only the SHA-256 of the claim link's token and, once claimed, the card's public slug), and the
// personal card itself (`personal_cards`, the platform organization's rows: what the person typed).
// Every query names its organization; time is the database's now().
import { and, asc, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm'
import {
  PERSONAL_CARD_CLAIM_LINK,
  PERSONAL_CARD_MANAGE_LINK,
} from '#app/validation/token-lifetimes'
import type { Queryable } from '#drizzle/db.server'
import {
  cardFollowers,
  cardSlugs,
  digitalCards,
  personalCardOffers,
  personalCards,
  users,
} from '#drizzle/schema'
import { currentSlugOfCard } from './card-slugs.server'

/**
 * Offers `userId` a personal card (the hand-over's choice): a new token hash, or a renewed one
 * for an offer not claimed yet. A claimed offer stays as it is (`offered` false).
 */
export async function offerPersonalCard(
  db: Queryable,
  organizationId: string,
  userId: string,
  tokenHash: string,
  offeredByUserId: string | null,
) {
  const [row] = await db
    .insert(personalCardOffers)
    .values({ organizationId, userId, tokenHash, offeredByUserId })
    .onConflictDoUpdate({
      target: [personalCardOffers.organizationId, personalCardOffers.userId],
      set: { tokenHash, offeredByUserId, offeredAt: sql`now()`, updatedAt: sql`now()` },
      setWhere: isNull(personalCardOffers.claimedAt),
    })
    .returning({ id: personalCardOffers.id })
  return { offered: Boolean(row) }
}

const usableOffer = (tokenHash: string) =>
  and(
    eq(personalCardOffers.tokenHash, tokenHash),
    isNull(personalCardOffers.claimedAt),
    // How long the link works: its home is token-lifetimes.ts.
    gt(
      personalCardOffers.offeredAt,
      sql`now() - make_interval(secs => ${PERSONAL_CARD_CLAIM_LINK.ms / 1000})`,
    ),
  )

/** The unclaimed offer a claim token opens, with the account's name, while the link works. */
export async function findOfferByToken(db: Queryable, organizationId: string, tokenHash: string) {
  const [row] = await db
    .select({
      id: personalCardOffers.id,
      userId: personalCardOffers.userId,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(personalCardOffers)
    .innerJoin(
      users,
      and(eq(users.organizationId, organizationId), eq(users.id, personalCardOffers.userId)),
    )
    .where(and(eq(personalCardOffers.organizationId, organizationId), usableOffer(tokenHash)))
    .limit(1)
  return row
}

/**
 * Marks the offer the token opens claimed, with the personal card's slug (once: the hash is
 * cleared). The account's id, or undefined when the link no longer works.
 */
export async function claimOffer(
  db: Queryable,
  organizationId: string,
  tokenHash: string,
  personalCardSlug: string,
) {
  const [row] = await db
    .update(personalCardOffers)
    .set({ claimedAt: sql`now()`, tokenHash: null, personalCardSlug, updatedAt: sql`now()` })
    .where(and(eq(personalCardOffers.organizationId, organizationId), usableOffer(tokenHash)))
    .returning({ userId: personalCardOffers.userId })
  return row
}

/** Whether the offer to `userId` is still open, for the outbox's demo page (ADR 028). */
export async function findOfferForUser(db: Queryable, organizationId: string, userId: string) {
  const [row] = await db
    .select({
      claimedAt: personalCardOffers.claimedAt,
      personalCardSlug: personalCardOffers.personalCardSlug,
    })
    .from(personalCardOffers)
    .where(
      and(
        eq(personalCardOffers.organizationId, organizationId),
        eq(personalCardOffers.userId, userId),
      ),
    )
    .limit(1)
  return row
}

/** A personal card's row key, as writes return it. */
const CARD_KEY = { id: personalCards.id, slug: personalCards.slug }
/** What a personal card shows (and its owner edits). */
const CARD_FIELDS = {
  slug: personalCards.slug,
  firstName: personalCards.firstName,
  lastName: personalCards.lastName,
  email: personalCards.email,
  phone: personalCards.phone,
}

/**
 * A personal card on the platform organization; undefined when the slug is taken (the caller
 * tries another).
 */
export async function insertPersonalCard(
  db: Queryable,
  platformOrganizationId: string,
  card: { slug: string; firstName: string; lastName: string; email: string; phone: string },
) {
  const [row] = await db
    .insert(personalCards)
    .values({ organizationId: platformOrganizationId, ...card })
    .onConflictDoNothing({ target: [personalCards.organizationId, personalCards.slug] })
    .returning(CARD_KEY)
  return row
}

/** Takes back a personal card whose claim was lost to a concurrent one. */
export async function deletePersonalCard(
  db: Queryable,
  platformOrganizationId: string,
  slug: string,
) {
  await db
    .delete(personalCards)
    .where(
      and(eq(personalCards.organizationId, platformOrganizationId), eq(personalCards.slug, slug)),
    )
}

/** The personal card a public address names, on the platform organization. */
export async function findPersonalCardBySlug(
  db: Queryable,
  platformOrganizationId: string,
  slug: string,
) {
  const [row] = await db
    .select(CARD_FIELDS)
    .from(personalCards)
    .where(
      and(
        eq(personalCards.organizationId, platformOrganizationId),
        eq(personalCards.slug, slug.toLowerCase()),
      ),
    )
    .limit(1)
  return row
}

/**
 * A new link to edit or remove the card (ADR 106), replacing any earlier one: its token's hash
 * and the time it was sent. Undefined when no card has that slug.
 */
export async function setManageToken(
  db: Queryable,
  platformOrganizationId: string,
  slug: string,
  tokenHash: string,
) {
  const [row] = await db
    .update(personalCards)
    .set({ manageTokenHash: tokenHash, manageLinkSentAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(eq(personalCards.organizationId, platformOrganizationId), eq(personalCards.slug, slug)),
    )
    .returning({ id: personalCards.id })
  return row
}

const usableManageToken = (tokenHash: string) =>
  and(
    eq(personalCards.manageTokenHash, tokenHash),
    // How long the link works: its home is token-lifetimes.ts.
    gt(
      personalCards.manageLinkSentAt,
      sql`now() - make_interval(secs => ${PERSONAL_CARD_MANAGE_LINK.ms / 1000})`,
    ),
  )

/** The personal card an edit link opens, while the link works. */
export async function findPersonalCardByManageToken(
  db: Queryable,
  platformOrganizationId: string,
  tokenHash: string,
) {
  const [row] = await db
    .select({ id: personalCards.id, ...CARD_FIELDS })
    .from(personalCards)
    .where(
      and(eq(personalCards.organizationId, platformOrganizationId), usableManageToken(tokenHash)),
    )
    .limit(1)
  return row
}

/**
 * The person's edit, through a link that still works. A new email ends the link (it was sent
 * to the old one). Undefined when the link no longer works.
 */
export async function updatePersonalCardByManageToken(
  db: Queryable,
  platformOrganizationId: string,
  tokenHash: string,
  card: { firstName: string; lastName: string; email: string; phone: string },
) {
  const [row] = await db
    .update(personalCards)
    .set({
      ...card,
      manageTokenHash: sql`case when ${personalCards.email} = ${card.email} then ${personalCards.manageTokenHash} end`,
      updatedAt: sql`now()`,
    })
    .where(
      and(eq(personalCards.organizationId, platformOrganizationId), usableManageToken(tokenHash)),
    )
    .returning(CARD_KEY)
  return row
}

/** The person removes their card through a link that still works; undefined when it does not. */
export async function deletePersonalCardByManageToken(
  db: Queryable,
  platformOrganizationId: string,
  tokenHash: string,
) {
  const [row] = await db
    .delete(personalCards)
    .where(
      and(eq(personalCards.organizationId, platformOrganizationId), usableManageToken(tokenHash)),
    )
    .returning(CARD_KEY)
  return row
}

/**
 * The confirmed followers of `userId`'s cards not yet told that the person moved on, with the
 * card each follows and its current short link. Locked, so two runs cannot both tell them.
 */
export async function followersToTellMoved(db: Queryable, organizationId: string, userId: string) {
  return db
    .select({
      id: cardFollowers.id,
      email: cardFollowers.email,
      language: cardFollowers.language,
      cardId: digitalCards.id,
      shortSlug: cardSlugs.slug,
    })
    .from(cardFollowers)
    .innerJoin(
      digitalCards,
      and(
        eq(digitalCards.organizationId, organizationId),
        eq(digitalCards.id, cardFollowers.cardId),
      ),
    )
    .leftJoin(cardSlugs, currentSlugOfCard)
    .where(
      and(
        eq(cardFollowers.organizationId, organizationId),
        eq(digitalCards.userId, userId),
        eq(cardFollowers.state, 'confirmed'),
        isNull(cardFollowers.movedNoticeAt),
      ),
    )
    .orderBy(asc(cardFollowers.email), desc(digitalCards.isDefault), asc(cardFollowers.id))
    .for('update', { of: cardFollowers })
}

/** These followers were told now (never again for this move). */
export async function markMovedNotice(db: Queryable, organizationId: string, ids: string[]) {
  if (ids.length === 0) return
  await db
    .update(cardFollowers)
    .set({ movedNoticeAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(cardFollowers.organizationId, organizationId), inArray(cardFollowers.id, ids)))
}
