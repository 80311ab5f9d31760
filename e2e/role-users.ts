// One account per role for the accessibility crawl (e2e/accessibility.spec.ts): the platform's
// roles on the platform host, the agency roles on Alpha. Only what the specs read: the servers seed
// these accounts with e2e/seed-role-users.ts.
import { HOSTS } from './fixtures'

export type RoleUser = {
  role:
    | 'super_admin'
    | 'super_admin_team'
    | 'agency_admin'
    | 'agency_member'
    | 'team_admin'
    | 'end_user'
  host: string
  email: string
  password: string
  firstName: string
  lastName: string
  /** Whether the account gets a digital card (so card lists, editors and QR pages have one). */
  withCard: boolean
  /**
   * A lead met on that card (issue 41 point 12): the crawls see the contacts list with a card in
   * it and go on to a contact's page, two links from their starts.
   */
  withContact?: boolean
  /**
   * Saved in the account's Appearance from the start: the crawls of a dark account audit (and
   * measure at three widths) every page it reaches in the dark theme.
   */
  theme?: 'dark'
}

const password = 'a11y-pass-1'

export const PLATFORM_ROLE_USERS: readonly RoleUser[] = [
  {
    role: 'super_admin',
    host: HOSTS.platform,
    email: 'a11y-super@e2e.test',
    password,
    firstName: 'Sue',
    lastName: 'Super',
    withCard: false,
  },
  {
    role: 'super_admin_team',
    host: HOSTS.platform,
    email: 'a11y-ops@e2e.test',
    password,
    firstName: 'Otto',
    lastName: 'Ops',
    withCard: true,
    withContact: true,
    // The end-user area's pages (which this role shares with end users) in the dark theme.
    theme: 'dark',
  },
  {
    role: 'end_user',
    host: HOSTS.platform,
    email: 'a11y-pat@e2e.test',
    password,
    firstName: 'Pat',
    lastName: 'Platform',
    withCard: true,
    withContact: true,
  },
]

export const ALPHA_ROLE_USERS: readonly RoleUser[] = [
  {
    role: 'agency_admin',
    host: HOSTS.alpha,
    email: 'a11y-admin@e2e.test',
    password,
    firstName: 'Ada',
    lastName: 'Admin',
    withCard: false,
  },
  {
    role: 'agency_member',
    host: HOSTS.alpha,
    email: 'a11y-member@e2e.test',
    password,
    firstName: 'Mia',
    lastName: 'Member',
    withCard: false,
    // The agency area's pages, which its admin's crawl audits light, in the dark theme.
    theme: 'dark',
  },
  {
    role: 'team_admin',
    host: HOSTS.alpha,
    email: 'a11y-team@e2e.test',
    password,
    firstName: 'Tim',
    lastName: 'Team',
    withCard: true,
  },
  {
    role: 'end_user',
    host: HOSTS.alpha,
    email: 'a11y-alice@e2e.test',
    password,
    firstName: 'Alice',
    lastName: 'Alpha',
    withCard: true,
    withContact: true,
  },
]

export const ROLE_USERS: readonly RoleUser[] = [...PLATFORM_ROLE_USERS, ...ALPHA_ROLE_USERS]

/**
 * Two Alpha accounts only e2e/dashboards.spec.ts uses, so their figures move only with what
 * that spec does: a team member and the end user assigned to them (with one card).
 */
export const DASHBOARD_USERS = {
  teamMember: {
    role: 'team_admin',
    host: HOSTS.alpha,
    email: 'dash-theo@e2e.test',
    password,
    firstName: 'Theo',
    lastName: 'Team',
    withCard: false,
  },
  endUser: {
    role: 'end_user',
    host: HOSTS.alpha,
    email: 'dash-dana@e2e.test',
    password,
    firstName: 'Dana',
    lastName: 'Dash',
    withCard: true,
  },
} as const satisfies Record<string, RoleUser>

/** Accounts only e2e/settings.spec.ts uses, so their settings (dark theme, hidden email) stay theirs. */
export const SETTINGS_USERS = {
  endUser: {
    role: 'end_user',
    host: HOSTS.alpha,
    email: 'set-erin@e2e.test',
    password,
    firstName: 'Erin',
    lastName: 'Settings',
    withCard: true,
  },
  teamMember: {
    role: 'team_admin',
    host: HOSTS.alpha,
    email: 'set-toby@e2e.test',
    password,
    firstName: 'Toby',
    lastName: 'Settings',
    // His card goes 'team' only: Tia, in his team, still sees it (e2e/settings.spec.ts).
    withCard: true,
  },
  teammate: {
    role: 'end_user',
    host: HOSTS.alpha,
    email: 'set-tia@e2e.test',
    password,
    firstName: 'Tia',
    lastName: 'Teammate',
    withCard: false,
  },
  agencyAdmin: {
    role: 'agency_admin',
    host: HOSTS.alpha,
    email: 'set-abe@e2e.test',
    password,
    firstName: 'Abe',
    lastName: 'Settings',
    withCard: false,
  },
  agencyMember: {
    role: 'agency_member',
    host: HOSTS.alpha,
    email: 'set-meg@e2e.test',
    password,
    firstName: 'Meg',
    lastName: 'Settings',
    withCard: false,
  },
} as const satisfies Record<string, RoleUser>

/**
 * Accounts only e2e/crm.spec.ts uses, one per test, so each test's CRM settings, contacts and
 * sync rows are its own: the owner of a card whose leads are forwarded, and an account that only
 * tries keys the fake CRM refuses.
 */
export const CRM_USERS = {
  owner: {
    role: 'end_user',
    host: HOSTS.alpha,
    email: 'crm-cora@e2e.test',
    password,
    firstName: 'Cora',
    lastName: 'Crm',
    withCard: true,
  },
  refused: {
    role: 'end_user',
    host: HOSTS.alpha,
    email: 'crm-ivan@e2e.test',
    password,
    firstName: 'Ivan',
    lastName: 'Refused',
    withCard: false,
  },
  // Connects HubSpot (e2e/crm-hubspot.spec.ts, ADR 094); her card is /card/hana-hubspot.
  hubspot: {
    role: 'end_user',
    host: HOSTS.alpha,
    email: 'crm-hana@e2e.test',
    password,
    firstName: 'Hana',
    lastName: 'Hubspot',
    withCard: true,
  },
} as const satisfies Record<string, RoleUser>
