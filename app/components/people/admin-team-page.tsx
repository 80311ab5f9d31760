// A staff directory's screen: the super admin's Admin Team /dashboard/super-admin/team (roles
// doc §2.11) and an agency's Team Members /dashboard/agency/team (§2.12: its staff and its team
// members, role team_admin): accounts with their titles, search and access filter, add/edit, view details, change role and delete.
// Without `canEdit` (an agency member) the list and the details are read only.
import { type FieldMetadata, getFormProps } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { CreditCard, Eye, Pencil, Shield, Trash2, UserPlus } from 'lucide-react'
import { useState } from 'react'
import type { z } from 'zod'
import { END_USER_LIMITS, MEMBER_PLAN_NAMES } from '#app/billing/plan-limits'
import { FormField, FormMessage, FormSelect, useSchemaForm } from '#app/components/forms'
import { Button } from '#app/components/ui/button'
import { DataTable } from '#app/components/ui/data-table'
import { DialogActions, DialogClose, FormDialog } from '#app/components/ui/dialog'
import { LabelledSelect, SelectOptions } from '#app/components/ui/labelled-select'
import { RowMenu, RowMenuItem } from '#app/components/ui/row-menu'
import { SELECT_CLASS } from '#app/components/ui/select'
import { type IntentDialog, useIntentDialog } from '#app/components/ui/use-intent-dialog'
import { ROLE_BADGES } from '#app/user-accounts/user-accounts'
import { STAFF_PASSWORD_MIN_LENGTH } from '#app/validation/passwords'
import {
  MEMBER_PLAN_CHOICES,
  STAFF_DIRECTORIES,
  STAFF_FORM_SCHEMAS,
  type StaffDirectoryName,
} from '#app/validation/people'
import type { Role } from '#app/validation/roles'
import { SET_PASSWORD_LINK } from '#app/validation/token-lifetimes'
import {
  DeleteDialog,
  EmptyRow,
  lastActive,
  PageHeader,
  SearchBar,
  TD,
  TH,
  useRoleChangeFailureToast,
} from './people-ui'
import { RoleDialog } from './person-dialogs'

type Member = {
  id: string
  name: string
  email: string
  role: Role
  staffTitle: string | null
  staffTitleLabel: string | null
  lastActiveAt: string | null
  /** A team member's own plan (ADR 051); the agency's screen grants it. */
  memberPlan?: 'free' | 'team_member_basic'
}

export type AdminTeamPageProps = {
  members: Member[]
  filter: { q: string; searchError: string | null; role: Role | null }
  selfId: string
  now: string
  /** Whose staff: the platform's (Admin Team) or an agency's (Team Members). */
  directory?: StaffDirectoryName
  /** Add, edit, change role and delete; false: read only. */
  canEdit?: boolean
}

function SelectField({
  options,
  ...select
}: {
  label: string
  field: FieldMetadata<string | undefined>
  options: [string, string][]
  placeholder?: string
}) {
  return (
    <FormSelect {...select}>
      {options.map(([value, text]) => (
        <option key={value} value={value}>
          {text}
        </option>
      ))}
    </FormSelect>
  )
}

/** Spec §5 team member form: name, email, role (title), password; edit keeps the password. */
type MemberFormProps = {
  dialog: IntentDialog
  member: Member | null
  directory: StaffDirectoryName
}

function MemberFormDialog(props: MemberFormProps) {
  const { dialog, member, directory } = props
  const editing = Boolean(member)
  const { account, newAccount } = STAFF_DIRECTORIES[directory]
  return (
    <FormDialog
      open={dialog.open}
      onOpenChange={dialog.setOpen}
      title={editing ? 'Edit Team Member' : 'Add Team Member'}
      description={
        editing
          ? `Change the details of this ${account}.`
          : `Create ${newAccount} that signs in on this site.`
      }
    >
      <MemberForm key={member?.id ?? 'new'} {...props} />
    </FormDialog>
  )
}

