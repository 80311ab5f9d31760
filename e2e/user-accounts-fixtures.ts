// Accounts for the User Accounts tab (e2e/user-accounts.spec.ts): enough in Alpha for two pages
// of one search, and one in Beta that only the platform's super admin may see. The servers seed
// them with e2e/seed-fixtures.ts.

export const ROSTER_SEARCH = 'roster'
export const ALPHA_ROSTER_SIZE = 22
export const BETA_ROSTER_EMAIL = 'beta-roster@e2e.test'
/** Alpha's first roster account has no name: the list says 'Unnamed User'. */
export const UNNAMED_ROSTER_EMAIL = 'roster-01@e2e.test'
