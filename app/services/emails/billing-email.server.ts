// The payer's emails about a failed payment (ADR 051): the plan stays until the grace period
// ends, then falls back to Free.
import { type EmailBranding, renderActionEmail } from './layout.server'

const day = (date: Date) =>
  date.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  })

export function paymentFailedEmail(options: {
  branding: EmailBranding
  to: string
  firstName: string
  planName: string
  graceEndsAt: Date
  billingUrl: string
}) {
  const { branding, to, firstName, planName, graceEndsAt, billingUrl } = options
  const { html, text } = renderActionEmail({
    branding,
    heading: 'Your payment did not go through',
    paragraphs: [
      `Hi ${firstName || 'there'},`,
      `We could not collect the payment for your ${planName} plan. You keep the plan until ${day(graceEndsAt)}; if the payment has not gone through by then, your account falls back to the Free plan. Your teams and their members are kept either way.`,
      'Update your card to keep your plan.',
    ],
    action: { label: 'Update Billing Info', url: billingUrl },
    footnote: 'You receive this email because you pay for this plan.',
  })
  return { to, subject: `Your ${branding.name} payment did not go through`, html, text }
}

export function planLapsedEmail(options: {
  branding: EmailBranding
  to: string
  firstName: string
  planName: string
  billingUrl: string
}) {
  const { branding, to, firstName, planName, billingUrl } = options
  const { html, text } = renderActionEmail({
    branding,
    heading: 'Your plan is now Free',
    paragraphs: [
      `Hi ${firstName || 'there'},`,
      `The payment for your ${planName} plan was not made within the grace period, so your account is on the Free plan now. Your teams are kept: they are read only while they have more members than your plan allows.`,
      'Pay the open invoice to get your plan back.',
    ],
    action: { label: 'View Invoices', url: billingUrl },
    footnote: 'You receive this email because you paid for this plan.',
  })
  return { to, subject: `Your ${branding.name} plan is now Free`, html, text }
}

/** A reminder during the grace period (ADR 051): the days left before the plan falls to Free. */
export function graceReminderEmail(options: {
  branding: EmailBranding
  to: string
  firstName: string
  planName: string
  graceEndsAt: Date
  billingUrl: string
}) {
  const { branding, to, firstName, planName, graceEndsAt, billingUrl } = options
  const days = Math.max(1, Math.ceil((graceEndsAt.getTime() - Date.now()) / 86_400_000))
  const left = `${days} day${days === 1 ? '' : 's'}`
  const { html, text } = renderActionEmail({
    branding,
    heading: `${left} left to keep your ${planName} plan`,
    paragraphs: [
      `Hi ${firstName || 'there'},`,
      `The payment for your ${planName} plan has still not gone through. On ${day(graceEndsAt)} your account falls back to the Free plan unless the open invoice is paid. Nothing is deleted either way.`,
      'Update your card to keep your plan.',
    ],
    action: { label: 'Update Billing Info', url: billingUrl },
    footnote: 'You receive this email because you pay for this plan.',
  })
  return {
    to,
    subject: `Reminder: ${left} left to keep your ${branding.name} ${planName} plan`,
    html,
    text,
  }
}
