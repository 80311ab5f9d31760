// "Delete my account" (ADR 053): the person's notice of the date and how to cancel, and the
// agency admins' notice once an account of theirs has gone. Both in the agency's branding.
import { ACCOUNT_DELETION_GRACE_DAYS, deletionDay } from '#app/validation/account-deletion'
import { type EmailRecipient, personalEmail } from './layout.server'

export function deletionScheduledEmail(
  options: EmailRecipient & {
    scheduledFor: Date
  },
) {
  const { branding, scheduledFor } = options
  const day = deletionDay(scheduledFor)
  return personalEmail(options, {
    subject: `Your ${branding.name} account will be deleted on ${day}`,
    heading: `Your account will be deleted on ${day}`,
    paragraphs: [
      `You asked us to delete your ${branding.name} account. On ${day} your profile, cards, contacts and images are deleted, and you are signed out everywhere until then.`,
      'Changed your mind, or want a copy of your data first? Sign in before that date: you can download your data and keep your account.',
    ],
    action: { label: 'Sign in to keep my account', url: `${branding.origin}/auth/login` },
    footnote: 'You receive this email because you asked to delete your account.',
  })
}

export function accountDeletedAdminEmail(
  options: EmailRecipient & {
    personName: string
    successorName: string | null
    contactsMoved: number
  },
) {
  const { branding, personName, successorName, contactsMoved } = options
  const contacts = contactsMoved === 1 ? '1 contact' : `${contactsMoved} contacts`
  return personalEmail(options, {
    subject: `${personName} deleted their ${branding.name} account`,
    heading: `${personName} deleted their account`,
    paragraphs: [
      `${personName} asked to delete their account ${ACCOUNT_DELETION_GRACE_DAYS} days ago, and it has now been deleted with their cards and images.`,
      successorName
        ? `${successorName} took over their seat: ${contacts} moved to them, and the links of the deleted cards open ${successorName}'s card.`
        : 'Nobody took over their seat, so their contacts were deleted with the account, and the links of the deleted cards show what your agency chose under When Someone Leaves.',
    ],
    action: { label: 'Open End Users', url: `${branding.origin}/dashboard/agency/users` },
    footnote: 'You receive this email because you are an admin of this agency.',
  })
}

/**
 * The agency's admins hear of a request when it is made, not only once the account has gone:
 * the grace period is their time to hand the seat over (ADR 049) so the company contacts and the
 * printed links go to a colleague instead of with the account.
 */
export function deletionRequestedAdminEmail(
  options: EmailRecipient & {
    personName: string
    scheduledFor: Date
    successorName: string | null
  },
) {
  const { branding, personName, scheduledFor, successorName } = options
  const day = deletionDay(scheduledFor)
  return personalEmail(options, {
    subject: `${personName} asked to delete their ${branding.name} account`,
    heading: `${personName} asked to delete their account`,
    paragraphs: [
      `${personName} asked to delete their account. On ${day} it is deleted with their cards, contacts and images, unless they sign in before then.`,
      successorName
        ? `${successorName} takes over their seat: their company contacts move to ${successorName}, and the links of their cards open ${successorName}'s card.`
        : 'Nobody takes over their seat yet: their company contacts would be deleted with the account. To keep them, choose Hand Over for them on End Users before that date.',
    ],
    action: { label: 'Open End Users', url: `${branding.origin}/dashboard/agency/users` },
    footnote: 'You receive this email because you are an admin of this agency.',
  })
}
