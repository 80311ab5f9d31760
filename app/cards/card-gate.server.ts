// The card gate (issue 26): the one way a card reaches anyone. Every surface that shows or
// encodes a card (the card page and its lead, save and connect actions at /card and /contact,
// the QR screen, the QR PNG and SVG, the vCard and the NFC tag written from it, the link preview,
// the email signature, the sign-in page's "connect with" line) opens it here, and gets it only if
//  1. the card, or the profile behind a name link (ADR 009, ADR 027), is in this organization;
//  2. its owner's account is active: a deactivated user's card is gone everywhere at once; the
//     card page alone (/card, /c, /contact: every shared link, QR and NFC tag and wallet pass
//     leads there) answers instead what the agency chose for that seat (openCardPage, ADR 049),
//     and so does the address of a deleted agency account's public card (ADR 053);
//  3. the owner's visibility lets this viewer see it (card-visibility.ts, §2.6);
//  4. it is not archived (ADR 095): an archived card shows nothing to anyone, its owner
//     included, until it is restored; only the owner's own pages and the agency's API list it;
//  5. and then without the email and phones the owner hid (both phones and WhatsApp links,
//     issue 28), unless the viewer is the owner.
// Anyone refused gets undefined, which every surface answers as the missing-card 404.
// tests/integration/card-surfaces.test.ts finds the routes that reach this module by reading
// the route files, runs each against every visibility and kind of viewer, and fails if any
// other module calls the lookups below.
import type { AppLoadContext } from '@remix-run/node'
import { getOptionalUser } from '#app/auth/guards.server'
import {
  type Forwarding,
  forwardingFor,
  forwardingForDeparted,
} from '#app/cards/card-forwarding.server'
import {
  type CardViewer,
  getOwnerPrivacy,
  mayViewCard,
  visibleLinks,
  withPrivacy,
} from '#app/cards/card-privacy.server'
import { isPublicCard } from '#app/cards/card-visibility'
import { findDepartedAddress } from '#app/models/account-deletions.server'
import {
  findCardById,
  findCardByReference,
  findCardBySlug,
  type SharedCard,
} from '#app/models/cards.server'
import type { User } from '#app/models/users.server'
import type { Queryable } from '#drizzle/db.server'

export type { CardViewer, Forwarding }

/** A card as this viewer may see it. */
export type ShownCard = SharedCard & {
  isOwner: boolean
  /**
   * Shown to anyone with the link. Only such a card may be offered to the page cache or any
   * shared cache: every other answer depends on who asks.
   */
  isPublic: boolean
}

/**
 * By id only (the QR screen, ADR 009), by whatever a `/card/` link carries (an id or a name
 * link), or by a short link's slug, current or retired (ADR 041).
 */
export type CardReference = { id: string } | { reference: string } | { slug: string }

function findCard(db: Queryable, organizationId: string, reference: CardReference) {
  if ('id' in reference) return findCardById(db, organizationId, reference.id)
  if ('slug' in reference) return findCardBySlug(db, organizationId, reference.slug)
  return findCardByReference(db, organizationId, reference.reference)
}

export async function openCard(
  db: Queryable,
  organizationId: string,
  reference: CardReference,
  viewer: CardViewer,
): Promise<ShownCard | undefined> {
  const found = await findCard(db, organizationId, reference)
  if (found?.ownerStatus !== 'active' || found.card.archivedAt) return undefined
  return admit(db, organizationId, found, viewer)
}

/**
 * What a shared link to a card page answers: the card as this viewer may see it, or, when its
 * owner has left (inactive), the forwarding the agency chose for that seat, or undefined (the
 * missing card). A viewer the card was hidden from before gets undefined after too: a forwarding
 * says no more about a card than the card itself did.
 */
