import { and, asc, desc, eq, getTableColumns, isNotNull, isNull, sql } from 'drizzle-orm'
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core'
import { claimDefaultSlug } from '#app/models/card-slugs.server'
import { type ContactDetailField, contactDetailsOf } from '#app/models/users.server'
import type { Background } from '#app/validation/card-background'
import { type CardLinkInput, EMPTY_CARD_EXTRAS } from '#app/validation/card-details'
import type { Queryable } from '#drizzle/db.server'
import { cardLinks, cardSlugs, digitalCards, media, userSettings, users } from '#drizzle/schema'
import { type KeysetPage, keyset } from './keyset.server'
import { tenantJoin } from './tenant-join.server'

export type DigitalCard = typeof digitalCards.$inferSelect
export type NewCard = Omit<
  typeof digitalCards.$inferInsert,
  'id' | 'organizationId' | 'userId' | 'isDefault' | 'createdAt' | 'updatedAt' | 'title'
> & { title?: string }
export type CardFields = Partial<
  Pick<
    DigitalCard,
    | ContactDetailField
    | 'title'
    | 'noindex'
    | 'bio'
    | 'department'
    | 'pronouns'
    | 'phoneType'
    | 'phone2'
    | 'phone2Type'
    | 'addressStreet'
    | 'addressCity'
    | 'addressRegion'
    | 'addressPostalCode'
    | 'addressCountry'
    | 'coverMediaId'
    | 'videoProvider'
    | 'videoId'
  >
>
/** A card's link as every reader gets it: in the owner's order. */
/** A stored link; its id names it to the tap counter (`/card/{ref}/l/{id}`, ADR 082). */
export type CardLink = CardLinkInput & { id?: string }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
export const isUuid = (value: string) => UUID.test(value)

/** Spec: a blank title becomes "{first name}'s Card". */
export function defaultCardTitle(firstName: string) {
  return `${firstName.trim()}'s Card`
}

const owned = (organizationId: string, userId: string) =>
  and(eq(digitalCards.organizationId, organizationId), eq(digitalCards.userId, userId))

/** An owner's cards that are not archived (ADR 095): the ones that can be the default. */
const ownedLive = (organizationId: string, userId: string) =>
  and(owned(organizationId, userId), isNull(digitalCards.archivedAt))

/**
 * Creates a card; the user's first card becomes the default (spec, digital card defaults), and
 * so does a card made when every other one is archived (an archived card is never the default).
 * It gets its short link from its name at once (ADR 041).
 */
export async function createCard(
  db: Queryable,
  organizationId: string,
  userId: string,
  input: NewCard,
) {
  const [existing] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(digitalCards)
    .where(and(owned(organizationId, userId), eq(digitalCards.isDefault, true)))
  const [card] = await db
    .insert(digitalCards)
    .values({
      ...input,
      title: input.title?.trim() || defaultCardTitle(input.firstName),
      organizationId,
      userId,
      isDefault: (existing?.count ?? 0) === 0,
    })
    .returning()
  if (!card) throw new Error('card insert returned nothing')
  await claimDefaultSlug(db, organizationId, card.id, card)
  return card
}

const logo = alias(media, 'card_logo')
const picture = alias(media, 'card_picture')
const background = alias(media, 'card_background')
const cover = alias(media, 'card_cover')
// A card's current short link (ADR 041); a retired one only redirects.
const currentSlug = alias(cardSlugs, 'current_slug')
const currentSlugJoin = tenantJoin(
  currentSlug,
  digitalCards,
  currentSlug.cardId,
  digitalCards.id,
  isNull(currentSlug.retiredAt),
)
const mediaPath = (table: { hash: AnyPgColumn; ext: AnyPgColumn }) =>
  sql<
    string | null
  >`case when ${table.hash} is null then null else '/media/' || ${table.hash} || '.' || ${table.ext} end`

const imageJoins = {
  logo: tenantJoin(logo, digitalCards, logo.id, digitalCards.logoMediaId),
  picture: tenantJoin(picture, digitalCards, picture.id, digitalCards.profilePictureMediaId),
  background: tenantJoin(background, digitalCards, background.id, digitalCards.backgroundMediaId),
  cover: tenantJoin(cover, digitalCards, cover.id, digitalCards.coverMediaId),
}

