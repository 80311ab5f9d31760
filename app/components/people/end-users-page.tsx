// The End Users screen: the super admin's /dashboard/super-admin/users (roles doc §2.11), every
// account of every organization but the platform's staff, each with its role, and an agency's
// /dashboard/agency/users (§2.12), its own end users without the Agency column, each assignable
// to a team member (whom promotion to team_admin moves to the agency's Team Members). Search, the Filter, Export
// Data, Add User and each row's actions; without `canEdit` (an agency member) read only.
import { getFormProps, getInputProps, getSelectProps, getTextareaProps } from '@conform-to/react'
import { Form, useSearchParams, useSubmit } from '@remix-run/react'
import {
  CreditCard,
  Download,
  Forward,
  Pencil,
  Power,
  Shield,
  Trash2,
  UserCheck,
  UserPlus,
} from 'lucide-react'
import { useState } from 'react'
import type { z } from 'zod'
import { ErrorList, Field, FormMessage, useSchemaForm } from '#app/components/forms'
import { DialogClose, FormDialog } from '#app/components/teams/dialog'
import { useIntentDialog } from '#app/components/teams/use-intent-dialog'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'
import { ROLE_BADGES } from '#app/user-accounts/user-accounts'
import {
  AddUserSchema,
  AgencyAddUserSchema,
  AgencyEditUserSchema,
  EditUserSchema,
  rolesFor,
} from '#app/validation/people'
import { formatPrice, PLAN_IDS, PLANS, type PlanId } from '#app/validation/plans'
import { AREA_ROLES, type Role } from '#app/validation/roles'
import { type SeatForwarding, SetForwardingSchema } from '#app/validation/seat-forwarding'
import {
  DeleteDialog,
  EmptyRow,
  lastActive,
  PageHeader,
  RowMenu,
  RowMenuItem,
  SELECT,
  SearchBar,
  TD,
  TH,
  useRoleChangeFailureToast,
} from './people-ui'

type Person = {
  id: string
  name: string
  email: string
  organizationId: string
  agency: string
  role: Role
  status: 'active' | 'inactive'
  plan: PlanId
  lastActiveAt: string | null
  assignedToUserId?: string | null
}
type Agency = { id: string; name: string; kind: 'platform' | 'agency' }
type TeamMember = { id: string; name: string }

export type EndUsersPageProps = {
  users: Person[]
  total: number
  filter: {
    search: string
    searchError: string | null
    organizationId: string | null
    status: 'active' | 'inactive' | null
    assignedToUserId?: string | null
    role?: Role | null
  }
  /** The super admin's list: the roles it shows (every account but the platform's staff). */
  listRoles?: readonly Role[]
  agencies: Agency[]
  now: string
  /** 'agency': one organization's own list (no Agency column; assignment to team members). */
  scope?: 'platform' | 'agency'
  /** The agency's team members (role team_admin), whom an end user may be assigned to. */
  teamMembers?: TeamMember[]
  /** Add, edit, assign, activate, delete; false: read only. */
  canEdit?: boolean
  /** The roles Change Role offers (the agency's screen); else by the user's organization. */
  roles?: readonly Role[]
  /** The agency's screen: what a departed person's card links answer (ADR 049). */
  seatForwarding?: SeatForwarding
  /** The agency's screen: the active end users who can take a seat over. */
  successors?: TeamMember[]
  /** The agency's screen: who forwards to whom (every handed-over seat). */
  handOvers?: HandOverRow[]
}

type HandOverRow = {
  userId: string
  name: string
  status: 'active' | 'inactive'
  successorName: string
  successorActive: boolean
  handedOverAt: string
}

const PATHS = {
  platform: '/dashboard/super-admin/users',
  agency: '/dashboard/agency/users',
} as const

