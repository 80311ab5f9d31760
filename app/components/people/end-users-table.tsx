// The End Users screen's list: one row a person (name, email, agency or team member, status, last
// sign-in) and, for who may edit, the row's actions menu.
import { CreditCard, Forward, Pencil, Power, Shield, Trash2, UserCheck } from 'lucide-react'
import { DataTable } from '#app/components/ui/data-table'
import { RowMenu, RowMenuItem } from '#app/components/ui/row-menu'
import { ROLE_BADGES } from '#app/user-accounts/user-accounts'
import { AREA_ROLES } from '#app/validation/roles'
import type { Person, TeamMember } from './end-user-types'
import { EmptyRow, lastActive, TD, TH } from './people-ui'

/** What a row's menu opens or does (the page holds the dialogs). */
export type RowActions = {
  edit: (person: Person) => void
  assign: (person: Person) => void
  handOver: (person: Person) => void
  changeRole: (person: Person) => void
  changePlan: (person: Person) => void
  toggleStatus: (person: Person) => void
  remove: (person: Person) => void
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

function EndUserRowMenu({
  person,
  agencyScope,
  actions,
}: {
  person: Person
  agencyScope: boolean
  actions: RowActions
}) {
  return (
    <RowMenu label={`Actions for ${person.name}`}>
      <RowMenuItem onSelect={() => actions.edit(person)}>
        <Pencil aria-hidden className="h-4 w-4" /> Edit
      </RowMenuItem>
      {agencyScope ? (
        <RowMenuItem onSelect={() => actions.assign(person)}>
          <UserCheck aria-hidden className="h-4 w-4" /> Assign to Team Member
        </RowMenuItem>
      ) : null}
      {agencyScope && person.role === 'end_user' ? (
        <RowMenuItem onSelect={() => actions.handOver(person)}>
          <Forward aria-hidden className="h-4 w-4" /> Hand Over
        </RowMenuItem>
      ) : null}
      <RowMenuItem onSelect={() => actions.changeRole(person)}>
        <Shield aria-hidden className="h-4 w-4" /> Change Role
      </RowMenuItem>
      {AREA_ROLES['end-user'].includes(person.role) ? (
        <RowMenuItem onSelect={() => actions.changePlan(person)}>
          <CreditCard aria-hidden className="h-4 w-4" /> Change Plan
        </RowMenuItem>
      ) : null}
      <RowMenuItem onSelect={() => actions.toggleStatus(person)}>
        <Power aria-hidden className="h-4 w-4" />
        {person.status === 'active' ? 'Deactivate' : 'Activate'}
      </RowMenuItem>
      <RowMenuItem danger onSelect={() => actions.remove(person)}>
        <Trash2 aria-hidden className="h-4 w-4" /> Delete
      </RowMenuItem>
    </RowMenu>
  )
}

function EndUserRow({
  person,
  agencyScope,
  assigneeName,
  now,
  actions,
}: {
  person: Person
  agencyScope: boolean
  assigneeName: (id: string | null | undefined) => string
  now: string
  /** Absent: read only (no Actions column). */
  actions?: RowActions
}) {
  // Spec §2.12: the agency's list has no Agency column; it shows who looks after each.
  const agencyOrAssignee = agencyScope ? assigneeName(person.assignedToUserId) : person.agency
  return (
    <tr data-testid="end-user-row">
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
          {agencyOrAssignee}
        </div>
      </td>
      <td className={`hidden break-all md:table-cell ${TD}`}>{person.email}</td>
      <td className={`hidden sm:table-cell ${TD}`} data-testid="user-assignee">
        {agencyOrAssignee}
      </td>
      <td className={TD}>
        <StatusBadge status={person.status} />
      </td>
      <td className={`hidden lg:table-cell ${TD} text-gray-600 dark:text-gray-400`}>
        {lastActive(person.lastActiveAt, now)}
      </td>
      {actions ? (
        <td className={`${TD} text-right`}>
          <EndUserRowMenu person={person} agencyScope={agencyScope} actions={actions} />
        </td>
      ) : null}
    </tr>
  )
}

export function EndUsersTable({
  users,
  agencyScope,
  teamMembers,
  filtered,
  now,
  actions,
}: {
  users: Person[]
  agencyScope: boolean
  teamMembers: TeamMember[]
  /** A search or filter applies: the empty list says so. */
  filtered: boolean
  now: string
  /** Absent: read only (no Actions column). */
  actions?: RowActions
}) {
  const assigneeName = (id: string | null | undefined) =>
    (id && teamMembers.find((member) => member.id === id)?.name) || 'Not assigned'
  // User, Email, [Agency | Team Member], Status, Last Active, [Actions]
  const columns = 5 + (actions ? 1 : 0)
  return (
    <DataTable
      frame="overflow-hidden rounded-xl border border-gray-200 dark:border-gray-800"
      columns={[
        { label: 'User' },
        { label: 'Email', className: `hidden md:table-cell ${TH}` },
        {
          label: agencyScope ? 'Team Member' : 'Agency',
          className: `hidden sm:table-cell ${TH}`,
        },
        { label: 'Status' },
        { label: 'Last Active', className: `hidden lg:table-cell ${TH}` },
        actions && { label: 'Actions', className: `${TH} text-right` },
      ]}
    >
      {users.length === 0 ? (
        <EmptyRow columns={columns}>
          {filtered ? 'No users match this search or filter.' : 'No end users yet.'}
        </EmptyRow>
      ) : (
        users.map((person) => (
          <EndUserRow
            key={person.id}
            person={person}
            agencyScope={agencyScope}
            assigneeName={assigneeName}
            now={now}
            actions={actions}
          />
        ))
      )}
    </DataTable>
  )
}