/**
 * A card's links in order, read with the card: the public page stays one query. The correlation
 * names the organization too, so the lookup is the links table's own key.
 */
const linksOfCard = sql<CardLink[]>`coalesce((
  select json_agg(json_build_object('id', ${cardLinks.id}, 'kind', ${cardLinks.kind}, 'label', ${cardLinks.label}, 'url', ${cardLinks.url}) order by ${cardLinks.position})
  from ${cardLinks}
  where ${cardLinks.organizationId} = ${digitalCards.organizationId} and ${cardLinks.cardId} = ${digitalCards.id}
), '[]'::json)`

/** Cards with the public paths of their images and their links, in one query. */
const cardWithImages = {
  card: digitalCards,
  logoUrl: mediaPath(logo),
  profilePictureUrl: mediaPath(picture),
  backgroundImageUrl: mediaPath(background),
  coverUrl: mediaPath(cover),
  links: linksOfCard,
  shortSlug: currentSlug.slug,
}

function selectCardsWithImages(db: Queryable) {
  return db
    .select(cardWithImages)
    .from(digitalCards)
    .leftJoin(currentSlug, currentSlugJoin)
    .leftJoin(logo, imageJoins.logo)
    .leftJoin(picture, imageJoins.picture)
    .leftJoin(background, imageJoins.background)
    .leftJoin(cover, imageJoins.cover)
}

/** The same, with the owner account's status, for a card asked for by someone else. */
function selectSharedCards(db: Queryable) {
  return db
    .select({ ...cardWithImages, ownerStatus: users.status })
    .from(digitalCards)
    .innerJoin(users, tenantJoin(users, digitalCards, users.id, digitalCards.userId))
    .leftJoin(currentSlug, currentSlugJoin)
    .leftJoin(logo, imageJoins.logo)
    .leftJoin(picture, imageJoins.picture)
    .leftJoin(background, imageJoins.background)
    .leftJoin(cover, imageJoins.cover)
}

export type CardWithImages = Awaited<ReturnType<typeof listCardsForOwner>>[number]

/** The owner's cards: the default first, then the others by age, the archived ones last. */
export async function listCardsForOwner(db: Queryable, organizationId: string, userId: string) {
  return selectCardsWithImages(db)
    .where(owned(organizationId, userId))
    .orderBy(
      asc(isNotNull(digitalCards.archivedAt)),
      desc(digitalCards.isDefault),
      asc(digitalCards.createdAt),
    )
}

export async function getCardForOwner(
  db: Queryable,
  organizationId: string,
  userId: string,
  cardId: string,
) {
  if (!isUuid(cardId)) return undefined
  const [row] = await selectCardsWithImages(db)
    .where(and(owned(organizationId, userId), eq(digitalCards.id, cardId)))
    .limit(1)
  return row
}

/** The flagged default, else the oldest card not archived, else none (spec §4, ADR 095). */
export async function getDefaultCardForOwner(
  db: Queryable,
  organizationId: string,
  userId: string,
) {
  const [row] = await selectCardsWithImages(db)
    .where(ownedLive(organizationId, userId))
    .orderBy(desc(digitalCards.isDefault), asc(digitalCards.createdAt))
    .limit(1)
  return row
}

/** Whether someone owns any card: an answer that carries no card data (the dashboard's banner). */
export async function ownerHasCard(db: Queryable, organizationId: string, userId: string) {
  const [row] = await db
    .select({ id: digitalCards.id })
    .from(digitalCards)
    .where(owned(organizationId, userId))
    .limit(1)
  return row !== undefined
}

/** The one update of an owned card; the public functions below say which columns may change. */
async function updateOwnedCard(
  db: Queryable,
  organizationId: string,
  userId: string,
  cardId: string,
  fields: Partial<typeof digitalCards.$inferInsert>,
) {
  if (!isUuid(cardId)) return undefined
  const [card] = await db
    .update(digitalCards)
    .set({ ...fields, updatedAt: new Date() })
    .where(and(owned(organizationId, userId), eq(digitalCards.id, cardId)))
    .returning()
  return card
}

