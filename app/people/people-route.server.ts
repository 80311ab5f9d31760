// Loaders and actions of the people screens: the super admin's /dashboard/super-admin/users
// (with its CSV export) and /dashboard/super-admin/team, and the agency's /dashboard/agency/users
// (with its CSV export) and /dashboard/agency/team. The route modules only wire these.
import { type AppLoadContext, data } from '@remix-run/node'
import { intentAction, postedUrl } from '#app/actions/intent-action.server'
import { requireAgencyStaff, requirePlatformAdmin } from '#app/auth/guards.server'
import {
  decideOwnOrganizationPlanRequest,
  readPlanRequests,
} from '#app/billing/upgrade-requests.server'
import { csvResponse } from '#app/utils/csv-response.server'
import { refusedExport } from '#app/utils/refused-export.server'
import {
  AdminTeamIntentSchema,
  AdminTeamSearchSchema,
  AGENCY_STAFF_ACCESS,
  AgencyEndUsersIntentSchema,
  AgencyEndUsersSearchSchema,
  AgencyTeamIntentSchema,
  AgencyTeamSearchSchema,
  directoryTitleLabel,
  EndUsersIntentSchema,
  EndUsersSearchSchema,
  rolesFor,
  STAFF_DIRECTORIES,
  staffTitleLabel,
  USER_LIST_ROLES,
} from '#app/validation/people'
import { readSearch } from '#app/validation/search'
import {
  type Actor,
  type Admin,
  addEndUser,
  addStaffMember,
  assignEndUser,
  changeAccountRole,
  clearEndUserSuccessor,
  deleteEndUser,
  deleteStaffMember,
  EXPORT_LIMIT,
  editEndUser,
  editStaffMember,
  handOverEndUserSeat,
  readAgencyChoices,
  readEndUsers,
  readOrganizationEndUsers,
  readSeatForwardingChoices,
  readStaff,
  readTeamMemberChoices,
  roleLabel,
  setAccountPlan,
  setEndUserStatus,
  setSeatForwarding,
  setTeamMemberPlan,
  toPerson,
} from './manage-people.server'

export const END_USERS_PATH = '/dashboard/super-admin/users'
export const ADMIN_TEAM_PATH = '/dashboard/super-admin/team'
export const AGENCY_END_USERS_PATH = '/dashboard/agency/users'
export const AGENCY_TEAM_PATH = '/dashboard/agency/team'

/** No rows: a search over the limit searches nothing (validation/search.ts). */
const NOTHING = { rows: [], total: 0 } as const

function endUserFilter(request: Request) {
  const params = new URL(request.url).searchParams
  const { q, searchError } = readSearch(params)
  const parsed = EndUsersSearchSchema.parse({
    agency: params.get('agency') || null,
    status: params.get('status') || null,
    role: params.get('role') || null,
  })
  return {
    search: q,
    searchError,
    organizationId: parsed.agency,
    status: parsed.status,
    role: parsed.role,
    roles: USER_LIST_ROLES,
  }
}

export async function endUsersLoader(request: Request, context: AppLoadContext) {
  const admin: Admin = await requirePlatformAdmin(request, context)
  const filter = endUserFilter(request)
  const [{ rows, total }, agencies] = await Promise.all([
    filter.searchError ? NOTHING : readEndUsers(admin, filter),
    readAgencyChoices(admin),
  ])
  return data({
    users: rows.map(toPerson),
    total,
    filter: { ...filter, roles: undefined },
    listRoles: USER_LIST_ROLES,
    agencies,
    // The platform's own end users' plan requests (ADR 079): its super admins answer them.
    planRequests: await readPlanRequests(admin),
    now: new Date().toISOString(),
  })
}

/** The (filtered) End Users list as CSV: every cell quoted and formula-safe. */
export async function endUsersCsvLoader(request: Request, context: AppLoadContext) {
  const admin: Admin = await requirePlatformAdmin(request, context)
  const filter = endUserFilter(request)
  if (filter.searchError) return refusedExport(filter.searchError)
  const { rows } = await readEndUsers(admin, filter, EXPORT_LIMIT)
  const lines = [
    ['Name', 'Email', 'Agency', 'Role', 'Status', 'Last Active', 'Created'],
    ...rows.map((row) => {
      const person = toPerson(row)
      return [
        person.name,
        person.email,
        person.agency,
        roleLabel(person.role),
        person.status,
        person.lastActiveAt ?? '',
        row.createdAt.toISOString(),
      ]
    }),
  ]
  return csvResponse(lines, 'end-users.csv')
}

