import type { CardExtrasView } from '#app/cards/card-extras'
import type { CardWithImages } from '#app/models/cards.server'
import { storedVideo, videoPageUrl } from '#app/validation/card-video'

/** The extras of a card row (as the gate or the owner's lookup returned it) for the browser. */
export function toCardExtras(row: Pick<CardWithImages, 'card' | 'links'>): CardExtrasView {
  const { card } = row
  const video = storedVideo(card.videoProvider, card.videoId)
  return {
    bio: card.bio,
    department: card.department,
    pronouns: card.pronouns,
    phoneType: card.phoneType,
    phone2: card.phone2,
    phone2Type: card.phone2Type,
    addressStreet: card.addressStreet,
    addressCity: card.addressCity,
    addressRegion: card.addressRegion,
    addressPostalCode: card.addressPostalCode,
    addressCountry: card.addressCountry,
    videoUrl: video ? videoPageUrl(video) : '',
    links: row.links.map(({ kind, label, url }) => ({ kind, label, url })),
  }
}
