// Whether people pay for a plan themselves: with Stripe configured (ADR 051) the upgrade goes
// through Stripe Checkout; without it, paid plans are granted by agency or platform admins only
// (ADR 030) and the upgrade dialog says so.
import { stripeConfig } from '#app/billing/stripe-config.server'

export function canPayOnline() {
  return stripeConfig() !== null
}
