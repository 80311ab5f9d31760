import type { StoredBackground } from '#app/validation/backgrounds'

/** What the browser needs to draw a card (the server builds it in card-view.server.ts). */
export type CardView = {
  firstName: string
  lastName: string
  jobTitle: string
  company: string
  phoneNumber: string
  website: string
  logoUrl: string | null
  profilePictureUrl: string | null
  /** The cover image across the card's top (issue 41 point 6, ADR 083), or none. */
  coverUrl?: string | null
  background: StoredBackground
}

/** The card's title line: "job title at company", either alone, or empty. */
export function cardTitleLine(card: { jobTitle: string; company: string }) {
  return [card.jobTitle, card.company].filter(Boolean).join(' at ')
}

/** A bio on one line, as a preview shows it (a textarea's line breaks become spaces). */
export function bioLine(bio: string) {
  return bio.replace(/\s+/g, ' ').trim()
}

/**
 * What a link preview says about the card (meta description, og:description): the owner's
 * headline or bio when there is one (issue 28), else the title line, else the product's words.
 * Given the card as the gate shows it, so nothing hidden from this viewer can reach it.
 */
export function cardSummary(card: { jobTitle: string; company: string; bio: string }) {
  return bioLine(card.bio) || cardTitleLine(card) || 'Digital business card'
}
