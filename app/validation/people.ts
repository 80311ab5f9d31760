// Forms of the super admin's End Users and Admin Team screens (roles doc §5), shared by the
// dialogs and the actions.
import { z } from 'zod'
import { ROLES, type Role } from '#app/auth/roles'
import { emailField } from './auth'
import { plainText } from './text'

export const NAME_TOO_SHORT = 'Name must be at least 2 characters'
export const SELECT_ROLE = 'Please select a role'
export const SELECT_AGENCY = 'Please select an agency'
export const PASSWORD_TOO_SHORT = 'Password must be at least 8 characters'

/** Spec §3: the admin team's titles, stored snake_case (as the agency form's values are). */
export const STAFF_TITLES = {
  team_lead: 'Team Lead',
  administrator: 'Administrator',
  support_manager: 'Support Manager',
  security_officer: 'Security Officer',
  content_manager: 'Content Manager',
} as const
export type StaffTitle = keyof typeof STAFF_TITLES
const STAFF_TITLE_KEYS = Object.keys(STAFF_TITLES) as [StaffTitle, ...StaffTitle[]]

export const staffTitleLabel = (title: string | null) =>
  title && title in STAFF_TITLES ? STAFF_TITLES[title as StaffTitle] : null

/** The platform roles a staff account has (the "Access" of the Admin Team form). */
export const STAFF_ACCESS = ['super_admin', 'super_admin_team'] as const

const rowId = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, message)
    .transform((id) => id.toLowerCase())

const userId = rowId('User ID is required')
/** The account's organization: the super admin acts inside it (withTenant), nowhere else. */
const organizationId = rowId('Organization ID is required')

const name = plainText(200, 'Name must be at most 200 characters', NAME_TOO_SHORT).pipe(
  z.string({ error: NAME_TOO_SHORT }).min(2, NAME_TOO_SHORT),
)

/** A checkbox: present ('on') means true. Spec §5: active defaults to true on the add form. */
const checkbox = z
  .string()
  .optional()
  .transform((value) => value === 'on' || value === 'true')

export const EndUserFieldsSchema = z.object({
  name,
  email: emailField(),
  organizationId: rowId(SELECT_AGENCY),
  active: checkbox,
})

const role = z.enum(ROLES, { error: SELECT_ROLE })

export const EndUsersIntentSchema = z.discriminatedUnion('intent', [
  EndUserFieldsSchema.extend({ intent: z.literal('add-user') }),
  EndUserFieldsSchema.omit({ organizationId: true }).extend({
    intent: z.literal('edit-user'),
    organizationId,
    userId,
  }),
  z.object({
    intent: z.literal('set-status'),
    organizationId,
    userId,
    status: z.enum(['active', 'inactive'], { error: 'Please choose a status' }),
  }),
  z.object({ intent: z.literal('delete-user'), organizationId, userId }),
  z.object({ intent: z.literal('change-role'), organizationId, userId, role }),
])

const password = z
  .string({ error: PASSWORD_TOO_SHORT })
  .min(8, PASSWORD_TOO_SHORT)
  .max(200, 'Password must be at most 200 characters')

const staffFields = {
  name,
  email: emailField(),
  staffTitle: z.enum(STAFF_TITLE_KEYS, { error: SELECT_ROLE }),
  access: z.enum(STAFF_ACCESS, { error: 'Please select an access level' }),
}

export const AdminTeamIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('add-member'), ...staffFields, password }),
  z.object({
    intent: z.literal('edit-member'),
    userId,
    ...staffFields,
    // Spec §5: in edit mode an empty password keeps the current one.
    password: z
      .string()
      .optional()
      .transform((value) => (value ? value : undefined))
      .pipe(password.optional()),
  }),
  z.object({ intent: z.literal('delete-member'), userId }),
  z.object({ intent: z.literal('change-role'), userId, role }),
])

export const STATUS_FILTERS = ['active', 'inactive'] as const

/** `?q=&agency=&status=` of the End Users list and its export. */
export const EndUsersSearchSchema = z.object({
  q: z.string().trim().max(100).catch(''),
  agency: rowId('agency').nullable().catch(null),
  status: z.enum(STATUS_FILTERS).nullable().catch(null),
})

/** `?q=&role=` of the Admin Team list. */
export const AdminTeamSearchSchema = z.object({
  q: z.string().trim().max(100).catch(''),
  role: z.enum(STAFF_ACCESS).nullable().catch(null),
})

/** Roles an account may hold in an organization: super admin roles only on the platform. */
export function rolesFor(kind: 'platform' | 'agency'): readonly Role[] {
  return kind === 'platform'
    ? ROLES
    : ROLES.filter((r) => r !== 'super_admin' && r !== 'super_admin_team')
}