/** The team member select of the agency's forms (spec §2.13's assignment). */
function AssigneeSelect({
  id,
  teamMembers,
  defaultValue,
  errors,
}: {
  id: string
  teamMembers: TeamMember[]
  defaultValue: string
  errors?: string[]
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        Team Member
      </label>
      <select
        id={id}
        name="assignedToUserId"
        defaultValue={defaultValue}
        className={SELECT}
        aria-invalid={errors ? true : undefined}
        aria-describedby={errors ? `${id}-error` : `${id}-hint`}
      >
        <option value="">Not assigned</option>
        {teamMembers.map((member) => (
          <option key={member.id} value={member.id}>
            {member.name}
          </option>
        ))}
      </select>
      {errors ? (
        errors.map((error) => (
          <p key={error} id={`${id}-error`} className="text-sm text-red-600">
            {error}
          </p>
        ))
      ) : (
        <p id={`${id}-hint`} className="text-xs text-gray-600 dark:text-gray-400">
          The user shows on this team member's My End Users.
        </p>
      )}
    </div>
  )
}

function StatusBadge({ status }: { status: Person['status'] }) {
  return (
    <span
      data-testid="user-status"
      className={
        status === 'active'
          ? 'rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800 dark:bg-green-900 dark:text-green-100'
          : 'rounded-full bg-gray-200 px-2 py-0.5 text-xs font-medium text-gray-800 dark:bg-gray-700 dark:text-gray-100'
      }
    >
      {status === 'active' ? 'Active' : 'Inactive'}
    </span>
  )
}

function DialogButtons({ pending, label }: { pending: boolean; label: string }) {
  return (
    <div className="flex justify-end gap-2">
      <DialogClose asChild>
        <Button type="button" variant="secondary">
          Cancel
        </Button>
      </DialogClose>
      <StatusButton pending={pending} pendingText="Saving…">
        {label}
      </StatusButton>
    </div>
  )
}

/** Add User (into a chosen organization) or, given a person, Edit User. Spec §5 end user form. */
function UserFormDialog({
  dialog,
  person,
  agencies,
  teamMembers,
}: {
  dialog: ReturnType<typeof useIntentDialog>
  person: Person | null
  agencies: Agency[]
  /** The agency's screen: its team members, and no agency to choose. */
  teamMembers?: TeamMember[]
}) {
  const editing = Boolean(person)
  const agencyScope = Boolean(teamMembers)
  return (
    <FormDialog
      open={dialog.open}
      onOpenChange={dialog.setOpen}
      title={editing ? 'Edit User' : 'Add User'}
      description={
        editing
          ? "Change the user's name, email or status."
          : agencyScope
            ? 'The user gets an email with a link to set their password on this site.'
            : 'The user gets an email with a link to set their password on their agency’s site.'
      }
    >
      <UserForm
        key={person?.id ?? 'new'}
        dialog={dialog}
        person={person}
        agencies={agencies}
        teamMembers={teamMembers}
      />
    </FormDialog>
  )
}

/** The fields of the four user forms (each variant has some of them). */
type UserFormValue = {
  intent: string
  name: string
  email: string
  active?: string
  userId?: string
  organizationId?: string
  assignedToUserId?: string
}

/** The schema each variant's action parses: the platform's or the agency's, add or edit. */
function userFormSchema(agencyScope: boolean, editing: boolean) {
  if (agencyScope) return editing ? AgencyEditUserSchema : AgencyAddUserSchema
  return editing ? EditUserSchema : AddUserSchema
}

