// The payment step of a plan upgrade. There is no payment provider yet (issue 13): this seam
// is where one plugs in (create a checkout or charge the saved method, return its reference).
// Until one collects here, no paid plan is granted by an upgrade (issue 26 point 7): the upgrade
// is refused and an agency or platform admin grants plans from the End Users screen.
import type { PaidPlanId } from './plans'

export type PaymentResult =
  | { status: 'collected'; reference: string }
  | { status: 'unavailable'; reference: null }

/** Whether people can pay for a plan themselves (the upgrade dialog says so when they cannot). */
export function canPayOnline() {
  return false
}

export async function collectPlanPayment(_input: {
  organizationId: string
  userId: string
  plan: PaidPlanId
  amountUsd: number
}): Promise<PaymentResult> {
  return { status: 'unavailable', reference: null }
}
