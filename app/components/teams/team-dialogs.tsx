// The team page's forms that open in a dialog: create or edit a team, add a member.
import { Form } from '@remix-run/react'
import { Pencil, Plus, UserPlus } from 'lucide-react'
import { ErrorList, Field, FormMessage } from '#app/components/forms'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'
import { TEAM_ROLE_LABELS } from '#app/teams/permissions'
import { TEAM_ROLES, type TeamRole } from '#app/validation/teams'
import { DialogClose, FormDialog } from './dialog'
import { useIntentDialog } from './use-intent-dialog'

const TEXTAREA =
  'min-h-24 rounded-md border border-gray-300 bg-white px-3 py-2 text-sm shadow-sm focus-visible:border-brand dark:border-gray-700 dark:bg-gray-900 aria-[invalid]:border-red-500'
const SELECT =
  'h-10 rounded-md border border-gray-300 bg-white px-3 text-sm shadow-sm focus-visible:border-brand dark:border-gray-700 dark:bg-gray-900'

function DialogActions({
  pending,
  label,
  pendingText,
}: {
  pending: boolean
  label: string
  pendingText: string
}) {
  return (
    <div className="flex justify-end gap-2">
      <DialogClose asChild>
        <Button type="button" variant="secondary">
          Cancel
        </Button>
      </DialogClose>
      <StatusButton pending={pending} pendingText={pendingText}>
        {label}
      </StatusButton>
    </div>
  )
}

/** Create Team (spec §2.10) or, given a team, its edit form. */
export function TeamFormDialog({
  team,
}: {
  team?: { id: string; name: string; description: string }
}) {
  const intent = team ? 'update-team' : 'create-team'
  const dialog = useIntentDialog(intent, ['name', 'description'])
  const nameErrors = dialog.errors('name')
  const descriptionErrors = dialog.errors('description')
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
      <Form method="POST" className="flex flex-col gap-4">
        <input type="hidden" name="intent" value={intent} />
        {team ? <input type="hidden" name="teamId" value={team.id} /> : null}
        {dialog.formError ? <FormMessage>{dialog.formError}</FormMessage> : null}
        <Field
          label="Team name"
          inputProps={{
            name: 'name',
            required: true,
            minLength: 2,
            maxLength: 50,
            defaultValue: team?.name,
            autoComplete: 'off',
          }}
          errors={nameErrors}
        />
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${intent}-description`} className="text-sm font-medium">
            Description (optional)
          </label>
          <textarea
            id={`${intent}-description`}
            name="description"
            maxLength={500}
            defaultValue={team?.description}
            aria-invalid={descriptionErrors?.length ? true : undefined}
            aria-describedby={descriptionErrors?.length ? `${intent}-description-error` : undefined}
            className={TEXTAREA}
          />
          <ErrorList id={`${intent}-description-error`} errors={descriptionErrors} />
        </div>
        <DialogActions
          pending={dialog.pending}
          label={team ? 'Save Changes' : 'Create Team'}
          pendingText={team ? 'Saving...' : 'Creating...'}
        />
      </Form>
    </FormDialog>
  )
}

/**
 * Add by email: an account here joins at once (unless the agency turned auto-approve off), any
 * other address gets an invitation. The role starts at the agency's default team role.
 */
export function AddMemberDialog({
  teamId,
  enabled,
  canGrantAdmin,
  defaultRole,
  autoApprove,
}: {
  teamId: string
  enabled: boolean
  canGrantAdmin: boolean
  defaultRole: TeamRole
  autoApprove: boolean
}) {
  const dialog = useIntentDialog('add-member', ['email', 'role'])
  const emailErrors = dialog.errors('email')
  const roleErrors = dialog.errors('role')
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
      description={
        autoApprove
          ? 'Someone with an account here joins at once; anyone else gets an email invitation valid for 7 days.'
          : 'Everyone gets an email invitation valid for 7 days and joins when they accept it.'
      }
    >
      <Form method="POST" className="flex flex-col gap-4">
        <input type="hidden" name="intent" value="add-member" />
        <input type="hidden" name="teamId" value={teamId} />
        {dialog.formError ? <FormMessage>{dialog.formError}</FormMessage> : null}
        <Field
          label="Email"
          inputProps={{ name: 'email', type: 'email', required: true, autoComplete: 'off' }}
          errors={emailErrors}
        />
        <div className="flex flex-col gap-1.5">
          <label htmlFor="invite-role" className="text-sm font-medium">
            Role
          </label>
          <select
            id="invite-role"
            name="role"
            defaultValue={defaultRole}
            className={SELECT}
            aria-invalid={roleErrors?.length ? true : undefined}
          >
            {TEAM_ROLES.filter((role) => canGrantAdmin || role !== 'admin').map((role) => (
              <option key={role} value={role}>
                {TEAM_ROLE_LABELS[role]}
              </option>
            ))}
          </select>
          <ErrorList errors={roleErrors} />
        </div>
        <DialogActions pending={dialog.pending} label="Send Invitation" pendingText="Sending..." />
      </Form>
    </FormDialog>
  )
}

export { SELECT as SELECT_CLASS }
