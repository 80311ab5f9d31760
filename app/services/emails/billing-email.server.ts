// The payer's emails about a failed payment (ADR 051): the plan stays until the grace period
// ends, then falls back to Free.
import { longDate } from '#app/validation/dates'
import { type EmailRecipient, personalEmail } from './layout.server'

export function paymentFailedEmail(
  options: EmailRecipient & {
    planName: string
    graceEndsAt: Date
    billingUrl: string
  },
) {
  const { branding, planName, graceEndsAt, billingUrl } = options
  return personalEmail(options, {
    subject: `Your ${branding.name} payment did not go through`,
    heading: 'Your payment did not go through',
    paragraphs: [
      `We could not collect the payment for your ${planName} plan. You keep the plan until ${longDate(graceEndsAt)}; if the payment has not gone through by then, your account falls back to the Free plan. Your teams and their members are kept either way.`,
      'Update your card to keep your plan.',
    ],
    action: { label: 'Update Billing Info', url: billingUrl },
    footnote: 'You receive this email because you pay for this plan.',
  })
}

export function planLapsedEmail(
  options: EmailRecipient & {
    planName: string
    billingUrl: string
  },
) {
  const { branding, planName, billingUrl } = options
  return personalEmail(options, {
    subject: `Your ${branding.name} plan is now Free`,
    heading: 'Your plan is now Free',
    paragraphs: [
      `The payment for your ${planName} plan was not made within the grace period, so your account is on the Free plan now. Your teams are kept: they are read only while they have more members than your plan allows.`,
      'Pay the open invoice to get your plan back.',
    ],
    action: { label: 'View Invoices', url: billingUrl },
    footnote: 'You receive this email because you paid for this plan.',
  })
}

/** A reminder during the grace period (ADR 051): the days left before the plan falls to Free. */
export function graceReminderEmail(
  options: EmailRecipient & {
    planName: string
    graceEndsAt: Date
    billingUrl: string
  },
) {
  const { branding, planName, graceEndsAt, billingUrl } = options
  const days = Math.max(1, Math.ceil((graceEndsAt.getTime() - Date.now()) / 86_400_000))
  const left = `${days} day${days === 1 ? '' : 's'}`
  return personalEmail(options, {
    subject: `Reminder: ${left} left to keep your ${branding.name} ${planName} plan`,
    heading: `${left} left to keep your ${planName} plan`,
    paragraphs: [
      `The payment for your ${planName} plan has still not gone through. On ${longDate(graceEndsAt)} your account falls back to the Free plan unless the open invoice is paid. Nothing is deleted either way.`,
      'Update your card to keep your plan.',
    ],
    action: { label: 'Update Billing Info', url: billingUrl },
    footnote: 'You receive this email because you pay for this plan.',
  })
}
