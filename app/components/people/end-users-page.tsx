// The End Users screen: the super admin's /dashboard/super-admin/users (roles doc §2.11), every
// account of every organization but the platform's staff, each with its role, and an agency's
// /dashboard/agency/users (§2.12), its own end users without the Agency column, each assignable
// to a team member (whom promotion to team_admin moves to the agency's Team Members). Search, the Filter, Export
// Data, Add User and each row's actions; without `canEdit` (an agency member) read only.
// Split along what it shows: the filters (end-user-filters.tsx), the list (end-users-table.tsx),
// Add and Edit User (end-user-form.tsx), a row's dialogs (person-dialogs.tsx) and seat forwarding
// (seat-forwarding-section.tsx).
import { useSearchParams, useSubmit } from '@remix-run/react'
import { Download, Forward, UserPlus } from 'lucide-react'
import { useState } from 'react'
import { FormMessage } from '#app/components/forms'
import { Button } from '#app/components/ui/button'
import { type IntentDialog, useIntentDialog } from '#app/components/ui/use-intent-dialog'
import { rolesFor } from '#app/validation/people'
import type { Role } from '#app/validation/roles'
import type { SeatForwarding } from '#app/validation/seat-forwarding'
import { EndUserFilters } from './end-user-filters'
import { UserFormDialog } from './end-user-form'
import type { Agency, EndUsersFilterView, HandOverRow, Person, TeamMember } from './end-user-types'
import { EndUsersTable, type RowActions } from './end-users-table'
import { DeleteDialog, PageHeader, useRoleChangeFailureToast } from './people-ui'
import { AssignDialog, HandOverDialog, PlanDialog, RoleDialog } from './person-dialogs'
import { PlanRequestsPanel, type PlanRequestView } from './plan-requests-panel'
import {
  ClearSuccessorDialog,
  ForwardingDialog,
  ForwardingOverview,
} from './seat-forwarding-section'

export type EndUsersPageProps = {
  users: Person[]
  total: number
  filter: EndUsersFilterView
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
  /** Paid plans asked of this screen's admins (ADR 079). */
  planRequests?: PlanRequestView[]
}

const PATHS = {
  platform: '/dashboard/super-admin/users',
  agency: '/dashboard/agency/users',
} as const

