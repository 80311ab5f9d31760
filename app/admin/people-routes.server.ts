// Loaders and actions of the people screens: the super admin's /dashboard/super-admin/users
// (with its CSV export) and /dashboard/super-admin/team, and the agency's /dashboard/agency/users
// (with its CSV export) and /dashboard/agency/team. The route modules only wire these.
import { parseWithZod } from '@conform-to/zod/v4'
import { type AppLoadContext, json } from '@remix-run/node'
import { requireAgencyStaff, requirePlatformAdmin } from '#app/auth/guards.server'
import { RateLimitedError, tooManyRequests } from '#app/auth/rate-limit.server'
import { csvCell } from '#app/cards/contacts-export.server'
import { readPlainForm } from '#app/media/uploads.server'
import { redirectWithToast } from '#app/utils/toast.server'
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
import {
  type Actor,
  type Admin,
  addEndUser,
  addStaffMember,
  assignEndUser,
  changeAccountRole,
  deleteEndUser,
  deleteStaffMember,
  EXPORT_LIMIT,
  editEndUser,
  editStaffMember,
  PeopleActionError,
  readAgencyChoices,
  readEndUsers,
  readOrganizationEndUsers,
  readStaff,
  roleLabel,
  setAccountPlan,
  setEndUserStatus,
  toPerson,
} from './people.server'

export const END_USERS_PATH = '/dashboard/super-admin/users'
export const ADMIN_TEAM_PATH = '/dashboard/super-admin/team'
export const AGENCY_END_USERS_PATH = '/dashboard/agency/users'
export const AGENCY_TEAM_PATH = '/dashboard/agency/team'

/** A CSV download: every cell quoted and formula-safe, with a BOM for spreadsheet apps. */
function csvResponse(lines: string[][], filename: string) {
  const body = `${lines.map((line) => line.map(csvCell).join(',')).join('\r\n')}\r\n`
  return new Response(`\uFEFF${body}`, {
    headers: {
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
    },
  })
}

function endUserFilter(request: Request) {
  const params = new URL(request.url).searchParams
  const parsed = EndUsersSearchSchema.parse({
    q: params.get('q') ?? '',
    agency: params.get('agency') || null,
    status: params.get('status') || null,
    role: params.get('role') || null,
  })
  return {
    search: parsed.q,
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
    readEndUsers(admin, filter),
    readAgencyChoices(admin),
  ])
  return json({
    users: rows.map(toPerson),
    total,
    filter: { ...filter, roles: undefined },
    listRoles: USER_LIST_ROLES,
    agencies,
    now: new Date().toISOString(),
  })
}

/** The (filtered) End Users list as CSV: every cell quoted and formula-safe. */
export async function endUsersCsvLoader(request: Request, context: AppLoadContext) {
  const admin: Admin = await requirePlatformAdmin(request, context)
  const { rows } = await readEndUsers(admin, endUserFilter(request), EXPORT_LIMIT)
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
  const filter = AdminTeamSearchSchema.parse({
    q: params.get('q') ?? '',
    role: params.get('role') || null,
  })
  const rows = await readStaff(admin, { search: filter.q, role: filter.role })
  return json({
    members: rows.map((row) => ({
      ...toPerson(row),
      staffTitleLabel: staffTitleLabel(row.staffTitle),
    })),
    filter,
    selfId: admin.user.id,
    now: new Date().toISOString(),
  })
}

type Refusal = { result: unknown; intent: string | null; error: string }

type Replying = {
  reply: (options?: { fieldErrors?: Record<string, string[]>; formErrors?: string[] }) => unknown
}

function refuse(submission: Replying, intent: string | null, error: PeopleActionError) {
  const reply = submission.reply(
    error.field
      ? { fieldErrors: { [error.field]: [error.message] } }
      : { formErrors: [error.message] },
  )
  return json<Refusal>({ result: reply, intent, error: error.message }, { status: error.status })
}

