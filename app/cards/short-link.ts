// A card's short link and what a QR code carries of it (issue 28 point 3, ADR 041).
import { withSource } from '#app/utils/view-sources'

/** The short links' path prefix: one letter, so the address stays short and readable. */
export const SHORT_LINK_PREFIX = '/c/'

export const shortLinkPath = (slug: string) => `${SHORT_LINK_PREFIX}${slug}`

/**
 * The address a card is shared by: its short link, else (a profile standing in for a card, or
 * a card from before short links) `/card/{reference}`.
 */
export function cardLinkPath(card: { id: string }, shortSlug: string | null | undefined) {
  return shortSlug ? shortLinkPath(shortSlug) : `/card/${encodeURIComponent(card.id)}`
}

/**
 * What a QR code encodes for a link. A short link is written in capitals: every character of
 * `HTTPS://HOST/C/SLUG` is in QR alphanumeric mode's set (5.5 bits a character against byte
 * mode's 8), which keeps a host of 20 at version 4, level H. Schemes and hosts ignore case, and
 * the short link's route matches its path in any case (app/routes/c.$slug.tsx).
 */
export function qrTextOf(url: string) {
  const parsed = URL.canParse(url) ? new URL(url) : null
  // A link that is not a short link (a profile standing in for a card) carries the QR marker.
  if (!parsed?.pathname.startsWith(SHORT_LINK_PREFIX)) return withSource(url, 'qr')
  // The capitals are also what counts a scan as the QR code's (app/utils/view-sources.ts).
  return url.toUpperCase()
}

/** The absolute address a card is shared by, on its tenant's origin. */
export const cardLinkUrl = (
  origin: string,
  row: { card: { id: string }; shortSlug: string | null | undefined },
) => `${origin}${cardLinkPath(row.card, row.shortSlug)}`
