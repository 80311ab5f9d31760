import type { CardWithImages } from '#app/models/cards.server'
import type { CardView } from './card-view'

/** What the browser needs to draw a card: no ids of media, only public paths. */
export function toCardView(row: CardWithImages): CardView & {
  id: string
  title: string
  isDefault: boolean
  email: string
  workEmail: string
  noindex: boolean
} {
  const { card } = row
  return {
    id: card.id,
    title: card.title,
    isDefault: card.isDefault,
    noindex: card.noindex,
    firstName: card.firstName,
    lastName: card.lastName,
    email: card.email,
    workEmail: card.workEmail,
    jobTitle: card.jobTitle,
    company: card.company,
    phoneNumber: card.phoneNumber,
    website: card.website,
    logoUrl: row.logoUrl,
    profilePictureUrl: row.profilePictureUrl,
    coverUrl: row.coverUrl,
    background: {
      kind: card.backgroundKind,
      value: card.backgroundValue,
      imageUrl: row.backgroundImageUrl,
    },
  }
}
