// The User Accounts tab of /profile (roles doc §2.5): texts, the search schema and row helpers
// shared by the loader and the panel.
import { z } from 'zod'
import { ROLE_NAMES, type Role } from '#app/validation/roles'

export const USER_ACCOUNTS_TAB = 'accounts'
export const USER_ACCOUNTS_PAGE_SIZE = 20

export const ALL_ACCOUNTS_TEXT = 'View all user accounts in the system'
export const ORGANIZATION_ACCOUNTS_TEXT = 'View user accounts in your organization'
export const ACCESS_RESTRICTED_MESSAGE =
  'Access Restricted: You need to be a Super Admin or Agency Admin to view user accounts.'
export const LOAD_FAILED_MESSAGE = 'Failed to fetch user accounts. Please try again.'
export const LOAD_FAILED_TOAST = 'Error loading user accounts.'

/** Roles the tab exists for (spec §2.4, §2.5); everyone else is told access is restricted. */
export const USER_ACCOUNTS_ROLES: readonly Role[] = ['super_admin', 'agency_admin']

/**
 * `?page=` of the profile URL (its `q` is read by readSearch, as every list's). A page that is
 * not a positive whole number is page 1: a link typed by hand is not worth an error.
 */
export const UserAccountsSearchSchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
})

export type UserAccount = {
  id: string
  name: string | null
  email: string
  role: Role
  organizationName: string | null
  pictureUrl: string | null
  initials: string
}

export type UserAccountsData =
  | { status: 'restricted'; message: string }
  | { status: 'error'; message: string }
  | {
      status: 'ok'
      scope: 'platform' | 'organization'
      heading: string
      q: string
      searchError: string | null
      page: number
      pageCount: number
      total: number
      accounts: UserAccount[]
    }

/** Initials from first and last name, else the email's first letter, else 'U' (spec §2.5). */
export function initialsOf(firstName: string, lastName: string, email: string) {
  const fromName = `${firstName.trim().charAt(0)}${lastName.trim().charAt(0)}`
  if (fromName) return fromName.toUpperCase()
  const fromEmail = email.trim().charAt(0)
  return fromEmail ? fromEmail.toUpperCase() : 'U'
}

export function displayName(firstName: string, lastName: string) {
  return `${firstName.trim()} ${lastName.trim()}`.trim() || null
}

/** The role's label and badge colours: each pair keeps at least 4.5:1 contrast, light and dark. */
export const ROLE_BADGES: Record<Role, { label: string; className: string }> = {
  super_admin: {
    label: ROLE_NAMES.super_admin,
    className: 'bg-purple-100 text-purple-800 dark:bg-purple-900 dark:text-purple-100',
  },
  super_admin_team: {
    label: ROLE_NAMES.super_admin_team,
    className: 'bg-indigo-100 text-indigo-800 dark:bg-indigo-900 dark:text-indigo-100',
  },
  agency_admin: {
    label: ROLE_NAMES.agency_admin,
    className: 'bg-blue-100 text-blue-800 dark:bg-blue-900 dark:text-blue-100',
  },
  agency_member: {
    label: ROLE_NAMES.agency_member,
    className: 'bg-cyan-100 text-cyan-900 dark:bg-cyan-900 dark:text-cyan-100',
  },
  team_admin: {
    label: ROLE_NAMES.team_admin,
    className: 'bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100',
  },
  end_user: {
    label: ROLE_NAMES.end_user,
    className: 'bg-green-100 text-green-800 dark:bg-green-900 dark:text-green-100',
  },
}

/** The profile URL of one page of the list, keeping the search. */
export function accountsHref(q: string, page: number) {
  const params = new URLSearchParams({ tab: USER_ACCOUNTS_TAB })
  if (q) params.set('q', q)
  if (page > 1) params.set('page', String(page))
  return `?${params}`
}
