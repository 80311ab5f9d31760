// Shared by the audit log page and its loader.
export const AUDIT_PAGE_SIZE = 50

/** The kinds of change, by the action's prefix (`team.member_added` is of kind `team`). */
export const AUDIT_CATEGORIES = [
  { id: 'user', label: 'Accounts and roles' },
  { id: 'staff', label: 'Platform staff' },
  { id: 'agency', label: 'Agencies' },
  { id: 'team', label: 'Teams and invitations' },
  { id: 'branding', label: 'Branding' },
  { id: 'domain', label: 'Custom domains' },
  { id: 'sso', label: 'Single sign-on' },
  { id: 'plan', label: 'Plans' },
  { id: 'settings', label: 'Settings' },
  { id: 'card', label: 'Cards' },
  { id: 'profile', label: 'Profiles' },
  { id: 'password', label: 'Passwords' },
  { id: 'two_factor', label: 'Two-factor sign-in' },
  { id: 'email', label: 'Email addresses' },
  { id: 'notifications', label: 'Notifications' },
  { id: 'scim', label: 'Directory sync' },
] as const

/** Words the action codes abbreviate, as a reader writes them. */
const WORDS: Record<string, string> = {
  crm: 'CRM',
  sso: 'SSO',
  two_factor: 'two-factor sign-in',
  data_export: 'data export',
  totp: 'authenticator app',
  url: 'URL',
  api: 'API',
  scim: 'SCIM',
}

/**
 * An action code as a sentence (issue 41 point 17): `user.seat_handed_over` reads "User seat
 * handed over", `crm.settings_updated` "CRM settings updated". The code stays beside it, as the
 * filter and the exports name it.
 */
export function auditActionLabel(action: string) {
  const words = action
    .split('.')
    .flatMap((part) =>
      WORDS[part] ? [WORDS[part]] : part.split('_').map((word) => WORDS[word] ?? word),
    )
    .filter(Boolean)
    .join(' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}
