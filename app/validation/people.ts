// Forms of the End Users and staff (Admin Team, agency Team Members) screens (roles doc §5),
// shared by the dialogs and the actions: the super admin's and the agency's.
import { z } from 'zod'
import { PLAN_IDS } from '#app/validation/plans'
import { ROLES, type Role } from '#app/validation/roles'
import { emailField } from './auth'
import { NAME_MAX_LENGTH, nameField } from './names'
import { staffPasswordField } from './passwords'
import { ClearSuccessorSchema, HandOverSchema, SetForwardingSchema } from './seat-forwarding'

export const SELECT_ROLE = 'Please select a role'
export const SELECT_AGENCY = 'Please select an agency'

/** Spec §3: the admin team's titles, stored snake_case (as the agency form's values are). */
export const STAFF_TITLES = {
  team_lead: 'Team Lead',
  administrator: 'Administrator',
  support_manager: 'Support Manager',
  security_officer: 'Security Officer',
  content_manager: 'Content Manager',
} as const
export type StaffTitle = keyof typeof STAFF_TITLES

export const staffTitleLabel = (title: string | null) =>
  title && title in STAFF_TITLES ? STAFF_TITLES[title as StaffTitle] : null

/** The platform roles a staff account has (the "Access" of the Admin Team form). */
export const STAFF_ACCESS = ['super_admin', 'super_admin_team'] as const

/** Spec §3: the agency team member's titles; the form's values are snake_case. */
export const AGENCY_STAFF_TITLES = {
  account_manager: 'Account Manager',
  content_creator: 'Content Creator',
  designer: 'Designer',
  developer: 'Developer',
  marketing_specialist: 'Marketing Specialist',
} as const

/**
 * The agency's Team Members (the "Access" of its form): its staff, and its team members in the
 * spec's sense (role team_admin, "Team Member", §2.13), who look after assigned end users. An end
 * user promoted to team_admin moves here from End Users and can be changed back from here.
 */
// The add form preselects the last one: agency_member, the least of the agency's staff roles.
export const AGENCY_STAFF_ACCESS = ['agency_admin', 'team_admin', 'agency_member'] as const

/**
 * The super admin's End Users (spec §2.11, §6 "sees all user accounts"): every account of every
 * organization except the platform's staff, who are on the Admin Team; the role is shown.
 */
export const USER_LIST_ROLES = ['end_user', 'team_admin', 'agency_admin', 'agency_member'] as const

/**
 * A staff directory: whose staff a Team screen lists (the platform's Admin Team, an agency's
 * Team Members), the titles and access levels its form offers, and its words.
 */
export const STAFF_DIRECTORIES = {
  platform: {
    title: 'Admin Team',
    description: "The platform's staff accounts and what they may do.",
    account: 'platform staff account',
    newAccount: 'a platform staff account',
    titles: STAFF_TITLES as Record<string, string>,
    access: STAFF_ACCESS as readonly Role[],
    roleChoices: STAFF_ACCESS as readonly Role[],
    // Spec §5: the Admin Team form asks a password.
    emailsSetPasswordLink: false,
  },
  agency: {
    title: 'Team Members',
    description: "Your agency's staff accounts and what they may do.",
    account: 'agency staff account',
    newAccount: 'an agency staff account',
    titles: AGENCY_STAFF_TITLES as Record<string, string>,
    access: AGENCY_STAFF_ACCESS as readonly Role[],
    // Change Role may also make a team member an end user again (who then moves to End Users).
    roleChoices: [...AGENCY_STAFF_ACCESS, 'end_user'] as readonly Role[],
    // A blank password on Add emails the new member a link to choose one (SET_PASSWORD_LINK).
    emailsSetPasswordLink: true,
  },
} as const
export type StaffDirectoryName = keyof typeof STAFF_DIRECTORIES

export const directoryTitleLabel = (directory: StaffDirectoryName, title: string | null) =>
  title && title in STAFF_DIRECTORIES[directory].titles
    ? (STAFF_DIRECTORIES[directory].titles[title] ?? null)
    : null

const rowId = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, message)
    .transform((id) => id.toLowerCase())

const userId = rowId('User ID is required')
/** The account's organization: the super admin acts inside it (withTenant), nowhere else. */
const organizationId = rowId('Organization ID is required')

const name = nameField('Name', NAME_MAX_LENGTH.fullName)

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

export const SELECT_PLAN = 'Please choose a plan'
/** Change Plan: an admin grants (or takes back) a paid plan; nobody pays online yet. */
const plan = z.enum(PLAN_IDS, { error: SELECT_PLAN })

/** The super admin's Add User dialog (a member of the action's EndUsersIntentSchema). */
export const AddUserSchema = EndUserFieldsSchema.extend({ intent: z.literal('add-user') })
/** The super admin's Edit User dialog: the organization is the account's, not chosen. */
export const EditUserSchema = EndUserFieldsSchema.omit({ organizationId: true }).extend({
  intent: z.literal('edit-user'),
  organizationId,
  userId,
})

/** A plan request's answer, in one click (ADR 079): on either End Users screen. */
export const DecidePlanRequestSchema = z.object({
  intent: z.literal('decide-plan-request'),
  requestId: rowId('Request ID is required'),
  decision: z.enum(['granted', 'declined'], { error: 'Please grant or decline' }),
})

export const EndUsersIntentSchema = z.discriminatedUnion('intent', [
  AddUserSchema,
  EditUserSchema,
  z.object({
    intent: z.literal('set-status'),
    organizationId,
    userId,
    status: z.enum(['active', 'inactive'], { error: 'Please choose a status' }),
  }),
  z.object({ intent: z.literal('delete-user'), organizationId, userId }),
  z.object({ intent: z.literal('change-role'), organizationId, userId, role }),
  z.object({ intent: z.literal('set-plan'), organizationId, userId, plan }),
  DecidePlanRequestSchema,
])