/** The screen's dialogs, and the person a row's dialog is about. */
function useEndUserDialogs() {
  const [target, setTarget] = useState<Person | null>(null)
  const dialogs = {
    add: useIntentDialog('add-user', ['name', 'email', 'organizationId', 'assignedToUserId']),
    edit: useIntentDialog('edit-user', ['name', 'email', 'assignedToUserId']),
    assign: useIntentDialog('assign-user', ['assignedToUserId']),
    role: useIntentDialog('change-role', ['role']),
    plan: useIntentDialog('set-plan', ['plan']),
    remove: useIntentDialog('delete-user'),
    handOver: useIntentDialog('hand-over', ['successorId']),
    forwarding: useIntentDialog('set-forwarding', ['kind', 'message', 'contactPageUrl']),
    clearSuccessor: useIntentDialog('clear-successor'),
    status: useIntentDialog('set-status'),
  }
  /** Opens a row's dialog about `person` (null: Add User). */
  const openFor = (dialog: IntentDialog, person: Person | null) => {
    setTarget(person)
    dialog.setOpen(true)
  }
  return { target, dialogs, openFor }
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
  planRequests = [],
}: EndUsersPageProps) {
  const [searchParams] = useSearchParams()
  const submit = useSubmit()
  const { target, dialogs, openFor } = useEndUserDialogs()
  const [clearing, setClearing] = useState<HandOverRow | null>(null)
  useRoleChangeFailureToast()
  const agencyScope = scope === 'agency'
  const agencyKind = (id: string) => agencies.find((a) => a.id === id)?.kind ?? 'agency'
  const exportHref = `${PATHS[scope]}/export.csv${searchParams.toString() ? `?${searchParams}` : ''}`
  const filtered = Boolean(
    filter.search ||
      filter.organizationId ||
      filter.status ||
      filter.assignedToUserId ||
      filter.role,
  )
  const rowActions: RowActions = {
    edit: (person) => openFor(dialogs.edit, person),
    assign: (person) => openFor(dialogs.assign, person),
    handOver: (person) => openFor(dialogs.handOver, person),
    changeRole: (person) => openFor(dialogs.role, person),
    changePlan: (person) => openFor(dialogs.plan, person),
    toggleStatus: (person) =>
      submit(
        {
          intent: 'set-status',
          userId: person.id,
          ...(agencyScope ? {} : { organizationId: person.organizationId }),
          status: person.status === 'active' ? 'inactive' : 'active',
        },
        { method: 'POST' },
      ),
    remove: (person) => openFor(dialogs.remove, person),
  }
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
              <Button variant="secondary" onClick={() => dialogs.forwarding.setOpen(true)}>
                <Forward aria-hidden className="h-4 w-4" /> When Someone Leaves
              </Button>
            ) : null}
            {canEdit ? (
              <Button onClick={() => openFor(dialogs.add, null)}>
                <UserPlus aria-hidden className="h-4 w-4" /> Add User
              </Button>
            ) : null}
          </>
        }
      />
      <PlanRequestsPanel requests={planRequests} canDecide={canEdit} />
      <EndUserFilters
        filter={filter}
        agencyScope={agencyScope}
        teamMembers={teamMembers}
        agencies={agencies}
        listRoles={listRoles}
      />
      {dialogs.status.formError ? <FormMessage>{dialogs.status.formError}</FormMessage> : null}
      <p className="text-sm text-gray-600 dark:text-gray-400" aria-live="polite">
        {total === 1 ? '1 user' : `${total} users`}
        {users.length < total ? ` (showing the newest ${users.length})` : ''}
      </p>
      <EndUsersTable
        users={users}
        agencyScope={agencyScope}
        teamMembers={teamMembers}
        filtered={filtered}
        now={now}
        actions={canEdit ? rowActions : undefined}
      />
      {agencyScope && handOvers ? (
        <ForwardingOverview
          handOvers={handOvers}
          canEdit={canEdit}
          onClear={(row) => {
            setClearing(row)
            dialogs.clearSuccessor.setOpen(true)
          }}
        />
      ) : null}
      <UserFormDialog
        dialog={dialogs.add}
        person={null}
        agencies={agencies}
        teamMembers={agencyScope ? teamMembers : undefined}
      />
      <UserFormDialog
        dialog={dialogs.edit}
        person={target}
        agencies={agencies}
        teamMembers={agencyScope ? teamMembers : undefined}
      />
      {agencyScope ? (
        <AssignDialog dialog={dialogs.assign} person={target} teamMembers={teamMembers} />
      ) : null}
      {agencyScope ? (
        <HandOverDialog dialog={dialogs.handOver} person={target} successors={successors} />
      ) : null}
      {agencyScope && seatForwarding ? (
        <ForwardingDialog dialog={dialogs.forwarding} forwarding={seatForwarding} />
      ) : null}
      <PlanDialog dialog={dialogs.plan} person={target} agencyScope={agencyScope} />
      <RoleDialog
        dialog={dialogs.role}
        person={agencyScope && target ? { ...target, organizationId: undefined } : target}
        roles={roles ?? (target ? rolesFor(agencyKind(target.organizationId)) : [])}
      />
      {agencyScope ? (
        <ClearSuccessorDialog dialog={dialogs.clearSuccessor} clearing={clearing} />
      ) : null}
      <DeleteDialog
        open={dialogs.remove.open}
        onOpenChange={dialogs.remove.setOpen}
        title="Delete User"
        description={
          target
            ? `Are you sure you want to delete ${target.name}? Their cards and contacts are deleted too. This cannot be undone.`
            : ''
        }
        intent="delete-user"
        userId={target?.id ?? ''}
        organizationId={agencyScope ? undefined : target?.organizationId}
        pending={dialogs.remove.pending}
        error={dialogs.remove.formError}
      />
    </main>
  )
}
