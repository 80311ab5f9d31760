import { EMPTY_CARD_EXTRAS, type LinkKind, type PhoneType } from '#app/validation/card-details'

/**
 * What a card shows beyond the spec's fields (issue 28), as the browser gets it: already through
 * the card gate, so a hidden phone is blank and a hidden WhatsApp link is gone.
 */
export type CardExtrasView = {
  bio: string
  /** The team or unit under the company (a directory's department, issue 42). */
  department: string
  pronouns: string
  phoneType: PhoneType
  phone2: string
  phone2Type: PhoneType
  addressStreet: string
  addressCity: string
  addressRegion: string
  addressPostalCode: string
  addressCountry: string
  /**
   * On the public card page, a web link's `tapPath` goes through the tap counter
   * (`/card/{ref}/l/{id}`, ADR 082) to its URL; elsewhere links lead straight to it.
   */
  /** The card's video as its page on YouTube or Vimeo (ADR 083), or empty. */
  videoUrl?: string
  links: { kind: LinkKind; label: string; url: string; tapPath?: string | null }[]
}

export const NO_CARD_EXTRAS: CardExtrasView = { ...EMPTY_CARD_EXTRAS, videoUrl: '', links: [] }
