import type { CardArea } from '#app/auth/roles'

export type { CardArea }
export const cardsListPath = (area: CardArea) => `/dashboard/${area}/digital-cards`
export const cardEditPath = (area: CardArea, cardId: string, step?: string) =>
  `${cardsListPath(area)}/edit/${cardId}${step ? `?step=${step}` : ''}`