// Inside the dialog's content, so each opening starts from the person's values without the last
// opening's messages.
function UserForm({
  dialog,
  person,
  agencies,
  teamMembers,
}: {
  dialog: ReturnType<typeof useIntentDialog>
  person: Person | null
  agencies: Agency[]
  teamMembers?: TeamMember[]
}) {
  const editing = Boolean(person)
  const agencyScope = Boolean(teamMembers)
  const [form, fields] = useSchemaForm(
    // Four schemas, one form: the fields by name (a variant's own are absent from the others).
    userFormSchema(agencyScope, editing) as unknown as z.ZodType<UserFormValue, UserFormValue>,
    {
      id: editing ? 'edit-user' : 'add-user',
      lastResult: dialog.lastResult,
      defaultValue: {
        name: person?.name ?? '',
        email: person?.email ?? '',
        // Spec §5: a new user is active unless unticked.
        active: !person || person.status === 'active' ? 'on' : undefined,
        assignedToUserId: person?.assignedToUserId ?? '',
        // 'Select an agency' until one is chosen (spec §5: 'Please select an agency').
        organizationId: '',
      },
    },
  )
  return (
    <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={editing ? 'edit-user' : 'add-user'} />
      {person ? (
        <>
          <input type="hidden" name="userId" value={person.id} />
          {agencyScope ? null : (
            <input type="hidden" name="organizationId" value={person.organizationId} />
          )}
        </>
      ) : null}
      {dialog.formError ? <FormMessage>{dialog.formError}</FormMessage> : null}
      <Field
        label="Name"
        inputProps={getInputProps(fields.name, { type: 'text' })}
        errors={fields.name.errors}
      />
      <Field
        label="Email"
        inputProps={getInputProps(fields.email, { type: 'email' })}
        errors={fields.email.errors}
      />
      {teamMembers ? (
        <AssigneeSelect
          id={fields.assignedToUserId.id}
          teamMembers={teamMembers}
          defaultValue={person?.assignedToUserId ?? ''}
          errors={fields.assignedToUserId.errors}
        />
      ) : null}
      {editing || agencyScope ? null : (
        <div className="flex flex-col gap-1.5">
          <label htmlFor={fields.organizationId.id} className="text-sm font-medium">
            Agency
          </label>
          <select
            {...getSelectProps(fields.organizationId)}
            // conform leaves an empty default out: the disabled placeholder is chosen here.
            defaultValue={fields.organizationId.initialValue ?? ''}
            className={SELECT}
          >
            <option value="" disabled>
              Select an agency
            </option>
            {agencies.map((agency) => (
              <option key={agency.id} value={agency.id}>
                {agency.name}
                {agency.kind === 'platform' ? ' (platform)' : ''}
              </option>
            ))}
          </select>
          <ErrorList id={fields.organizationId.errorId} errors={fields.organizationId.errors} />
        </div>
      )}
      <label className="flex items-center gap-2 text-sm">
        <input {...getInputProps(fields.active, { type: 'checkbox' })} className="h-4 w-4" />
        Active
      </label>
      <DialogButtons pending={dialog.pending} label={editing ? 'Save Changes' : 'Add User'} />
    </Form>
  )
}

export function RoleDialog({
  dialog,
  person,
  roles,
}: {
  dialog: ReturnType<typeof useIntentDialog>
  person: { id: string; name: string; role: Role; organizationId?: string } | null
  roles: readonly Role[]
}) {
  const errors = dialog.errors('role')
  return (
    <FormDialog
      open={dialog.open}
      onOpenChange={dialog.setOpen}
      title="Change Role"
      description={person ? `Choose the role of ${person.name}.` : ''}
    >
      <Form method="POST" className="flex flex-col gap-4" key={person?.id}>
        <input type="hidden" name="intent" value="change-role" />
        <input type="hidden" name="userId" value={person?.id ?? ''} />
        {person?.organizationId ? (
          <input type="hidden" name="organizationId" value={person.organizationId} />
        ) : null}
        {dialog.formError ? <FormMessage>{dialog.formError}</FormMessage> : null}
        <div className="flex flex-col gap-1.5">
          <label htmlFor="account-role" className="text-sm font-medium">
            Role
          </label>
          <select
            id="account-role"
            name="role"
            defaultValue={person?.role}
            className={SELECT}
            aria-invalid={errors ? true : undefined}
            aria-describedby={errors ? 'account-role-error' : undefined}
          >
            {roles.map((role) => (
              // The current role's option is disabled, as in the team role select (spec §2.10).
              <option key={role} value={role} disabled={role === person?.role}>
                {ROLE_BADGES[role].label}
              </option>
            ))}
          </select>
          {errors?.map((error) => (
            <p key={error} id="account-role-error" className="text-sm text-red-600">
              {error}
            </p>
          ))}
        </div>
        <DialogButtons pending={dialog.pending} label="Update Role" />
      </Form>
    </FormDialog>
  )
}

/**
 * Change Plan: until people can pay online, a paid plan is granted here by an agency or
 * platform admin (the upgrade dialog of the team page says so).
 */
