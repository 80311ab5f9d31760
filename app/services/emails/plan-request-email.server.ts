import { type EmailBranding, teamUpdatesEmail } from './layout.server'

/**
 * A paid plan asked for where nobody pays online (ADR 079): the admins are asked, the person is
 * told the answer. Notifications, so each carries the one-click unsubscribe headers (RFC 8058).
 */
export type PlanRequestNotice =
  | { kind: 'asked'; requesterName: string; requesterEmail: string; planName: string }
  | { kind: 'granted' | 'declined'; planName: string; deciderName: string }

function wording(notice: PlanRequestNotice) {
  switch (notice.kind) {
    case 'asked':
      return {
        subject: `${notice.requesterName} asks for the ${notice.planName} plan`,
        heading: 'A plan request is waiting for you',
        line: `${notice.requesterName} (${notice.requesterEmail}) asks for the ${notice.planName} plan. Online payment is not available here, so an administrator grants or declines it.`,
        label: 'Review plan requests',
      }
    case 'granted':
      return {
        subject: `Your ${notice.planName} plan is ready`,
        heading: `You now have the ${notice.planName} plan`,
        line: `${notice.deciderName} granted your request for the ${notice.planName} plan. It applies now.`,
        label: 'Open your plan',
      }
    case 'declined':
      return {
        subject: `Your request for the ${notice.planName} plan was declined`,
        heading: 'Your plan request was declined',
        line: `${notice.deciderName} declined your request for the ${notice.planName} plan. Your plan stays as it was; ask them if you want to know why.`,
        label: 'Open your plan',
      }
  }
}

export function planRequestEmail(options: {
  branding: EmailBranding
  to: string
  firstName: string
  notice: PlanRequestNotice
  /** Where the button leads: the admins' list, or the person's plan page. */
  url: string
  unsubscribeUrl: string
}) {
  const { branding, to, firstName, notice, url, unsubscribeUrl } = options
  const words = wording(notice)
  return teamUpdatesEmail(
    { to, subject: words.subject, unsubscribeUrl },
    {
      branding,
      heading: words.heading,
      paragraphs: [`Hi ${firstName || 'there'},`, words.line],
      action: { label: words.label, url },
    },
  )
}
