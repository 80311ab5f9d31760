// The team page's forms that open in a dialog: create or edit a team, add a member.
import { getFormProps, getTextareaProps } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { Pencil, Plus, UserPlus } from 'lucide-react'
import { ErrorList, FormField, FormMessage, FormSelect, useSchemaForm } from '#app/components/forms'
import { Button } from '#app/components/ui/button'
import { DialogActions, FormDialog } from '#app/components/ui/dialog'
import { useIntentDialog } from '#app/components/ui/use-intent-dialog'
import { TEAM_ROLE_LABELS } from '#app/teams/permissions'
import { INVITE_DIALOG_DESCRIPTION } from '#app/validation/invitation-lifetime'
import {
  AddMemberSchema,
  CreateTeamSchema,
  TEAM_ROLES,
  type TeamRole,
  UpdateTeamSchema,
} from '#app/validation/teams'

const TEXTAREA =
  'min-h-24 rounded-md border border-gray-300 bg-white px-3 py-2 text-sm shadow-sm focus-visible:border-brand dark:border-gray-700 dark:bg-gray-900 aria-[invalid]:border-red-500'

/** Create Team (spec §2.10) or, given a team, its edit form. */
export function TeamFormDialog({
  team,
}: {
  team?: { id: string; name: string; description: string }
}) {
  const intent = team ? 'update-team' : 'create-team'
  const dialog = useIntentDialog(intent, ['name', 'description'])
  return (
    <FormDialog
      open={dialog.open}
      onOpenChange={dialog.setOpen}
      trigger={
        team ? (
          <Button variant="secondary" size="sm">
            <Pencil aria-hidden className="h-4 w-4" /> Edit Team
          </Button>
        ) : (
          <Button>
            <Plus aria-hidden className="h-4 w-4" /> Create Team
          </Button>
        )
      }
      title={team ? 'Edit Team' : 'Create Team'}
      description={
        team
          ? 'Change the name or description of this team.'
          : 'A team gathers the people you work with. You become its admin.'
      }
    >
      <TeamForm team={team} dialog={dialog} />
    </FormDialog>
  )
}

// Inside the dialog's content, so each opening starts from the team's values without the last
// opening's messages.
function TeamForm({
  team,
  dialog,
}: {
  team?: { id: string; name: string; description: string }
  dialog: ReturnType<typeof useIntentDialog>
}) {
  const [form, fields] = useSchemaForm(team ? UpdateTeamSchema : CreateTeamSchema, {
    id: team ? 'update-team' : 'create-team',
    lastResult: dialog.lastResult,
    defaultValue: { name: team?.name ?? '', description: team?.description ?? '' },
  })
  return (
    <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={team ? 'update-team' : 'create-team'} />
      {team ? <input type="hidden" name="teamId" value={team.id} /> : null}
      {dialog.formError ? <FormMessage>{dialog.formError}</FormMessage> : null}
      <FormField label="Team name" field={fields.name} autoComplete="off" />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={fields.description.id} className="text-sm font-medium">
          Description (optional)
        </label>
        <textarea {...getTextareaProps(fields.description)} className={TEXTAREA} />
        <ErrorList id={fields.description.errorId} errors={fields.description.errors} />
      </div>
      <DialogActions
        pending={dialog.pending}
        label={team ? 'Save Changes' : 'Create Team'}
        pendingText={team ? 'Saving...' : 'Creating...'}
      />
    </Form>
  )
}

/**
 * Add by email: every address gets an invitation and joins when it accepts (ADR 058), whether or
 * not it has an account here. The role starts at the agency's default team role.
 */
export function AddMemberDialog({
  teamId,
  enabled,
  canGrantAdmin,
  defaultRole,
}: {
  teamId: string
  enabled: boolean
  canGrantAdmin: boolean
  defaultRole: TeamRole
}) {
  const dialog = useIntentDialog('add-member', ['email', 'role'])
  return (
    <FormDialog
      open={dialog.open}
      onOpenChange={dialog.setOpen}
      trigger={
        <Button
          size="sm"
          disabled={!enabled}
          title={enabled ? undefined : 'Only team admins and managers can invite members'}
        >
          <UserPlus aria-hidden className="h-4 w-4" /> Invite Member
        </Button>
      }
      title="Invite Member"
      description={INVITE_DIALOG_DESCRIPTION}
    >
      <AddMemberForm
        teamId={teamId}
        canGrantAdmin={canGrantAdmin}
        defaultRole={defaultRole}
        dialog={dialog}
      />
    </FormDialog>
  )
}

function AddMemberForm({
  teamId,
  canGrantAdmin,
  defaultRole,
  dialog,
}: {
  teamId: string
  canGrantAdmin: boolean
  defaultRole: TeamRole
  dialog: ReturnType<typeof useIntentDialog>
}) {
  const [form, fields] = useSchemaForm(AddMemberSchema, {
    id: 'add-member',
    lastResult: dialog.lastResult,
    defaultValue: { role: defaultRole },
  })
  return (
    <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="add-member" />
      <input type="hidden" name="teamId" value={teamId} />
      {dialog.formError ? <FormMessage>{dialog.formError}</FormMessage> : null}
      <FormField label="Email" field={fields.email} type="email" autoComplete="off" />
      <FormSelect label="Role" field={fields.role}>
        {TEAM_ROLES.filter((role) => canGrantAdmin || role !== 'admin').map((role) => (
          <option key={role} value={role}>
            {TEAM_ROLE_LABELS[role]}
          </option>
        ))}
      </FormSelect>
      <DialogActions pending={dialog.pending} label="Send Invitation" pendingText="Sending..." />
    </Form>
  )
}