// Inside the dialog's content, so each opening starts from the member's values without the last
// opening's messages.
function MemberForm({ dialog, member, directory }: MemberFormProps) {
  const editing = Boolean(member)
  const { titles, access, emailsSetPasswordLink } = STAFF_DIRECTORIES[directory]
  const schemas = STAFF_FORM_SCHEMAS[directory]
  const [form, fields] = useSchemaForm(
    // Add and edit share their fields; edit's password may stay empty (the schema says so).
    (editing ? schemas.edit : schemas.add) as unknown as z.ZodType<
      MemberFormValue,
      MemberFormValue
    >,
    {
      id: editing ? 'edit-member' : 'add-member',
      lastResult: dialog.lastResult,
      defaultValue: {
        name: member?.name ?? '',
        email: member?.email ?? '',
        staffTitle: member?.staffTitle ?? '',
        access: member?.role ?? access[access.length - 1] ?? '',
      },
    },
  )
  return (
    <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={editing ? 'edit-member' : 'add-member'} />
      {member ? <input type="hidden" name="userId" value={member.id} /> : null}
      {dialog.formError ? <FormMessage>{dialog.formError}</FormMessage> : null}
      <FormField label="Name" field={fields.name} />
      <FormField label="Email" field={fields.email} type="email" />
      <SelectField
        label="Role"
        field={fields.staffTitle}
        placeholder="Select a role"
        options={Object.entries(titles)}
      />
      <SelectField
        label="Access"
        field={fields.access}
        options={access.map((role) => [role, ROLE_BADGES[role].label])}
      />
      <FormField
        label="Password"
        field={fields.password}
        type="password"
        autoComplete="new-password"
        placeholder={editing ? 'Unchanged' : undefined}
        hint={
          editing
            ? 'Leave blank to keep the current password.'
            : emailsSetPasswordLink
              ? `At least ${STAFF_PASSWORD_MIN_LENGTH} characters, or leave blank to email a link to set a password (valid ${SET_PASSWORD_LINK.words}).`
              : `At least ${STAFF_PASSWORD_MIN_LENGTH} characters.`
        }
      />
      <DialogActions pending={dialog.pending} label={editing ? 'Save Changes' : 'Add Member'} />
    </Form>
  )
}

/** The fields of the member form (the edit form adds the user's id). */
type MemberFormValue = {
  intent: string
  userId?: string
  name: string
  email: string
  staffTitle?: string
  access?: string
  password?: string
}

function DetailsDialog({
  open,
  onOpenChange,
  member,
  now,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  member: Member | null
  now: string
}) {
  const rows: [string, string][] = member
    ? [
        ['Name', member.name],
        ['Email', member.email],
        ['Role', member.staffTitleLabel ?? 'No title'],
        ['Access', ROLE_BADGES[member.role].label],
        ['Last Active', lastActive(member.lastActiveAt, now)],
      ]
    : []
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Team Member Details"
      description={member ? `The staff account of ${member.name}.` : ''}
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="font-medium text-gray-600 dark:text-gray-400">{term}</dt>
            <dd className="break-all">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-6 flex justify-end">
        <DialogClose asChild>
          <Button variant="secondary">Close</Button>
        </DialogClose>
      </div>
    </FormDialog>
  )
}

export function AdminTeamPage({
  members,
  filter,
  selfId,
  now,
  directory = 'platform',
  canEdit = true,
}: AdminTeamPageProps) {
  const { title, description, access, roleChoices } = STAFF_DIRECTORIES[directory]
  const [target, setTarget] = useState<Member | null>(null)
  const [viewing, setViewing] = useState(false)
  const add = useIntentDialog('add-member', ['name', 'email', 'staffTitle', 'access', 'password'])
  const edit = useIntentDialog('edit-member', ['name', 'email', 'staffTitle', 'access', 'password'])
  const role = useIntentDialog('change-role', ['role'])
  const remove = useIntentDialog('delete-member')
  const memberPlan = useIntentDialog('set-member-plan', ['plan'])
  useRoleChangeFailureToast()
  const open = (member: Member, dialog: { setOpen: (open: boolean) => void }) => {
    setTarget(member)
    dialog.setOpen(true)
  }
  return (
    <main className="flex flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title={title}
        description={description}
        actions={
          canEdit ? (
            <Button
              onClick={() => {
                setTarget(null)
                add.setOpen(true)
              }}
            >
              <UserPlus aria-hidden className="h-4 w-4" /> Add Team Member
            </Button>
          ) : null
        }
      />
      <SearchBar q={filter.q} searchError={filter.searchError} label="Search by name or email">
        <LabelledSelect
          id="filter-role"
          name="role"
          label="Access"
          defaultValue={filter.role ?? ''}
        >
          <SelectOptions
            empty="All access levels"
            options={access.map((value) => ({ value, label: ROLE_BADGES[value].label }))}
          />
        </LabelledSelect>
      </SearchBar>
      <DataTable
        frame="overflow-hidden rounded-xl border border-gray-200 dark:border-gray-800"
        columns={[
          { label: 'Name' },
          { label: 'Email', className: `hidden md:table-cell ${TH}` },
          { label: 'Role' },
          { label: 'Last Active', className: `hidden lg:table-cell ${TH}` },
          { label: 'Actions', className: `${TH} text-right` },
        ]}
      >
        {members.length === 0 ? (
          <EmptyRow columns={5}>
            {filter.q || filter.role
              ? 'No team members match this search or filter.'
              : 'No team members yet.'}
          </EmptyRow>
        ) : (
          members.map((member) => {
            const own = member.id === selfId
            return (
              <tr key={member.id} data-testid="staff-row">
                <td className={`${TD} font-medium`}>
                  {member.name}
                  {own ? (
                    <span className="ml-2 text-xs text-gray-500 dark:text-gray-400">(you)</span>
                  ) : null}
                  <div className="break-all text-xs font-normal text-gray-600 md:hidden dark:text-gray-400">
                    {member.email}
                  </div>
                </td>
                <td className={`hidden break-all md:table-cell ${TD}`}>{member.email}</td>
                <td className={TD}>
                  <StaffRole member={member} />
                </td>
                <td className={`hidden lg:table-cell ${TD} text-gray-600 dark:text-gray-400`}>
                  {lastActive(member.lastActiveAt, now)}
                </td>
                <td className={`${TD} text-right`}>
                  <RowMenu label={`Actions for ${member.name}`}>
                    <RowMenuItem
                      onSelect={() => {
                        setTarget(member)
                        setViewing(true)
                      }}
                    >
                      <Eye aria-hidden className="h-4 w-4" /> View Details
                    </RowMenuItem>
                    {canEdit ? (
                      <RowMenuItem onSelect={() => open(member, edit)}>
                        <Pencil aria-hidden className="h-4 w-4" /> Edit
                      </RowMenuItem>
                    ) : null}
                    {/* Nobody changes their own role or deletes themselves. */}
                    {own || !canEdit ? null : (
                      <>
                        <RowMenuItem onSelect={() => open(member, role)}>
                          <Shield aria-hidden className="h-4 w-4" /> Change Role
                        </RowMenuItem>
                        {directory === 'agency' && member.role === 'team_admin' ? (
                          <RowMenuItem onSelect={() => open(member, memberPlan)}>
                            <CreditCard aria-hidden className="h-4 w-4" /> Change Plan
                          </RowMenuItem>
                        ) : null}
                        <RowMenuItem danger onSelect={() => open(member, remove)}>
                          <Trash2 aria-hidden className="h-4 w-4" /> Delete
                        </RowMenuItem>
                      </>
                    )}
                  </RowMenu>
                </td>
              </tr>
            )
          })
        )}
      </DataTable>
      <MemberFormDialog dialog={add} member={null} directory={directory} />
      <MemberFormDialog dialog={edit} member={target} directory={directory} />
      <RoleDialog dialog={role} person={target} roles={roleChoices} />
      <MemberPlanDialog dialog={memberPlan} member={target} />
      <DetailsDialog open={viewing} onOpenChange={setViewing} member={target} now={now} />
      <DeleteDialog
        open={remove.open}
        onOpenChange={remove.setOpen}
        title="Delete Team Member"
        description={
          target
            ? `Are you sure you want to delete ${target.name}? Their account is deleted and they can no longer sign in.`
            : ''
        }
        intent="delete-member"
        userId={target?.id ?? ''}
        pending={remove.pending}
        error={remove.formError}
      />
    </main>
  )
}