/** Past a send limit (the new account's set-password email): 429, nothing done. */
function sendLimited(submission: Replying, intent: string | null, error: RateLimitedError) {
  const reply = submission.reply({ formErrors: [error.message] })
  return tooManyRequests(error, { result: reply, intent, error: error.message })
}

function invalid(submission: {
  reply: () => unknown
  error?: Record<string, string[] | null> | null
  payload: Record<string, unknown>
}) {
  const errors = Object.values(submission.error ?? {}).flat()
  const intent = typeof submission.payload.intent === 'string' ? submission.payload.intent : null
  return json<Refusal>(
    { result: submission.reply(), intent, error: errors[0] ?? 'Please check the form' },
    { status: 400 },
  )
}

/** Back to the list the form was posted from, keeping its search and filter. */
function listUrl(request: Request, path: string) {
  const search = new URL(request.url).searchParams
  search.delete('index')
  const query = search.toString()
  return query ? `${path}?${query}` : path
}

export async function endUsersAction(request: Request, context: AppLoadContext) {
  const admin: Admin = await requirePlatformAdmin(request, context)
  const submission = parseWithZod(await readPlainForm(request), { schema: EndUsersIntentSchema })
  if (submission.status !== 'success') return invalid(submission)
  const value = submission.value
  let toast: string
  try {
    switch (value.intent) {
      case 'add-user':
        toast = await addEndUser(admin, value)
        break
      // Every account but the platform's staff (spec §6: the super admin sees all accounts).
      case 'edit-user':
        toast = await editEndUser(admin, value, USER_LIST_ROLES)
        break
      case 'set-status':
        toast = await setEndUserStatus(admin, value, USER_LIST_ROLES)
        break
      case 'delete-user':
        toast = await deleteEndUser(admin, value, USER_LIST_ROLES)
        break
      case 'change-role':
        toast = await changeAccountRole(admin, value, USER_LIST_ROLES)
        break
      case 'set-plan':
        toast = await setAccountPlan(admin, value)
        break
    }
  } catch (error) {
    if (error instanceof RateLimitedError) return sendLimited(submission, value.intent, error)
    if (!(error instanceof PeopleActionError)) throw error
    return refuse(submission, value.intent, error)
  }
  return redirectWithToast(listUrl(request, END_USERS_PATH), { title: toast })
}

export async function adminTeamAction(request: Request, context: AppLoadContext) {
  const admin: Admin = await requirePlatformAdmin(request, context)
  const submission = parseWithZod(await readPlainForm(request), { schema: AdminTeamIntentSchema })
  if (submission.status !== 'success') return invalid(submission)
  const value = submission.value
  let toast: string
  try {
    switch (value.intent) {
      case 'add-member':
        toast = await addStaffMember(admin, value)
        break
      case 'edit-member':
        toast = await editStaffMember(admin, value)
        break
      case 'delete-member':
        toast = await deleteStaffMember(admin, value.userId)
        break
      case 'change-role':
        toast = await changeAccountRole(admin, { ...value, organizationId: admin.tenant.id }, [
          'super_admin',
          'super_admin_team',
        ])
        break
    }
  } catch (error) {
    if (error instanceof RateLimitedError) return sendLimited(submission, value.intent, error)
    if (!(error instanceof PeopleActionError)) throw error
    return refuse(submission, value.intent, error)
  }
  return redirectWithToast(listUrl(request, ADMIN_TEAM_PATH), { title: toast })
}

// --- The agency's screens (roles doc §2.12): its own organization only ------------------------

function agencyEndUserFilter(request: Request) {
  const params = new URL(request.url).searchParams
  const parsed = AgencyEndUsersSearchSchema.parse({
    q: params.get('q') ?? '',
    status: params.get('status') || null,
    assignee: params.get('assignee') || null,
  })
  return { search: parsed.q, status: parsed.status, assignedToUserId: parsed.assignee }
}