function PlanDialog({
  dialog,
  person,
  agencyScope,
}: {
  dialog: ReturnType<typeof useIntentDialog>
  person: Person | null
  agencyScope: boolean
}) {
  const errors = dialog.errors('plan')
  return (
    <FormDialog
      open={dialog.open}
      onOpenChange={dialog.setOpen}
      title="Change Plan"
      description={
        person
          ? `Choose the plan of ${person.name}. Paid plans are granted here until online payment is available.`
          : ''
      }
    >
      <Form method="POST" className="flex flex-col gap-4" key={person?.id}>
        <input type="hidden" name="intent" value="set-plan" />
        <input type="hidden" name="userId" value={person?.id ?? ''} />
        {person && !agencyScope ? (
          <input type="hidden" name="organizationId" value={person.organizationId} />
        ) : null}
        {dialog.formError ? <FormMessage>{dialog.formError}</FormMessage> : null}
        <div className="flex flex-col gap-1.5">
          <label htmlFor="account-plan" className="text-sm font-medium">
            Plan
          </label>
          <select
            id="account-plan"
            name="plan"
            defaultValue={person?.plan}
            className={SELECT}
            aria-invalid={errors ? true : undefined}
            aria-describedby={errors ? 'account-plan-error' : undefined}
          >
            {PLAN_IDS.map((id) => (
              <option key={id} value={id} disabled={id === person?.plan}>
                {PLANS[id].name} ({formatPrice(PLANS[id])}/month)
              </option>
            ))}
          </select>
          {errors?.map((error) => (
            <p key={error} id="account-plan-error" className="text-sm text-red-600">
              {error}
            </p>
          ))}
        </div>
        <DialogButtons pending={dialog.pending} label="Update Plan" />
      </Form>
    </FormDialog>
  )
}

/** The agency's row action: assign the user to a team member, or to nobody. */
function AssignDialog({
  dialog,
  person,
  teamMembers,
}: {
  dialog: ReturnType<typeof useIntentDialog>
  person: Person | null
  teamMembers: TeamMember[]
}) {
  return (
    <FormDialog
      open={dialog.open}
      onOpenChange={dialog.setOpen}
      title="Assign to Team Member"
      description={person ? `Choose the team member who looks after ${person.name}.` : ''}
    >
      <Form method="POST" className="flex flex-col gap-4" key={person?.id}>
        <input type="hidden" name="intent" value="assign-user" />
        <input type="hidden" name="userId" value={person?.id ?? ''} />
        {dialog.formError ? <FormMessage>{dialog.formError}</FormMessage> : null}
        <AssigneeSelect
          id="assign-user-assignee"
          teamMembers={teamMembers}
          defaultValue={person?.assignedToUserId ?? ''}
          errors={dialog.errors('assignedToUserId')}
        />
        <DialogButtons pending={dialog.pending} label="Assign" />
      </Form>
    </FormDialog>
  )
}

/**
 * Hand Over (ADR 049): who takes over the person's seat. Their card links forward to the
 * successor's card once they are inactive; their company contacts move now.
 */
function HandOverDialog({
  dialog,
  person,
  successors,
}: {
  dialog: ReturnType<typeof useIntentDialog>
  person: Person | null
  successors: TeamMember[]
}) {
  const errors = dialog.errors('successorId')
  const choices = successors.filter((successor) => successor.id !== person?.id)
  return (
    <FormDialog
      open={dialog.open}
      onOpenChange={dialog.setOpen}
      title="Hand Over"
      description={
        person
          ? `Choose who takes over from ${person.name}. Their contacts, except those they marked personal, move to this person now; while ${person.name} is inactive, the links to their cards open this person's card.`
          : ''
      }
    >
      <Form method="POST" className="flex flex-col gap-4" key={person?.id}>
        <input type="hidden" name="intent" value="hand-over" />
        <input type="hidden" name="userId" value={person?.id ?? ''} />
        {dialog.formError ? <FormMessage>{dialog.formError}</FormMessage> : null}
        <div className="flex flex-col gap-1.5">
          <label htmlFor="hand-over-successor" className="text-sm font-medium">
            Successor
          </label>
          <select
            id="hand-over-successor"
            name="successorId"
            defaultValue=""
            className={SELECT}
            aria-invalid={errors ? true : undefined}
            aria-describedby={errors ? 'hand-over-successor-error' : undefined}
          >
            <option value="" disabled>
              Select a person
            </option>
            {choices.map((successor) => (
              <option key={successor.id} value={successor.id}>
                {successor.name}
              </option>
            ))}
          </select>
          {errors?.map((error) => (
            <p key={error} id="hand-over-successor-error" className="text-sm text-red-600">
              {error}
            </p>
          ))}
        </div>
        <DialogButtons pending={dialog.pending} label="Hand Over" />
      </Form>
    </FormDialog>
  )
}

