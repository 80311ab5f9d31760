// What the billing section shows (ADR 051), shared by its loader and its component.
export type BillingSummary = {
  plan: string
  status: 'active' | 'past_due' | 'canceled' | null
  graceEndsAt: string | null
  card: { brand: string; last4: string; expires: string } | null
  invoices: {
    id: string
    number: string
    date: string
    amount: string
    status: string
    url: string | null
  }[]
  /** Stripe did not answer: the card and invoices are not shown. */
  unavailable: boolean
}
