import type { CardExtrasView } from '#app/cards/card-extras'
import type { CardWithImages } from '#app/models/cards.server'
import { writeCardUnderTemplate } from '#app/templates/template-locks.server'
import type { CardExtras } from '#app/validation/card-details'
import type { Queryable } from '#drizzle/db.server'

/** The extras of a card row (as the gate or the owner's lookup returned it) for the browser. */
export function toCardExtras(row: Pick<CardWithImages, 'card' | 'links'>): CardExtrasView {
  const { card } = row
  return {
    bio: card.bio,
    pronouns: card.pronouns,
    phoneType: card.phoneType,
    phone2: card.phone2,
    phone2Type: card.phone2Type,
    addressStreet: card.addressStreet,
    addressCity: card.addressCity,
    addressRegion: card.addressRegion,
    addressPostalCode: card.addressPostalCode,
    addressCountry: card.addressCountry,
    links: row.links.map(({ kind, label, url }) => ({ kind, label, url })),
  }
}

/**
 * Writes a card's details and its links together (the profile's card details form), only if the
 * card is this user's own in this organization: false otherwise, and nothing is written. The
 * card's template keeps its locked fields (ADR 048).
 */
export async function writeCardExtras(
  tx: Queryable,
  organizationId: string,
  userId: string,
  cardId: string,
  { links, ...fields }: CardExtras,
) {
  const written = await writeCardUnderTemplate(tx, organizationId, userId, cardId, {
    fields,
    links,
  })
  return written !== undefined
}