/**
 * A team member's plan (ADR 051): Team Member Basic granted by the agency's admin, as the end
 * users' plans are on End Users (with Stripe, the team member can also buy it on Settings).
 */
function MemberPlanDialog({
  dialog,
  member,
}: {
  dialog: ReturnType<typeof useIntentDialog>
  member: Member | null
}) {
  const errors = dialog.errors('plan')
  return (
    <FormDialog
      open={dialog.open}
      onOpenChange={dialog.setOpen}
      title="Change Plan"
      description={
        member
          ? `Choose the plan of ${member.name}: how many end users can be assigned to them.`
          : ''
      }
    >
      <Form method="POST" className="flex flex-col gap-4" key={member?.id}>
        <input type="hidden" name="intent" value="set-member-plan" />
        <input type="hidden" name="userId" value={member?.id ?? ''} />
        {dialog.formError ? <FormMessage>{dialog.formError}</FormMessage> : null}
        <div className="flex flex-col gap-1.5">
          <label htmlFor="member-plan" className="text-sm font-medium">
            Plan
          </label>
          <select
            id="member-plan"
            name="plan"
            defaultValue={member?.memberPlan ?? 'free'}
            className={SELECT_CLASS}
            aria-invalid={errors ? true : undefined}
            aria-describedby={errors ? 'member-plan-error' : undefined}
          >
            {MEMBER_PLAN_CHOICES.map((id) => (
              <option key={id} value={id} disabled={id === (member?.memberPlan ?? 'free')}>
                {MEMBER_PLAN_NAMES[id]} (up to {END_USER_LIMITS[id]} end users)
              </option>
            ))}
          </select>
          {errors?.map((error) => (
            <p
              key={error}
              id="member-plan-error"
              className="text-sm text-red-600 dark:text-red-400"
            >
              {error}
            </p>
          ))}
        </div>
        <DialogActions pending={dialog.pending} label="Update Plan" pendingText="Saving..." />
      </Form>
    </FormDialog>
  )
}

/**
 * A staff row's role: the title when it has one, above its access badge. Without a title the
 * badge stands alone (a placeholder dash over every badge read as a missing value).
 */
export function StaffRole({ member }: { member: Pick<Member, 'role' | 'staffTitleLabel'> }) {
  const badge = ROLE_BADGES[member.role]
  return (
    <>
      {member.staffTitleLabel ? <div className="mb-1">{member.staffTitleLabel}</div> : null}
      <span className={`inline-block rounded-full px-2 py-0.5 text-xs ${badge.className}`}>
        {badge.label}
      </span>
    </>
  )
}