/** "When Someone Leaves" (ADR 049): the agency's default for departed people's card links. */
function ForwardingDialog({
  dialog,
  forwarding,
}: {
  dialog: ReturnType<typeof useIntentDialog>
  forwarding: SeatForwarding
}) {
  const [form, fields] = useSchemaForm(SetForwardingSchema, {
    id: 'set-forwarding',
    lastResult: dialog.lastResult,
    defaultValue: forwarding,
  })
  return (
    <FormDialog
      open={dialog.open}
      onOpenChange={dialog.setOpen}
      title="When Someone Leaves"
      description="What the links, QR codes and NFC tags of a deactivated person's cards open when nobody took their seat over."
    >
      <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="set-forwarding" />
        {dialog.formError ? <FormMessage>{dialog.formError}</FormMessage> : null}
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium">Visitors see</legend>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="kind"
              value="message"
              defaultChecked={forwarding.kind === 'message'}
              className="h-4 w-4"
            />
            A message
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="kind"
              value="contact_page"
              defaultChecked={forwarding.kind === 'contact_page'}
              className="h-4 w-4"
            />
            Our contact page
          </label>
          <ErrorList id={fields.kind.errorId} errors={fields.kind.errors} />
        </fieldset>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={fields.message.id} className="text-sm font-medium">
            Message
          </label>
          <textarea
            {...getTextareaProps(fields.message)}
            rows={3}
            className="rounded-md border border-gray-300 px-3 py-2 text-sm aria-[invalid]:border-red-500 dark:border-gray-700 dark:bg-gray-900"
          />
          <ErrorList id={fields.message.errorId} errors={fields.message.errors} />
        </div>
        <Field
          label="Contact page URL"
          inputProps={{
            ...getInputProps(fields.contactPageUrl, { type: 'url' }),
            placeholder: 'https://',
          }}
          errors={fields.contactPageUrl.errors}
        />
        <DialogButtons pending={dialog.pending} label="Save" />
      </Form>
    </FormDialog>
  )
}

/**
 * Forwarding (ADR 049): whose card links forward to whom. A seat forwards while its person is
 * inactive and its successor active; otherwise the row says what answers instead. Clear takes
 * the successor away (confirmed), so the agency's default answers.
 */
