import type { StoredBackground } from './backgrounds'

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
  background: StoredBackground
}
