// The payment step of a plan upgrade. There is no payment provider yet (issue 13): this seam
// is where one plugs in (create a checkout or charge the saved method, return its reference).
// Until then every upgrade is recorded in the audit log with `payment: 'none'`, so the plans
// people chose can be billed or reconciled later.
import type { PaidPlanId } from './plans'

export type PaymentResult = { status: 'not-collected'; reference: null }

export async function collectPlanPayment(_input: {
  organizationId: string
  userId: string
  plan: PaidPlanId
  amountUsd: number
}): Promise<PaymentResult> {
  return { status: 'not-collected', reference: null }
}
