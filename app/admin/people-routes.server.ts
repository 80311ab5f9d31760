// Loaders and actions of /dashboard/super-admin/users, its CSV export and
// /dashboard/super-admin/team: the route modules only wire these.
import { parseWithZod } from '@conform-to/zod/v4'
import { type AppLoadContext, json } from '@remix-run/node'
import { requirePlatformAdmin } from '#app/auth/guards.server'
import { csvCell } from '#app/cards/contacts-export.server'
import { readPlainForm } from '#app/services/uploads.server'
import { redirectWithToast } from '#app/utils/toast.server'
import {
  AdminTeamIntentSchema,
  AdminTeamSearchSchema,
  EndUsersIntentSchema,
  EndUsersSearchSchema,
  staffTitleLabel,
} from '#app/validation/people'
import {
  type Admin,
  addEndUser,
  addStaffMember,
  changeAccountRole,
  deleteEndUser,
  deleteStaffMember,
  EXPORT_LIMIT,
  editEndUser,
  editStaffMember,
  PeopleActionError,
  readAgencyChoices,
  readEndUsers,
  readStaff,
  setEndUserStatus,
  toPerson,
} from './people.server'

export const END_USERS_PATH = '/dashboard/super-admin/users'
export const ADMIN_TEAM_PATH = '/dashboard/super-admin/team'

function endUserFilter(request: Request) {
  const params = new URL(request.url).searchParams
  const parsed = EndUsersSearchSchema.parse({
    q: params.get('q') ?? '',
    agency: params.get('agency') || null,
    status: params.get('status') || null,
  })
  return { search: parsed.q, organizationId: parsed.agency, status: parsed.status }
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
    filter,
    agencies,
    now: new Date().toISOString(),
  })
}

/** The (filtered) End Users list as CSV: every cell quoted and formula-safe. */
export async function endUsersCsvLoader(request: Request, context: AppLoadContext) {
  const admin: Admin = await requirePlatformAdmin(request, context)
  const { rows } = await readEndUsers(admin, endUserFilter(request), EXPORT_LIMIT)
  const lines = [
    ['Name', 'Email', 'Agency', 'Status', 'Last Active', 'Created'],
    ...rows.map((row) => {
      const person = toPerson(row)
      return [
        person.name,
        person.email,
        person.agency,
        person.status,
        person.lastActiveAt ?? '',
        row.createdAt.toISOString(),
      ]
    }),
  ]
  const body = `${lines.map((line) => line.map(csvCell).join(',')).join('\r\n')}\r\n`
  return new Response(`\uFEFF${body}`, {
    headers: {
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="end-users.csv"',
    },
  })
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
      case 'edit-user':
        toast = await editEndUser(admin, value)
        break
      case 'set-status':
        toast = await setEndUserStatus(admin, value)
        break
      case 'delete-user':
        toast = await deleteEndUser(admin, value)
        break
      case 'change-role':
        toast = await changeAccountRole(admin, value, ['end_user'])
        break
    }
  } catch (error) {
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
    if (!(error instanceof PeopleActionError)) throw error
    return refuse(submission, value.intent, error)
  }
  return redirectWithToast(listUrl(request, ADMIN_TEAM_PATH), { title: toast })
}