export async function adminTeamLoader(request: Request, context: AppLoadContext) {
  const admin: Admin = await requirePlatformAdmin(request, context)
  const params = new URL(request.url).searchParams
  const { q, searchError } = readSearch(params)
  const { role } = AdminTeamSearchSchema.parse({ role: params.get('role') || null })
  const filter = { q, searchError, role }
  const rows = searchError ? [] : await readStaff(admin, { search: q, role })
  return data({
    members: rows.map((row) => ({
      ...toPerson(row),
      staffTitleLabel: staffTitleLabel(row.staffTitle),
    })),
    filter,
    selfId: admin.user.id,
    now: new Date().toISOString(),
  })
}

export async function endUsersAction(request: Request, context: AppLoadContext) {
  return intentAction(request, {
    guard: (): Promise<Admin> => requirePlatformAdmin(request, context),
    schema: EndUsersIntentSchema,
    intents: {
      'add-user': (value, admin) => addEndUser(admin, value),
      // Every account but the platform's staff (spec §6: the super admin sees all accounts).
      'edit-user': (value, admin) => editEndUser(admin, value, USER_LIST_ROLES),
      'set-status': (value, admin) => setEndUserStatus(admin, value, USER_LIST_ROLES),
      'delete-user': (value, admin) => deleteEndUser(admin, value, USER_LIST_ROLES),
      'change-role': (value, admin) => changeAccountRole(admin, value, USER_LIST_ROLES),
      'set-plan': (value, admin) => setAccountPlan(admin, value),
      'decide-plan-request': (value, admin) => decideOwnOrganizationPlanRequest(admin, value),
    },
    redirectTo: postedUrl(request, END_USERS_PATH),
  })
}

export async function adminTeamAction(request: Request, context: AppLoadContext) {
  return intentAction(request, {
    guard: (): Promise<Admin> => requirePlatformAdmin(request, context),
    schema: AdminTeamIntentSchema,
    intents: {
      'add-member': (value, admin) => addStaffMember(admin, value),
      'edit-member': (value, admin) => editStaffMember(admin, value),
      'delete-member': (value, admin) => deleteStaffMember(admin, value.userId),
      'change-role': (value, admin) =>
        changeAccountRole(admin, { ...value, organizationId: admin.tenant.id }, [
          'super_admin',
          'super_admin_team',
        ]),
    },
    redirectTo: postedUrl(request, ADMIN_TEAM_PATH),
  })
}

// --- The agency's screens (roles doc §2.12): its own organization only ------------------------

function agencyEndUserFilter(request: Request) {
  const params = new URL(request.url).searchParams
  const { q, searchError } = readSearch(params)
  const parsed = AgencyEndUsersSearchSchema.parse({
    status: params.get('status') || null,
    assignee: params.get('assignee') || null,
  })
  return { search: q, searchError, status: parsed.status, assignedToUserId: parsed.assignee }
}

export async function agencyEndUsersLoader(request: Request, context: AppLoadContext) {
  const actor: Actor = await requireAgencyStaff(request, context, { manage: false })
  const filter = agencyEndUserFilter(request)
  const { rows, total, teamMembers } = filter.searchError
    ? { ...NOTHING, teamMembers: await readTeamMemberChoices(actor) }
    : await readOrganizationEndUsers(actor, filter)
  const seats = await readSeatForwardingChoices(actor)
  return data({
    seatForwarding: seats.forwarding,
    successors: seats.successors,
    handOvers: seats.handOvers,
    users: rows.map(toPerson),
    total,
    filter: { ...filter, organizationId: null },
    agencies: [] as { id: string; name: string; kind: 'platform' | 'agency' }[],
    teamMembers,
    scope: 'agency' as const,
    canEdit: actor.user.role === 'agency_admin',
    roles: rolesFor('agency'),
    // Paid plans asked of the agency's admins (ADR 079); agency members see them read only.
    planRequests: await readPlanRequests(actor),
    now: new Date().toISOString(),
  })
}