export function updateCard(
  db: Queryable,
  organizationId: string,
  userId: string,
  cardId: string,
  fields: CardFields,
) {
  return updateOwnedCard(db, organizationId, userId, cardId, fields)
}

/**
 * Replaces an owned card's links with these, in this order. Run inside a transaction (withTenant)
 * with the card's other fields, so a reader never sees half a list. False for a card that is not
 * this user's.
 */
export async function replaceCardLinks(
  db: Queryable,
  organizationId: string,
  userId: string,
  cardId: string,
  links: CardLinkInput[],
) {
  if (!isUuid(cardId)) return false
  const [owner] = await db
    .select({ id: digitalCards.id })
    .from(digitalCards)
    .where(and(owned(organizationId, userId), eq(digitalCards.id, cardId)))
  if (!owner) return false
  await db
    .delete(cardLinks)
    .where(and(eq(cardLinks.organizationId, organizationId), eq(cardLinks.cardId, cardId)))
  if (links.length > 0) {
    await db.insert(cardLinks).values(
      links.map((link, position) => ({
        organizationId,
        cardId,
        position,
        kind: link.kind,
        label: link.label,
        url: link.url,
      })),
    )
  }
  return true
}

/** A background is stored as a preset/hex value or a media reference, never both. */
export function setCardBackground(
  db: Queryable,
  organizationId: string,
  userId: string,
  cardId: string,
  value: Background,
) {
  const fields =
    value.kind === 'image'
      ? { backgroundKind: 'image' as const, backgroundValue: '', backgroundMediaId: value.mediaId }
      : { backgroundKind: value.kind, backgroundValue: value.value, backgroundMediaId: null }
  return updateOwnedCard(db, organizationId, userId, cardId, fields)
}

/**
 * Makes one card the default: run inside a transaction (withTenant), so there is always one. An
 * archived card cannot be the default (false, as an unknown card).
 */
export async function setDefaultCard(
  db: Queryable,
  organizationId: string,
  userId: string,
  cardId: string,
) {
  if (!isUuid(cardId)) return false
  const [target] = await db
    .select({ id: digitalCards.id })
    .from(digitalCards)
    .where(and(ownedLive(organizationId, userId), eq(digitalCards.id, cardId)))
  if (!target) return false
  await db
    .update(digitalCards)
    .set({ isDefault: false })
    .where(and(owned(organizationId, userId), eq(digitalCards.isDefault, true)))
  await db
    .update(digitalCards)
    .set({ isDefault: true })
    .where(and(owned(organizationId, userId), eq(digitalCards.id, cardId)))
  return true
}

/** Deletes a card; if it was the default, the oldest remaining card becomes the default. */
export async function deleteCard(
  db: Queryable,
  organizationId: string,
  userId: string,
  cardId: string,
) {
  if (!isUuid(cardId)) return false
  const [deleted] = await db
    .delete(digitalCards)
    .where(and(owned(organizationId, userId), eq(digitalCards.id, cardId)))
    .returning({ isDefault: digitalCards.isDefault })
  if (!deleted) return false
  if (deleted.isDefault) await promoteOldestLiveCard(db, organizationId, userId)
  return true
}

/** The oldest card not archived becomes the default, if the owner has one (none is, before). */
async function promoteOldestLiveCard(db: Queryable, organizationId: string, userId: string) {
  const [oldest] = await db
    .select({ id: digitalCards.id })
    .from(digitalCards)
    .where(ownedLive(organizationId, userId))
    .orderBy(asc(digitalCards.createdAt), asc(digitalCards.id))
    .limit(1)
  if (!oldest) return
  await db
    .update(digitalCards)
    .set({ isDefault: true })
    .where(and(owned(organizationId, userId), eq(digitalCards.id, oldest.id)))
}

/**
 * Archives a card or brings it back (ADR 095): an archived card keeps everything but shows
 * nothing until restored. Archiving the default hands the default to the oldest card not
 * archived; a restored card becomes the default when its owner has none. Run inside a
 * transaction (withTenant). The card as it is now and whether this changed it; undefined for a
 * card that is not this user's.
 */
