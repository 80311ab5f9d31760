// Add User and Edit User of the End Users screen (spec §5's end user form), the platform's and
// the agency's, and the team member select the agency's forms share.
import { getFormProps, getInputProps } from '@conform-to/react'
import { Form } from '@remix-run/react'
import type { z } from 'zod'
import { FormField, FormMessage, FormSelect, useSchemaForm } from '#app/components/forms'
import { DialogActions, FormDialog } from '#app/components/ui/dialog'
import { byName, LabelledSelect, SelectOptions } from '#app/components/ui/labelled-select'
import type { IntentDialog } from '#app/components/ui/use-intent-dialog'
import {
  AddUserSchema,
  AgencyAddUserSchema,
  AgencyEditUserSchema,
  EditUserSchema,
} from '#app/validation/people'
import type { Agency, Person, TeamMember } from './end-user-types'

/** The team member select of the agency's forms (spec §2.13's assignment). */
export function AssigneeSelect({
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
    <LabelledSelect
      id={id}
      name="assignedToUserId"
      label="Team Member"
      defaultValue={defaultValue}
      errors={errors}
      hint="The user shows on this team member's My End Users."
    >
      <SelectOptions empty="Not assigned" options={byName(teamMembers)} />
    </LabelledSelect>
  )
}

/** Add User (into a chosen organization) or, given a person, Edit User. Spec §5 end user form. */
type UserFormProps = {
  dialog: IntentDialog
  person: Person | null
  agencies: Agency[]
  /** The agency's screen: its team members, and no agency to choose. */
  teamMembers?: TeamMember[]
}

export function UserFormDialog(props: UserFormProps) {
  const { dialog, person, teamMembers } = props
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
      <UserForm key={person?.id ?? 'new'} {...props} />
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
function UserForm({ dialog, person, agencies, teamMembers }: UserFormProps) {
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
      <FormField label="Name" field={fields.name} />
      <FormField label="Email" field={fields.email} type="email" />
      {teamMembers ? (
        <AssigneeSelect
          id={fields.assignedToUserId.id}
          teamMembers={teamMembers}
          defaultValue={person?.assignedToUserId ?? ''}
          errors={fields.assignedToUserId.errors}
        />
      ) : null}
      {editing || agencyScope ? null : (
        <FormSelect label="Agency" field={fields.organizationId} placeholder="Select an agency">
          {agencies.map((agency) => (
            <option key={agency.id} value={agency.id}>
              {agency.name}
              {agency.kind === 'platform' ? ' (platform)' : ''}
            </option>
          ))}
        </FormSelect>
      )}
      <label className="flex items-center gap-2 text-sm">
        <input {...getInputProps(fields.active, { type: 'checkbox' })} className="h-4 w-4" />
        Active
      </label>
      <DialogActions pending={dialog.pending} label={editing ? 'Save Changes' : 'Add User'} />
    </Form>
  )
}