export async function agencyEndUsersLoader(request: Request, context: AppLoadContext) {
  const actor: Actor = await requireAgencyStaff(request, context, { manage: false })
  const filter = agencyEndUserFilter(request)
  const { rows, total, teamMembers } = await readOrganizationEndUsers(actor, filter)
  return json({
    users: rows.map(toPerson),
    total,
    filter: { ...filter, organizationId: null },
    agencies: [] as { id: string; name: string; kind: 'platform' | 'agency' }[],
    teamMembers,
    scope: 'agency' as const,
    canEdit: actor.user.role === 'agency_admin',
    roles: rolesFor('agency'),
    now: new Date().toISOString(),
  })
}

/** Export Data: the agency's (filtered) end users as CSV, with the team member assigned. */
export async function agencyEndUsersCsvLoader(request: Request, context: AppLoadContext) {
  const actor: Actor = await requireAgencyStaff(request, context, { manage: false })
  const { rows, teamMembers } = await readOrganizationEndUsers(
    actor,
    agencyEndUserFilter(request),
    EXPORT_LIMIT,
  )
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

export async function agencyEndUsersAction(request: Request, context: AppLoadContext) {
  // An agency member reads only: every write is refused before the form is read.
  const actor: Actor = await requireAgencyStaff(request, context, { manage: true })
  const submission = parseWithZod(await readPlainForm(request), {
    schema: AgencyEndUsersIntentSchema,
  })
  if (submission.status !== 'success') return invalid(submission)
  // The organization is always the agency's own, whatever the form says.
  const value = { ...submission.value, organizationId: actor.tenant.id }
  let toast: string
  try {
    switch (value.intent) {
      case 'add-user':
        toast = await addEndUser(actor, value)
        break
      case 'edit-user':
        toast = await editEndUser(actor, value)
        break
      case 'assign-user':
        toast = await assignEndUser(actor, value)
        break
      case 'set-status':
        toast = await setEndUserStatus(actor, value)
        break
      case 'delete-user':
        toast = await deleteEndUser(actor, value)
        break
      case 'change-role':
        toast = await changeAccountRole(actor, value, ['end_user'])
        break
      case 'set-plan':
        toast = await setAccountPlan(actor, value)
        break
    }
  } catch (error) {
    if (error instanceof RateLimitedError) return sendLimited(submission, value.intent, error)
    if (!(error instanceof PeopleActionError)) throw error
    return refuse(submission, value.intent, error)
  }
  return redirectWithToast(listUrl(request, AGENCY_END_USERS_PATH), { title: toast })
}

export async function agencyTeamLoader(request: Request, context: AppLoadContext) {
  const actor: Actor = await requireAgencyStaff(request, context, { manage: false })
  const params = new URL(request.url).searchParams
  const filter = AgencyTeamSearchSchema.parse({
    q: params.get('q') ?? '',
    role: params.get('role') || null,
  })
  const rows = await readStaff(actor, { search: filter.q, role: filter.role }, 'agency')
  return json({
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
  const actor: Actor = await requireAgencyStaff(request, context, { manage: true })
  const submission = parseWithZod(await readPlainForm(request), { schema: AgencyTeamIntentSchema })
  if (submission.status !== 'success') return invalid(submission)
  const value = submission.value
  let toast: string
  try {
    switch (value.intent) {
      case 'add-member':
        toast = await addStaffMember(actor, value, 'agency')
        break
      case 'edit-member':
        toast = await editStaffMember(actor, value, 'agency')
        break
      case 'delete-member':
        toast = await deleteStaffMember(actor, value.userId, 'agency')
        break
      case 'change-role':
        toast = await changeAccountRole(
          actor,
          { ...value, organizationId: actor.tenant.id },
          AGENCY_STAFF_ACCESS,
          STAFF_DIRECTORIES.agency.roleChoices,
        )
        break
    }
  } catch (error) {
    if (error instanceof RateLimitedError) return sendLimited(submission, value.intent, error)
    if (!(error instanceof PeopleActionError)) throw error
    return refuse(submission, value.intent, error)
  }
  return redirectWithToast(listUrl(request, AGENCY_TEAM_PATH), { title: toast })
}