export async function setCardArchivedState(
  db: Queryable,
  organizationId: string,
  userId: string,
  cardId: string,
  archived: boolean,
) {
  if (!isUuid(cardId)) return undefined
  const [before] = await db
    .select()
    .from(digitalCards)
    .where(and(owned(organizationId, userId), eq(digitalCards.id, cardId)))
  if (!before) return undefined
  if ((before.archivedAt !== null) === archived) return { card: before, changed: false }
  const [hasDefault] = archived
    ? []
    : await db
        .select({ id: digitalCards.id })
        .from(digitalCards)
        .where(and(owned(organizationId, userId), eq(digitalCards.isDefault, true)))
        .limit(1)
  const card = await updateOwnedCard(
    db,
    organizationId,
    userId,
    cardId,
    archived
      ? { archivedAt: new Date(), isDefault: false }
      : { archivedAt: null, ...(hasDefault ? {} : { isDefault: true }) },
  )
  if (archived && before.isDefault) await promoteOldestLiveCard(db, organizationId, userId)
  return card && { card, changed: true }
}

/**
 * What a shared link opens. `card.id` is the link's reference: the card's id, or the account's
 * name link when a profile stands in for a user without cards. Foreign keys (views, contacts'
 * source card) take `cardId`, which is null for a profile. `ownerStatus` is the owner account's:
 * the card gate (app/cards/card-gate.server.ts) shows nothing of an inactive owner.
 */
export type SharedCard = CardWithImages & {
  cardId: string | null
  ownerStatus: (typeof users.$inferSelect)['status']
}

/**
 * Any card of the organization by its id, with its owner's status. Only the card gate calls
 * this (tests/integration/card-surfaces.test.ts): everyone else's card is shown through it.
 */
export async function findCardById(
  db: Queryable,
  organizationId: string,
  cardId: string,
): Promise<SharedCard | undefined> {
  if (!isUuid(cardId)) return undefined
  const [row] = await selectSharedCards(db)
    .where(and(eq(digitalCards.organizationId, organizationId), eq(digitalCards.id, cardId)))
    .limit(1)
  return row && { ...row, cardId: row.card.id }
}

const askedSlug = alias(cardSlugs, 'asked_slug')

/**
 * A card by a slug of its short link, current or retired (`shortSlug` is the current one: a
 * retired slug's page redirects there). Within one organization; only the card gate calls this.
 */
export async function findCardBySlug(
  db: Queryable,
  organizationId: string,
  slug: string,
): Promise<SharedCard | undefined> {
  if (slug.length > 64) return undefined
  const [row] = await selectSharedCards(db)
    .innerJoin(askedSlug, tenantJoin(askedSlug, digitalCards, askedSlug.cardId, digitalCards.id))
    .where(
      and(
        eq(digitalCards.organizationId, organizationId),
        eq(askedSlug.organizationId, organizationId),
        sql`${askedSlug.slug} = lower(${slug})`,
      ),
    )
    .limit(1)
  return row && { ...row, cardId: row.card.id }
}

const profileLogo = alias(media, 'profile_logo')
const profilePicture = alias(media, 'profile_picture')

/**
 * A card by the reference in a shared link (spec §5, contact lookup): its id, else an account's
 * name link (ADR 027: `users.link_slug`, held by one account with a first and last name; no
 * card's own fields count). The name link opens that account's default card, else (spec §2:
 * "without a card, the profile") its profile once its owner has shared it: finished the profile
 * wizard, or chosen who may see their profile (Privacy settings), which the card gate then
 * applies as it does to cards. An account that did neither (a fresh sign-up, an admin) stays
 * unlisted, so the link does not become a directory of accounts (ADR 009 and its addendum).
 * This is the rule's one home: the QR screen asks it too. Within one organization only; images
 * included. Only the card gate calls this.
 */
