// The dialogs a person's row opens on the people screens: Change Role (the End Users and the Admin
// Team screens), Change Plan, Assign to Team Member and Hand Over. Each posts its intent with the
// person's id, and stays open with the server's messages when refused.
import { Form } from '@remix-run/react'
import type { ReactNode } from 'react'
import { FormMessage } from '#app/components/forms'
import { DialogActions, FormDialog } from '#app/components/ui/dialog'
import { byName, LabelledSelect, SelectOptions } from '#app/components/ui/labelled-select'
import type { IntentDialog } from '#app/components/ui/use-intent-dialog'
import { ROLE_BADGES } from '#app/user-accounts/user-accounts'
import { OFFER_PERSONAL_CARD_HINT, OFFER_PERSONAL_CARD_LABEL } from '#app/validation/personal-card'
import { formatPrice, PLAN_IDS, PLANS } from '#app/validation/plans'
import type { Role } from '#app/validation/roles'
import { AssigneeSelect } from './end-user-form'
import type { Person, TeamMember } from './end-user-types'

/** The frame every row dialog shares: the intent, whose it is, the refusal, the fields, the buttons. */
function PersonDialog({
  dialog,
  title,
  description,
  intent,
  userId,
  organizationId,
  submitLabel,
  children,
}: {
  dialog: IntentDialog
  title: string
  description: string
  intent: string
  /** The person's id; the form is rebuilt for each person. */
  userId: string | undefined
  /** The platform's screens name the person's organization too. */
  organizationId?: string
  submitLabel: string
  children: ReactNode
}) {
  return (
    <FormDialog
      open={dialog.open}
      onOpenChange={dialog.setOpen}
      title={title}
      description={description}
    >
      <Form method="POST" className="flex flex-col gap-4" key={userId}>
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="userId" value={userId ?? ''} />
        {organizationId ? (
          <input type="hidden" name="organizationId" value={organizationId} />
        ) : null}
        {dialog.formError ? <FormMessage>{dialog.formError}</FormMessage> : null}
        {children}
        <DialogActions pending={dialog.pending} label={submitLabel} />
      </Form>
    </FormDialog>
  )
}

export function RoleDialog({
  dialog,
  person,
  roles,
}: {
  dialog: IntentDialog
  person: { id: string; name: string; role: Role; organizationId?: string } | null
  roles: readonly Role[]
}) {
  return (
    <PersonDialog
      dialog={dialog}
      title="Change Role"
      description={person ? `Choose the role of ${person.name}.` : ''}
      intent="change-role"
      userId={person?.id}
      organizationId={person?.organizationId}
      submitLabel="Update Role"
    >
      <LabelledSelect label="Role" {...accountSelect(dialog, 'role')} defaultValue={person?.role}>
        {/* The current role's option is disabled, as in the team role select (spec §2.10). */}
        <SelectOptions
          options={roles.map((role) => ({
            value: role,
            label: ROLE_BADGES[role].label,
            disabled: role === person?.role,
          }))}
        />
      </LabelledSelect>
    </PersonDialog>
  )
}

/** The change dialogs' select: id `account-<name>`, and the server's errors for it. */
function accountSelect(dialog: IntentDialog, name: 'role' | 'plan') {
  return { id: `account-${name}`, name, errors: dialog.errors(name) }
}

/**
 * Change Plan: until people can pay online, a paid plan is granted here by an agency or
 * platform admin (the upgrade dialog of the team page says so).
 */
export function PlanDialog({
  dialog,
  person,
  agencyScope,
}: {
  dialog: IntentDialog
  person: Person | null
  agencyScope: boolean
}) {
  return (
    <PersonDialog
      dialog={dialog}
      title="Change Plan"
      description={
        person
          ? `Choose the plan of ${person.name}. Paid plans are granted here until online payment is available.`
          : ''
      }
      intent="set-plan"
      userId={person?.id}
      organizationId={person && !agencyScope ? person.organizationId : undefined}
      submitLabel="Update Plan"
    >
      <LabelledSelect label="Plan" {...accountSelect(dialog, 'plan')} defaultValue={person?.plan}>
        <SelectOptions
          options={PLAN_IDS.map((id) => ({
            value: id,
            label: `${PLANS[id].name} (${formatPrice(PLANS[id])}/month)`,
            disabled: id === person?.plan,
          }))}
        />
      </LabelledSelect>
    </PersonDialog>
  )
}

/** The agency's row action: assign the user to a team member, or to nobody. */
export function AssignDialog({
  dialog,
  person,
  teamMembers,
}: {
  dialog: IntentDialog
  person: Person | null
  teamMembers: TeamMember[]
}) {
  return (
    <PersonDialog
      dialog={dialog}
      title="Assign to Team Member"
      description={person ? `Choose the team member who looks after ${person.name}.` : ''}
      intent="assign-user"
      userId={person?.id}
      submitLabel="Assign"
    >
      <AssigneeSelect
        id="assign-user-assignee"
        teamMembers={teamMembers}
        defaultValue={person?.assignedToUserId ?? ''}
        errors={dialog.errors('assignedToUserId')}
      />
    </PersonDialog>
  )
}

/**
 * Hand Over (ADR 049): who takes over the person's seat. Their card links forward to the
 * successor's card once they are inactive; their company contacts move now. The person may be
 * offered a personal card on the platform's host (ADR 103).
 */
export function HandOverDialog({
  dialog,
  person,
  successors,
}: {
  dialog: IntentDialog
  person: Person | null
  successors: TeamMember[]
}) {
  const choices = successors.filter((successor) => successor.id !== person?.id)
  return (
    <PersonDialog
      dialog={dialog}
      title="Hand Over"
      description={
        person
          ? `Choose who takes over from ${person.name}. Their contacts, except those they marked personal, move to this person now; while ${person.name} is inactive, the links to their cards open this person's card.`
          : ''
      }
      intent="hand-over"
      userId={person?.id}
      submitLabel="Hand Over"
    >
      <LabelledSelect
        id="hand-over-successor"
        name="successorId"
        label="Successor"
        defaultValue=""
        errors={dialog.errors('successorId')}
      >
        <option value="" disabled>
          Select a person
        </option>
        <SelectOptions options={byName(choices)} />
      </LabelledSelect>
      <label className="flex items-start gap-3 text-sm">
        <input
          type="checkbox"
          name="offerPersonalCard"
          aria-describedby="hand-over-personal-card-hint"
          className="mt-0.5 h-5 w-5 shrink-0 accent-brand"
        />
        <span>
          <span className="font-medium">{OFFER_PERSONAL_CARD_LABEL}</span>
          <span
            id="hand-over-personal-card-hint"
            className="mt-1 block text-gray-600 dark:text-gray-400"
          >
            {OFFER_PERSONAL_CARD_HINT}
          </span>
        </span>
      </label>
    </PersonDialog>
  )
}
