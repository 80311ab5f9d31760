import type { CardArea } from '#app/validation/roles'

export type { CardArea }
export const cardsListPath = (area: CardArea) => `/dashboard/${area}/digital-cards`
export const cardEditPath = (area: CardArea, cardId: string, step?: string) =>
  `${cardsListPath(area)}/edit/${cardId}${step ? `?step=${step}` : ''}`

/**
 * The area a digital-cards URL belongs to. One route module serves both areas' paths (the
 * screens are the same), so the area comes from the path the request was routed by.
 */
export function cardAreaOfPath(pathname: string): CardArea {
  return pathname.startsWith(`${cardsListPath('team-member')}`) ? 'team-member' : 'end-user'
}

/** The card's email signature builder (ADR 044), in the area of its cards list. */
export const cardSignaturePath = (area: CardArea, cardId: string) =>
  `${cardsListPath(area)}/signature/${cardId}`