const password = staffPasswordField()

const keysOf = (record: Record<string, string>) => Object.keys(record) as [string, ...string[]]

const optionalPassword = z
  .string()
  .optional()
  .transform((value) => (value ? value : undefined))
  .pipe(password.optional())

/** A staff directory's Add and Edit Team Member forms, its titles and access levels enforced. */
function staffFormSchemas(directory: StaffDirectoryName) {
  const { titles, access, emailsSetPasswordLink } = STAFF_DIRECTORIES[directory]
  const staffFields = {
    name,
    email: emailField(),
    staffTitle: z.enum(keysOf(titles), { error: SELECT_ROLE }),
    access: z.enum(access as [Role, ...Role[]], { error: 'Please select an access level' }),
  }
  return {
    add: z.object({
      intent: z.literal('add-member'),
      ...staffFields,
      password: emailsSetPasswordLink ? optionalPassword : password,
    }),
    edit: z.object({
      intent: z.literal('edit-member'),
      userId,
      ...staffFields,
      // Spec §5: in edit mode an empty password keeps the current one.
      password: optionalPassword,
    }),
  }
}

/** The member form's schemas per directory: the dialogs and the actions' unions share them. */
export const STAFF_FORM_SCHEMAS = {
  platform: staffFormSchemas('platform'),
  agency: staffFormSchemas('agency'),
}

/** The intents of a staff directory's screen. */
function staffIntentSchema(directory: StaffDirectoryName) {
  const forms = STAFF_FORM_SCHEMAS[directory]
  return z.discriminatedUnion('intent', [
    forms.add,
    forms.edit,
    z.object({ intent: z.literal('delete-member'), userId }),
    z.object({ intent: z.literal('change-role'), userId, role }),
  ])
}

export const AdminTeamIntentSchema = staffIntentSchema('platform')

/** A team member's own plan (ADR 051), granted by an agency admin on Team Members. */
export const MEMBER_PLAN_CHOICES = ['free', 'team_member_basic'] as const
export const SetMemberPlanSchema = z.object({
  intent: z.literal('set-member-plan'),
  userId,
  plan: z.enum(MEMBER_PLAN_CHOICES, { error: SELECT_PLAN }),
})

/** The agency's Team Members: the staff intents and a team member's plan. */
export const AgencyTeamIntentSchema = z.discriminatedUnion('intent', [
  ...staffIntentSchema('agency').options,
  SetMemberPlanSchema,
])

/** The team member (role team_admin) an end user is assigned to; empty: nobody. */
const assignee = z
  .string()
  .optional()
  .transform((value) => (value ? value : null))
  .pipe(rowId('Please select a team member').nullable())

/**
 * The agency's End Users (spec §2.12): the super admin's intents, the organization fixed to the
 * agency's own (never read from the form), plus the assignment to a team member.
 */
const agencyUserFields = { name, email: emailField(), active: checkbox, assignedToUserId: assignee }
/** The agency's Add User dialog (a member of AgencyEndUsersIntentSchema). */
export const AgencyAddUserSchema = z.object({ intent: z.literal('add-user'), ...agencyUserFields })
/** The agency's Edit User dialog. */
export const AgencyEditUserSchema = z.object({
  intent: z.literal('edit-user'),
  userId,
  ...agencyUserFields,
})

export const AgencyEndUsersIntentSchema = z.discriminatedUnion('intent', [
  AgencyAddUserSchema,
  AgencyEditUserSchema,
  z.object({ intent: z.literal('assign-user'), userId, assignedToUserId: assignee }),
  z.object({
    intent: z.literal('set-status'),
    userId,
    status: z.enum(['active', 'inactive'], { error: 'Please choose a status' }),
  }),
  z.object({ intent: z.literal('delete-user'), userId }),
  z.object({ intent: z.literal('change-role'), userId, role }),
  z.object({ intent: z.literal('set-plan'), userId, plan }),
  DecidePlanRequestSchema,
  // Cards that outlive a seat (issue 31, ADR 049): the agency's screen only.
  HandOverSchema,
  SetForwardingSchema,
  ClearSuccessorSchema,
])

export const STATUS_FILTERS = ['active', 'inactive'] as const

// The filters of the lists; their `q` is read by readSearch (validation/search.ts), the same
// way as every list's.

/** `?agency=&status=&role=` of the End Users list and its export. */
export const EndUsersSearchSchema = z.object({
  agency: rowId('agency').nullable().catch(null),
  status: z.enum(STATUS_FILTERS).nullable().catch(null),
  role: z.enum(USER_LIST_ROLES).nullable().catch(null),
})

/** `?role=` of the Admin Team list. */
export const AdminTeamSearchSchema = z.object({
  role: z.enum(STAFF_ACCESS).nullable().catch(null),
})

/** `?role=` of the agency's Team Members list. */
export const AgencyTeamSearchSchema = z.object({
  role: z.enum(AGENCY_STAFF_ACCESS).nullable().catch(null),
})

/** `?status=&assignee=` of the agency's End Users list and its export. */
export const AgencyEndUsersSearchSchema = z.object({
  status: z.enum(STATUS_FILTERS).nullable().catch(null),
  assignee: rowId('assignee').nullable().catch(null),
})

/** Roles an account may hold in an organization: super admin roles only on the platform. */
export function rolesFor(kind: 'platform' | 'agency'): readonly Role[] {
  return kind === 'platform'
    ? ROLES
    : ROLES.filter((r) => r !== 'super_admin' && r !== 'super_admin_team')
}