export async function findCardByReference(
  db: Queryable,
  organizationId: string,
  reference: string,
): Promise<SharedCard | undefined> {
  if (isUuid(reference)) {
    const byId = await findCardById(db, organizationId, reference)
    if (byId) return byId
  }
  if (reference.length > 200 || !reference.includes('-')) return undefined
  const [holder] = await db
    .select({
      user: users,
      logoUrl: mediaPath(profileLogo),
      profilePictureUrl: mediaPath(profilePicture),
      // A stored privacy choice, whatever it is: the owner has said who may see their profile.
      visibilityChosen: sql<boolean>`exists (
        select 1 from ${userSettings}
        where ${userSettings.organizationId} = ${users.organizationId}
          and ${userSettings.userId} = ${users.id}
          and ${userSettings.preferences} -> 'privacy' is not null)`,
    })
    .from(users)
    .leftJoin(profileLogo, tenantJoin(profileLogo, users, profileLogo.id, users.logoMediaId))
    .leftJoin(
      profilePicture,
      tenantJoin(profilePicture, users, profilePicture.id, users.profilePictureMediaId),
    )
    .where(
      and(eq(users.organizationId, organizationId), sql`${users.linkSlug} = lower(${reference})`),
    )
    .limit(1)
  if (!holder) return undefined
  const { user } = holder
  // An archived card is no one's card to open (ADR 095): without a live one, the profile rule.
  const [card] = await selectCardsWithImages(db)
    .where(ownedLive(organizationId, user.id))
    .orderBy(desc(digitalCards.isDefault), asc(digitalCards.createdAt))
    .limit(1)
  if (card) return { ...card, cardId: card.card.id, ownerStatus: user.status }
  if (!user.linkSlug || !(user.onboardingCompletedAt || holder.visibilityChosen)) return undefined
  return {
    card: profileAsCard(user, user.linkSlug),
    logoUrl: holder.logoUrl,
    profilePictureUrl: holder.profilePictureUrl,
    backgroundImageUrl: null,
    coverUrl: null,
    links: [],
    shortSlug: null,
    cardId: null,
    ownerStatus: user.status,
  }
}

/** The contact details and images a card takes from its owner's profile. */
export function cardFieldsFromProfile(user: typeof users.$inferSelect) {
  return {
    ...contactDetailsOf(user),
    email: user.email,
    logoMediaId: user.logoMediaId,
    profilePictureMediaId: user.profilePictureMediaId,
  }
}

/** A profile dressed as a card (white background, as a new card starts), kept out of search engines. */
function profileAsCard(user: typeof users.$inferSelect, slug: string): DigitalCard {
  return {
    id: slug,
    organizationId: user.organizationId,
    userId: user.id,
    title: defaultCardTitle(user.firstName),
    ...cardFieldsFromProfile(user),
    backgroundKind: 'color',
    backgroundValue: '#ffffff',
    backgroundMediaId: null,
    coverMediaId: null,
    videoProvider: null,
    videoId: null,
    isDefault: false,
    cardType: 'personal',
    noindex: true,
    ...EMPTY_CARD_EXTRAS,
    templateId: null,
    archivedAt: null,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  }
}

/**
 * The organization's cards for the REST API (ADR 092), in (updated at, id) order from a
 * keyset page: every owner's, each with its position for the next page's cursor; only the
 * archived or only the live ones when `archived` says so (ADR 095).
 */
export function listOrganizationCards(
  db: Queryable,
  organizationId: string,
  page: KeysetPage,
  archived?: boolean,
) {
  const set = keyset(digitalCards.updatedAt, digitalCards.id, page)
  const state =
    archived === undefined
      ? undefined
      : archived
        ? isNotNull(digitalCards.archivedAt)
        : isNull(digitalCards.archivedAt)
  return db
    .select({ ...getTableColumns(digitalCards), position: set.position })
    .from(digitalCards)
    .where(and(eq(digitalCards.organizationId, organizationId), state, set.where))
    .orderBy(...set.orderBy)
    .limit(set.limit)
}

/** One card of the organization, whoever owns it (the REST API); undefined for another's. */
export async function findOrganizationCard(db: Queryable, organizationId: string, cardId: string) {
  if (!isUuid(cardId)) return undefined
  const [row] = await db
    .select()
    .from(digitalCards)
    .where(and(eq(digitalCards.organizationId, organizationId), eq(digitalCards.id, cardId)))
  return row
}
