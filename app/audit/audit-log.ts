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
  { id: 'plan', label: 'Plans' },
  { id: 'settings', label: 'Settings' },
  { id: 'card', label: 'Cards' },
  { id: 'profile', label: 'Profiles' },
  { id: 'password', label: 'Passwords' },
  { id: 'two_factor', label: 'Two-factor sign-in' },
  { id: 'email', label: 'Email addresses' },
  { id: 'notifications', label: 'Notifications' },
] as const