/** Export Data: the agency's (filtered) end users as CSV, with the team member assigned. */
export async function agencyEndUsersCsvLoader(request: Request, context: AppLoadContext) {
  const actor: Actor = await requireAgencyStaff(request, context, { manage: false })
  const filter = agencyEndUserFilter(request)
  if (filter.searchError) return refusedExport(filter.searchError)
  const { rows, teamMembers } = await readOrganizationEndUsers(actor, filter, EXPORT_LIMIT)
  const assigneeName = new Map(teamMembers.map((member) => [member.id, member.name]))
  return csvResponse(
    [
      ['Name', 'Email', 'Status', 'Team Member', 'Last Active', 'Created'],
      ...rows.map((row) => {
        const person = toPerson(row)
        return [
          person.name,
          person.email,
          person.status,
          row.assignedToUserId ? (assigneeName.get(row.assignedToUserId) ?? '') : '',
          person.lastActiveAt ?? '',
          row.createdAt.toISOString(),
        ]
      }),
    ],
    'end-users.csv',
  )
}

/** The organization is always the agency's own, whatever the form says. */
const ownOrganization = <V>(value: V, actor: Actor) => ({
  ...value,
  organizationId: actor.tenant.id,
})

export async function agencyEndUsersAction(request: Request, context: AppLoadContext) {
  return intentAction(request, {
    // An agency member reads only: every write is refused before the form is read.
    guard: (): Promise<Actor> => requireAgencyStaff(request, context, { manage: true }),
    schema: AgencyEndUsersIntentSchema,
    intents: {
      'add-user': (value, actor) => addEndUser(actor, ownOrganization(value, actor)),
      'edit-user': (value, actor) => editEndUser(actor, ownOrganization(value, actor)),
      'assign-user': (value, actor) => assignEndUser(actor, ownOrganization(value, actor)),
      'set-status': (value, actor) => setEndUserStatus(actor, ownOrganization(value, actor)),
      'delete-user': (value, actor) => deleteEndUser(actor, ownOrganization(value, actor)),
      'change-role': (value, actor) =>
        changeAccountRole(actor, ownOrganization(value, actor), ['end_user']),
      'set-plan': (value, actor) => setAccountPlan(actor, ownOrganization(value, actor)),
      'decide-plan-request': (value, actor) => decideOwnOrganizationPlanRequest(actor, value),
      'hand-over': (value, actor) => handOverEndUserSeat(actor, ownOrganization(value, actor)),
      'set-forwarding': ({ kind, message, contactPageUrl }, actor) =>
        setSeatForwarding(actor, { kind, message, contactPageUrl }),
      'clear-successor': (value, actor) =>
        clearEndUserSuccessor(actor, ownOrganization(value, actor)),
    },
    redirectTo: postedUrl(request, AGENCY_END_USERS_PATH),
  })
}

export async function agencyTeamLoader(request: Request, context: AppLoadContext) {
  const actor: Actor = await requireAgencyStaff(request, context, { manage: false })
  const params = new URL(request.url).searchParams
  const { q, searchError } = readSearch(params)
  const { role } = AgencyTeamSearchSchema.parse({ role: params.get('role') || null })
  const filter = { q, searchError, role }
  const rows = searchError ? [] : await readStaff(actor, { search: q, role }, 'agency')
  return data({
    members: rows.map((row) => ({
      ...toPerson(row),
      staffTitleLabel: directoryTitleLabel('agency', row.staffTitle),
    })),
    filter,
    selfId: actor.user.id,
    directory: 'agency' as const,
    canEdit: actor.user.role === 'agency_admin',
    now: new Date().toISOString(),
  })
}

export async function agencyTeamAction(request: Request, context: AppLoadContext) {
  return intentAction(request, {
    guard: (): Promise<Actor> => requireAgencyStaff(request, context, { manage: true }),
    schema: AgencyTeamIntentSchema,
    intents: {
      'add-member': (value, actor) => addStaffMember(actor, value, 'agency'),
      'edit-member': (value, actor) => editStaffMember(actor, value, 'agency'),
      'delete-member': (value, actor) => deleteStaffMember(actor, value.userId, 'agency'),
      'set-member-plan': (value, actor) => setTeamMemberPlan(actor, value),
      'change-role': (value, actor) =>
        changeAccountRole(
          actor,
          { ...value, organizationId: actor.tenant.id },
          AGENCY_STAFF_ACCESS,
          STAFF_DIRECTORIES.agency.roleChoices,
        ),
    },
    redirectTo: postedUrl(request, AGENCY_TEAM_PATH),
  })
}