function ForwardingOverview({
  handOvers,
  canEdit,
  onClear,
}: {
  handOvers: HandOverRow[]
  canEdit: boolean
  onClear: (row: HandOverRow) => void
}) {
  return (
    <section aria-labelledby="forwarding-heading" className="flex flex-col gap-3">
      <h2 id="forwarding-heading" className="text-lg font-semibold">
        Forwarding
      </h2>
      {handOvers.length === 0 ? (
        <p className="text-sm text-gray-600 dark:text-gray-400">
          Nobody's seat has been handed over: a deactivated person's card links answer your agency's
          default (When Someone Leaves).
        </p>
      ) : (
        <ul className="divide-y divide-gray-200 rounded-xl border border-gray-200 dark:divide-gray-800 dark:border-gray-800">
          {handOvers.map((row) => (
            <li
              key={row.userId}
              data-testid="forwarding-row"
              className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm"
            >
              <div className="min-w-0">
                <p className="break-words">
                  <span className="font-medium">{row.name}</span>{' '}
                  {row.status === 'inactive' ? 'forwards to' : 'will forward, once deactivated, to'}{' '}
                  <span className="font-medium">{row.successorName}</span>
                </p>
                {row.successorActive ? null : (
                  <p className="text-xs text-amber-800 dark:text-amber-200">
                    {row.successorName} is inactive: your agency's default answers instead.
                  </p>
                )}
              </div>
              {canEdit ? (
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => onClear(row)}
                  aria-label={`Clear the successor of ${row.name}`}
                >
                  Clear
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

export function EndUsersPage({
  users,
  total,
  filter,
  agencies,
  now,
  scope = 'platform',
  teamMembers = [],
  canEdit = true,
  roles,
  listRoles = [],
  seatForwarding,
  successors = [],
  handOvers,
}: EndUsersPageProps) {
  const [searchParams] = useSearchParams()
  const submit = useSubmit()
  const [target, setTarget] = useState<Person | null>(null)
  const add = useIntentDialog('add-user', ['name', 'email', 'organizationId', 'assignedToUserId'])
  const edit = useIntentDialog('edit-user', ['name', 'email', 'assignedToUserId'])
  const assign = useIntentDialog('assign-user', ['assignedToUserId'])
  const role = useIntentDialog('change-role', ['role'])
  const planDialog = useIntentDialog('set-plan', ['plan'])
  const remove = useIntentDialog('delete-user')
  const handOver = useIntentDialog('hand-over', ['successorId'])
  const forwardingDialog = useIntentDialog('set-forwarding', ['kind', 'message', 'contactPageUrl'])
  const clearSuccessor = useIntentDialog('clear-successor')
  const [clearing, setClearing] = useState<HandOverRow | null>(null)
  useRoleChangeFailureToast()
  const status = useIntentDialog('set-status')
  const agencyScope = scope === 'agency'
  const agencyKind = (id: string) => agencies.find((a) => a.id === id)?.kind ?? 'agency'
  const assigneeName = (id: string | null | undefined) =>
    (id && teamMembers.find((member) => member.id === id)?.name) || 'Not assigned'
  const exportHref = `${PATHS[scope]}/export.csv${searchParams.toString() ? `?${searchParams}` : ''}`
  const filtered = Boolean(
    filter.search ||
      filter.organizationId ||
      filter.status ||
      filter.assignedToUserId ||
      filter.role,
  )
  // User, Email, [Agency | Team Member], Status, Last Active, [Actions]
  const columns = 5 + (canEdit ? 1 : 0)
  return (
    <main className="flex flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title="End Users"
        description={
          agencyScope
            ? 'The end users of your agency and the team members who look after them.'
            : 'Every account of every agency and the platform’s end users, with their role. Platform staff are on Admin Team.'
        }
        actions={
          <>
            <Button variant="secondary" asChild>
              <a href={exportHref} download>
                <Download aria-hidden className="h-4 w-4" /> Export Data
              </a>
            </Button>
            {canEdit && agencyScope && seatForwarding ? (
              <Button variant="secondary" onClick={() => forwardingDialog.setOpen(true)}>
                <Forward aria-hidden className="h-4 w-4" /> When Someone Leaves
              </Button>
            ) : null}
            {canEdit ? (
              <Button
                onClick={() => {
                  setTarget(null)
                  add.setOpen(true)
                }}
              >
                <UserPlus aria-hidden className="h-4 w-4" /> Add User
              </Button>
            ) : null}
          </>
        }
      />
      <SearchBar q={filter.search} searchError={filter.searchError} label="Search by name or email">
        {agencyScope ? (
          <div className="flex flex-col gap-1.5">
            <label htmlFor="filter-assignee" className="text-sm font-medium">
              Team Member
            </label>
            <select
              id="filter-assignee"
              name="assignee"
              defaultValue={filter.assignedToUserId ?? ''}
              className={SELECT}
            >
              <option value="">All team members</option>
              {teamMembers.map((member) => (
                <option key={member.id} value={member.id}>
                  {member.name}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <div className="flex flex-col gap-1.5">
            <label htmlFor="filter-agency" className="text-sm font-medium">
              Agency
            </label>
            <select
              id="filter-agency"
              name="agency"
              defaultValue={filter.organizationId ?? ''}
              className={SELECT}
            >
              <option value="">All agencies</option>
              {agencies.map((agency) => (
                <option key={agency.id} value={agency.id}>
                  {agency.name}
                </option>
              ))}
            </select>
          </div>
        )}
        {agencyScope ? null : (
          <div className="flex flex-col gap-1.5">
            <label htmlFor="filter-role" className="text-sm font-medium">
              Role
            </label>
            <select
              id="filter-role"
              name="role"
              defaultValue={filter.role ?? ''}
              className={SELECT}
            >
              <option value="">All roles</option>
              {listRoles.map((value) => (
                <option key={value} value={value}>
                  {ROLE_BADGES[value].label}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="flex flex-col gap-1.5">
          <label htmlFor="filter-status" className="text-sm font-medium">
            Status
          </label>
          <select
            id="filter-status"
            name="status"
            defaultValue={filter.status ?? ''}
            className={SELECT}
          >
            <option value="">All statuses</option>
            <option value="active">Active</option>
            <option value="inactive">Inactive</option>
          </select>
        </div>
      </SearchBar>
      {status.formError ? <FormMessage>{status.formError}</FormMessage> : null}
      <p className="text-sm text-gray-600 dark:text-gray-400" aria-live="polite">
        {total === 1 ? '1 user' : `${total} users`}
        {users.length < total ? ` (showing the newest ${users.length})` : ''}
      </p>
      <div className="overflow-hidden rounded-xl border border-gray-200 dark:border-gray-800">
        <table className="w-full text-left text-sm">
          <thead className="bg-gray-50 text-gray-600 dark:bg-gray-900 dark:text-gray-400">
            <tr>
              <th scope="col" className={TH}>
                User
              </th>
              <th scope="col" className={`hidden md:table-cell ${TH}`}>
                Email
              </th>
              {/* Spec §2.12: the agency's list has no Agency column; it shows who looks after each. */}
              <th scope="col" className={`hidden sm:table-cell ${TH}`}>
                {agencyScope ? 'Team Member' : 'Agency'}
              </th>
              <th scope="col" className={TH}>
                Status
              </th>
              <th scope="col" className={`hidden lg:table-cell ${TH}`}>
                Last Active
              </th>
              {canEdit ? (
                <th scope="col" className={`${TH} text-right`}>
                  Actions
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-200 dark:divide-gray-800">
            {users.length === 0 ? (
              <EmptyRow columns={columns}>
                {filtered ? 'No users match this search or filter.' : 'No end users yet.'}
              </EmptyRow>
            ) : (
              users.map((person) => (
                <tr key={person.id} data-testid="end-user-row">
                  <td className={`${TD} font-medium`}>
                    {person.name}
                    {/* The super admin's list holds every role: each row says which. */}
                    {agencyScope ? null : (
                      <span
                        data-testid="user-role"
                        className={`ml-2 inline-block rounded-full px-2 py-0.5 text-xs font-normal ${ROLE_BADGES[person.role].className}`}
                      >
                        {ROLE_BADGES[person.role].label}
                      </span>
                    )}
                    {/* Narrow screens: email and agency under the name. */}
                    <div className="break-all text-xs font-normal text-gray-600 md:hidden dark:text-gray-400">
                      {person.email}
                    </div>
                    <div className="text-xs font-normal text-gray-600 sm:hidden dark:text-gray-400">
                      {agencyScope ? assigneeName(person.assignedToUserId) : person.agency}
                    </div>
                  </td>
                  <td className={`hidden break-all md:table-cell ${TD}`}>{person.email}</td>
                  <td className={`hidden sm:table-cell ${TD}`} data-testid="user-assignee">
                    {agencyScope ? assigneeName(person.assignedToUserId) : person.agency}
                  </td>
                  <td className={TD}>
                    <StatusBadge status={person.status} />
                  </td>
                  <td className={`hidden lg:table-cell ${TD} text-gray-600 dark:text-gray-400`}>
                    {lastActive(person.lastActiveAt, now)}
                  </td>
                  {canEdit ? (
                    <td className={`${TD} text-right`}>
                      <RowMenu label={`Actions for ${person.name}`}>
                        <RowMenuItem
                          onSelect={() => {
                            setTarget(person)
                            edit.setOpen(true)
                          }}
                        >
                          <Pencil aria-hidden className="h-4 w-4" /> Edit
                        </RowMenuItem>
                        {agencyScope ? (
                          <RowMenuItem
                            onSelect={() => {
                              setTarget(person)
                              assign.setOpen(true)
                            }}
                          >
                            <UserCheck aria-hidden className="h-4 w-4" /> Assign to Team Member
                          </RowMenuItem>
                        ) : null}
                        {agencyScope && person.role === 'end_user' ? (
                          <RowMenuItem
                            onSelect={() => {
                              setTarget(person)
                              handOver.setOpen(true)
                            }}
                          >
                            <Forward aria-hidden className="h-4 w-4" /> Hand Over
                          </RowMenuItem>
                        ) : null}
                        <RowMenuItem
                          onSelect={() => {
                            setTarget(person)
                            role.setOpen(true)
                          }}
                        >
                          <Shield aria-hidden className="h-4 w-4" /> Change Role
                        </RowMenuItem>
                        {AREA_ROLES['end-user'].includes(person.role) ? (
                          <RowMenuItem
                            onSelect={() => {
                              setTarget(person)
                              planDialog.setOpen(true)
                            }}
                          >
                            <CreditCard aria-hidden className="h-4 w-4" /> Change Plan
                          </RowMenuItem>
                        ) : null}
                        <RowMenuItem
                          onSelect={() =>
                            submit(
                              {
                                intent: 'set-status',
                                userId: person.id,
                                ...(agencyScope ? {} : { organizationId: person.organizationId }),
                                status: person.status === 'active' ? 'inactive' : 'active',
                              },
                              { method: 'POST' },
                            )
                          }
                        >
                          <Power aria-hidden className="h-4 w-4" />
                          {person.status === 'active' ? 'Deactivate' : 'Activate'}
                        </RowMenuItem>
                        <RowMenuItem
                          danger
                          onSelect={() => {
                            setTarget(person)
                            remove.setOpen(true)
                          }}
                        >
                          <Trash2 aria-hidden className="h-4 w-4" /> Delete
                        </RowMenuItem>
                      </RowMenu>
                    </td>
                  ) : null}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {agencyScope && handOvers ? (
        <ForwardingOverview
          handOvers={handOvers}
          canEdit={canEdit}
          onClear={(row) => {
            setClearing(row)
            clearSuccessor.setOpen(true)
          }}
        />
      ) : null}
      <UserFormDialog
        dialog={add}
        person={null}
        agencies={agencies}
        teamMembers={agencyScope ? teamMembers : undefined}
      />
      <UserFormDialog
        dialog={edit}
        person={target}
        agencies={agencies}
        teamMembers={agencyScope ? teamMembers : undefined}
      />
      {agencyScope ? (
        <AssignDialog dialog={assign} person={target} teamMembers={teamMembers} />
      ) : null}
      {agencyScope ? (
        <HandOverDialog dialog={handOver} person={target} successors={successors} />
      ) : null}
      {agencyScope && seatForwarding ? (
        <ForwardingDialog dialog={forwardingDialog} forwarding={seatForwarding} />
      ) : null}
      <PlanDialog dialog={planDialog} person={target} agencyScope={agencyScope} />
      <RoleDialog
        dialog={role}
        person={agencyScope && target ? { ...target, organizationId: undefined } : target}
        roles={roles ?? (target ? rolesFor(agencyKind(target.organizationId)) : [])}
      />
      {agencyScope ? (
        <DeleteDialog
          open={clearSuccessor.open}
          onOpenChange={clearSuccessor.setOpen}
          title="Clear Successor"
          description={
            clearing
              ? `${clearing.name}'s card links will no longer open ${clearing.successorName}'s card: while ${clearing.name} is inactive they answer your agency's default. The contacts already handed over stay with ${clearing.successorName}.`
              : ''
          }
          intent="clear-successor"
          userId={clearing?.userId ?? ''}
          pending={clearSuccessor.pending}
          error={clearSuccessor.formError}
          confirmLabel="Clear Successor"
          pendingText="Clearing…"
        />
      ) : null}
      <DeleteDialog
        open={remove.open}
        onOpenChange={remove.setOpen}
        title="Delete User"
        description={
          target
            ? `Are you sure you want to delete ${target.name}? Their cards and contacts are deleted too. This cannot be undone.`
            : ''
        }
        intent="delete-user"
        userId={target?.id ?? ''}
        organizationId={agencyScope ? undefined : target?.organizationId}
        pending={remove.pending}
        error={remove.formError}
      />
    </main>
  )
}
