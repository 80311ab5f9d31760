// Activity rows of the profile pages: a readable label per audit action and a relative time.

const LABELS: Record<string, string> = {
  'profile.updated': 'Updated your profile',
  'password.changed': 'Changed your password',
  'sso.account_created': 'Signed in with single sign-on for the first time',
  'sso.account_refused': 'Single sign-on turned a new person away: no free seat on the plan',
  'account.deletion_scheduled': 'Asked to delete your account',
  'account.deletion_cancelled': 'Cancelled the deletion of your account by signing in',
  'account.deletion_refused': 'An account deletion was refused: it would have left no admin',
  'account.deleted': 'An account was deleted at its owner’s request',
  'two_factor.enabled': 'Turned on two-factor authentication',
  'two_factor.disabled': 'Turned off two-factor authentication',
  'two_factor.recovery_codes_regenerated': 'Made new recovery codes',
  'two_factor.recovery_code_used': 'Signed in with a recovery code',
  'two_factor.passkey_added': 'Added a passkey',
  'two_factor.passkey_removed': 'Removed a passkey',
  'two_factor.passkey_used': 'Signed in with a passkey',
  'email.changed': 'Changed your email address',
  'data_export.requested': 'Asked for a copy of your data',
  'data_export.downloaded': 'Downloaded a copy of your data',
  'email.confirmed': 'Confirmed your email address',
  'card.created': 'Created a digital card',
  'card.updated': 'Updated a digital card',
  'card.deleted': 'Deleted a digital card',
  'card.archived': 'Archived a digital card',
  'card.restored': 'Restored an archived digital card',
  'card.default_set': 'Changed your default card',
  'card.background_set': 'Changed a card background',
  'card.short_link_set': "Changed a card's short link",
  'notifications.updated': 'Changed your notification preferences',
  'notifications.unsubscribed': 'Turned off notifications from an email link',
  'crm.settings_updated': 'Changed your CRM settings',
  'settings.updated': 'Changed your settings',
  'plan.upgraded': 'Upgraded your plan',
  'plan.changed': 'Changed your plan',
  'plan.cancelled': 'Cancelled your plan',
  'plan.payment_failed': 'A plan payment failed',
  'plan.payment_recovered': 'Paid for your plan again',
  'plan.lapsed': 'Your plan fell back to Free',
  'plan.requested': 'Asked your administrators for a paid plan',
  'plan.request_withdrawn': 'Withdrew a plan request',
  'plan.request_granted': 'Granted a plan request',
  'plan.request_declined': 'Declined a plan request',
  'plan.granted': 'Granted a paid plan',
  'branding.updated': 'Updated the agency branding',
  'languages.updated': 'Changed the languages of the visitor pages',
  'domain.changed': 'Changed the custom domain',
  'sending_domain.added': 'Added a sending domain',
  'sending_domain.removed': 'Removed a sending domain',
  'consent.updated': 'Changed the lead form consent text',
  'lead.deleted': 'A lead deleted their data through their receipt link',
  'team.created': 'Created a team',
  'team.updated': 'Updated a team',
  'team.deleted': 'Deleted a team',
  'team.member_added': 'Added a team member',
  'team.member_removed': 'Removed a team member',
  'team.member_role_changed': "Changed a team member's role",
  'team.invitation_created': 'Invited someone to a team',
  'team.invitation_cancelled': 'Cancelled a team invitation',
  'team.invitation_accepted': 'Accepted a team invitation',
  'team.invitation_declined': 'Declined a team invitation',
  'user.created': 'Created a user account',
  'user.seat_handed_over': "Handed a person's cards and contacts over to a successor",
  'user.seat_successor_cleared': "Cleared a departed person's successor",
  'user.personal_card_claimed': 'Created a personal card to keep after leaving',
  'personal_card.updated': 'A personal card was edited by its owner',
  'personal_card.removed': 'A personal card was removed by its owner',
  'settings.seat_forwarding_updated': "Changed what a departed person's card links open",
  'announcement.sent': 'Sent an announcement',
  'card_template.created': 'Created a card template',
  'card_template.updated': 'Updated a card template',
  'card_template.deleted': 'Deleted a card template',
  'card_template.applied': 'Applied a card template to existing cards',
  'card_template.cards_reset': 'Reset cards to their template',
}

// Words the fallback writes in capitals, as the product does everywhere else.
const ACRONYMS = new Set(['crm', 'api', 'url', 'nfc', 'qr', 'csv', 'dns', 'txt'])

/** 'card.background_set' → 'Card background set' when there is no label of its own. */
export function activityLabel(action: string) {
  const known = LABELS[action]
  if (known) return known
  const words = action
    .split(/[._-]+/)
    .filter(Boolean)
    .map((word) => (ACRONYMS.has(word.toLowerCase()) ? word.toUpperCase() : word))
    .join(' ')
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Activity'
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
]

const formatter = new Intl.RelativeTimeFormat('en', { numeric: 'auto' })

/** 'just now', '5 minutes ago', 'yesterday', '3 weeks ago'... */
export function relativeTime(date: Date, now: Date = new Date()) {
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000)
  const magnitude = Math.abs(seconds)
  if (magnitude < 45) return 'just now'
  for (const [unit, size] of UNITS) {
    if (magnitude >= size) return formatter.format(Math.round(seconds / size), unit)
  }
  return formatter.format(Math.round(seconds / 60), 'minute')
}