export async function openCardPage(
  db: Queryable,
  organizationId: string,
  reference: CardReference,
  viewer: CardViewer,
): Promise<{ card: ShownCard } | { forwarding: Forwarding } | undefined> {
  const found = await findCard(db, organizationId, reference)
  if (!found) return departedForwarding(db, organizationId, reference)
  if (found.card.archivedAt) return undefined
  const ownerId = found.card.userId
  if (found.ownerStatus !== 'active') {
    const privacy = await getOwnerPrivacy(db, organizationId, ownerId)
    if (!(await mayViewCard(db, organizationId, ownerId, privacy, viewer))) return undefined
    return { forwarding: await forwardingFor(db, organizationId, ownerId) }
  }
  const card = await admit(db, organizationId, found, viewer)
  return card && { card }
}

/**
 * An address no live card answers may have been a deleted agency account's public card (ADR
 * 053): it forwards as a deactivated person's would. A live card always wins, so a slug or name
 * link taken again later is the new owner's.
 */
async function departedForwarding(
  db: Queryable,
  organizationId: string,
  reference: CardReference,
): Promise<{ forwarding: Forwarding } | undefined> {
  const departed =
    'id' in reference
      ? await findDepartedAddress(db, organizationId, ['card'], reference.id)
      : 'slug' in reference
        ? await findDepartedAddress(db, organizationId, ['slug'], reference.slug)
        : await findDepartedAddress(db, organizationId, ['card', 'name'], reference.reference)
  if (!departed) return undefined
  return { forwarding: await forwardingForDeparted(db, organizationId, departed.successorId) }
}

async function admit(
  db: Queryable,
  organizationId: string,
  found: SharedCard,
  viewer: CardViewer,
): Promise<ShownCard | undefined> {
  const ownerId = found.card.userId
  const privacy = await getOwnerPrivacy(db, organizationId, ownerId)
  if (!(await mayViewCard(db, organizationId, ownerId, privacy, viewer))) return undefined
  const isOwner = viewer?.id === ownerId
  return {
    ...found,
    card: isOwner ? found.card : withPrivacy(found.card, privacy),
    links: isOwner ? found.links : visibleLinks(found.links, privacy),
    isOwner,
    isPublic: isPublicCard(privacy.visibility),
  }
}

/**
 * The viewer's own card as anyone it is shown to sees it, or undefined for everyone else: the
 * email signature (issue 29), which only its owner builds but which goes to strangers in every
 * email, so it carries no email or phone the owner's privacy settings hide.
 */
export async function openOwnCardAsShown(
  db: Queryable,
  organizationId: string,
  reference: CardReference,
  viewer: CardViewer,
): Promise<ShownCard | undefined> {
  const own = await openCard(db, organizationId, reference, viewer)
  if (!own?.isOwner) return undefined
  const privacy = await getOwnerPrivacy(db, organizationId, own.card.userId)
  return {
    ...own,
    card: withPrivacy(own.card, privacy),
    links: visibleLinks(own.links, privacy),
  }
}

/**
 * A card as the agency's REST API answers it (ADR 092): a key acts for the agency, not for a
 * person, so it gets the card's fields without the email and phones its owner hides from
 * everyone, as on every surface but the owner's own. Visibility is not applied: the agency
 * manages the card (the API writes it too); what the owner hides stays hidden.
 */
export async function cardForAgencyApi<
  T extends {
    userId: string
    email: string
    workEmail: string
    phoneNumber: string
    phone2: string
  },
>(db: Queryable, organizationId: string, card: T): Promise<T> {
  return withPrivacy(card, await getOwnerPrivacy(db, organizationId, card.userId))
}

/**
 * The signed-in viewer of a request to a card surface, or null. Without a session cookie
 * nothing is looked up: the public card page is the product's hot path.
 */
export async function cardViewerOf(
  request: Request,
  context: AppLoadContext,
): Promise<User | null> {
  if (!(request.headers.get('Cookie') ?? '').includes('session')) return null
  return (await getOptionalUser(request, context)).user
}
