// The end-user Team page (roles-teams-admin.md §2.9, §2.10): the upgrade page, or the teams the
// user belongs to with their members and pending invitations.
import type { SerializeFrom } from '@remix-run/node'
import { Form, Link, useActionData, useNavigation, useSubmit } from '@remix-run/react'
import { formatDistance } from 'date-fns/formatDistance'
import { Loader2, Trash2, Users, X } from 'lucide-react'
import { useEffect, useState } from 'react'
import { isClientFailure, useClientFailureToast } from '#app/components/client-failure'
import { Button } from '#app/components/ui/button'
import { actionsColumn, DataTable } from '#app/components/ui/data-table'
import { ConfirmActions, ConfirmDialog } from '#app/components/ui/dialog'
import { SELECT_CLASS } from '#app/components/ui/select'
import { toast } from '#app/components/ui/toasts'
import type { TeamActionData } from '#app/components/ui/use-intent-dialog'
import {
  inviteBlockedByPolicy,
  ONLY_ADMINS_INVITE,
  TEAM_ROLE_LABELS,
  teamPermissions,
} from '#app/teams/permissions'
import type { teamPageLoader } from '#app/teams/team-page-loader.server'
import { cn } from '#app/utils/cn'
import { hasTeamFeatures, PLANS } from '#app/validation/plans'
import { PLANS_VIEW_PATH, teamPagePath } from '#app/validation/team-paths'
import { TEAM_ROLES, type TeamRole } from '#app/validation/teams'
import { PlansView } from './plans-view'
import { AddMemberDialog, TeamFormDialog } from './team-dialogs'

type Data = SerializeFrom<typeof teamPageLoader>
type Selected = NonNullable<Data['selected']>

// Spec §8: what a failed request says, by the form's intent.
const FAILURES: Record<string, string> = {
  'create-team': 'Failed to create team',
  'update-team': 'Failed to update team',
  'delete-team': 'Failed to delete team',
  'add-member': 'Failed to add team member',
  'change-role': 'Failed to update team member',
  'remove-member': 'Failed to remove team member',
  'cancel-invitation': 'Failed to cancel invitation',
  upgrade: 'Failed to upgrade plan',
  'request-plan': 'Failed to send your request',
  'withdraw-plan-request': 'Failed to withdraw your request',
  'billing-portal': 'Failed to open billing',
}
// Refusals of forms outside a dialog have no field to show them beside: they are toasts.
const ROW_INTENTS = [
  'change-role',
  'remove-member',
  'cancel-invitation',
  'delete-team',
  'withdraw-plan-request',
]

/** Spec §2.9: shown while the team page loads ('Loading team information...'). */
export function TeamPageLoading() {
  return (
    <main
      className="mx-auto flex max-w-5xl flex-col items-center gap-3 px-4 py-24"
      aria-busy="true"
    >
      <Loader2 aria-hidden className="h-8 w-8 animate-spin text-brand-text" />
      <p role="status" className="text-gray-600 dark:text-gray-400">
        Loading team information...
      </p>
    </main>
  )
}

export function TeamPage(data: Data) {
  const actionData = useActionData<TeamActionData>()
  useClientFailureToast(actionData, FAILURES, 'Something went wrong. Please try again.')
  useEffect(() => {
    if (isClientFailure(actionData) || !actionData?.error) return
    if (ROW_INTENTS.includes(actionData.intent ?? '')) toast.error(actionData.error)
  }, [actionData])
  if (data.view === 'plans')
    return (
      <PlansView
        plan={data.plan}
        hasTeams={data.teams.length > 0}
        canPayOnline={data.canPayOnline}
        billing={data.billing}
        checkout={data.checkout}
        planRequest={data.planRequest}
      />
    )
  return <TeamManagement {...data} />
}

function TeamManagement({ plan, teams, selected, userId, now }: Data) {
  const ownPlan = PLANS[plan]
  return (
    <main className="mx-auto flex w-full min-w-0 max-w-5xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold">Team</h1>
          <p className="text-gray-600 dark:text-gray-400">
            Your plan: <span className="font-medium">{ownPlan.name}</span> ·{' '}
            <Link
              to={PLANS_VIEW_PATH}
              className="font-medium text-brand-text underline-offset-4 hover:underline"
            >
              View plans
            </Link>
          </p>
        </div>
        {hasTeamFeatures(plan) ? (
          <TeamFormDialog />
        ) : (
          <Button asChild variant="secondary">
            <Link to={PLANS_VIEW_PATH}>Upgrade to create a team</Link>
          </Button>
        )}
      </div>
      {teams.length === 0 || !selected ? (
        <section className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-gray-300 px-6 py-16 text-center dark:border-gray-700">
          <Users aria-hidden className="h-10 w-10 text-gray-400" />
          <h2 className="text-lg font-semibold">No teams yet</h2>
          <p className="max-w-md text-sm text-gray-600 dark:text-gray-400">
            Create your first team, then add the people you work with. Your {ownPlan.name} plan
            allows up to {ownPlan.memberLimit} members per team.
          </p>
        </section>
      ) : (
        <>
          <nav aria-label="Teams" className="-mx-4 overflow-x-auto px-4">
            <ul className="flex gap-1 border-b border-gray-200 dark:border-gray-800">
              {teams.map((team) => {
                const current = team.id === selected.id
                return (
                  <li key={team.id}>
                    <Link
                      to={teamPagePath(team.id)}
                      aria-current={current ? 'page' : undefined}
                      preventScrollReset
                      className={cn(
                        '-mb-px block whitespace-nowrap border-b-2 px-4 py-2 text-sm font-medium',
                        current
                          ? 'border-brand text-brand-text'
                          : 'border-transparent text-gray-600 hover:text-gray-900 dark:text-gray-400 dark:hover:text-gray-100',
                      )}
                    >
                      {team.name}
                    </Link>
                  </li>
                )
              })}
            </ul>
          </nav>
          <TeamPanel team={selected} userId={userId} now={now} />
        </>
      )}
    </main>
  )
}

function TeamPanel({ team, userId, now }: { team: Selected; userId: string; now: string }) {
  const can = teamPermissions(team.myRole, team.policy)
  const plan = PLANS[team.plan]
  return (
    <section aria-labelledby="team-name" className="flex min-w-0 flex-col gap-8">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        {/* A name or description without spaces breaks anywhere rather than widening the page. */}
        <div className="flex min-w-0 flex-col gap-1 [overflow-wrap:anywhere]">
          <h2 id="team-name" className="text-xl font-semibold">
            {team.name}
          </h2>
          {team.description ? (
            <p className="whitespace-pre-line text-sm text-gray-600 dark:text-gray-400">
              {team.description}
            </p>
          ) : null}
          <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="team-seats">
            {team.seats} of {plan.memberLimit} places used ({plan.name} plan, pending invitations
            included)
          </p>
        </div>
        {can.editTeam ? (
          <div className="flex gap-2">
            <TeamFormDialog team={team} />
            <DeleteTeam team={team} />
          </div>
        ) : null}
      </div>
      <MembersTable team={team} userId={userId} />
      <InvitationsTable team={team} now={now} />
    </section>
  )
}

function DeleteTeam({ team }: { team: Selected }) {
  const navigation = useNavigation()
  return (
    <ConfirmDialog
      trigger={
        <Button variant="secondary" size="sm">
          <Trash2 aria-hidden className="h-4 w-4" /> Delete Team
        </Button>
      }
      title={`Delete ${team.name}?`}
      description="The team, its memberships and its pending invitations are deleted. Nobody's account or cards are touched."
    >
      <Form method="POST" className="flex justify-end gap-2">
        <input type="hidden" name="intent" value="delete-team" />
        <input type="hidden" name="teamId" value={team.id} />
        <ConfirmActions
          pending={navigation.state === 'submitting'}
          label="Delete"
          pendingText="Deleting..."
        />
      </Form>
    </ConfirmDialog>
  )
}

const memberName = (member: { firstName: string; lastName: string }) =>
  `${member.firstName} ${member.lastName}`.trim() || 'Unnamed User'

function MembersTable({ team, userId }: { team: Selected; userId: string }) {
  const can = teamPermissions(team.myRole, team.policy)
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-lg font-semibold">Members</h3>
        {inviteBlockedByPolicy(team.myRole, team.policy) ? (
          // The agency turned "allow members to invite others" off: no form to be refused by.
          <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="invite-policy">
            {ONLY_ADMINS_INVITE}.
          </p>
        ) : (
          <AddMemberDialog
            teamId={team.id}
            enabled={can.invite}
            canGrantAdmin={can.grantAdmin}
            defaultRole={team.policy.defaultRole}
          />
        )}
      </div>
      <DataTable
        columns={[
          { label: 'Name', className: 'px-2 py-3 sm:px-4 font-medium' },
          { label: 'Email', className: 'hidden px-2 py-3 sm:px-4 font-medium sm:table-cell' },
          { label: 'Team role', className: 'px-2 py-3 sm:px-4 font-medium' },
          can.manageMembers && actionsColumn('px-2 py-3 sm:px-4 font-medium'),
        ]}
      >
        {team.members.map((member) => {
          const own = member.userId === userId
          const owner = member.userId === team.createdByUserId
          // Nobody acts on their own row, and the owner (who pays) is never demoted or removed.
          const actionable = can.manageMembers && !own && !owner
          return (
            <tr key={member.id} data-testid="team-member-row">
              <td className="px-2 py-3 sm:px-4 font-medium">
                {memberName(member)}
                {own ? (
                  <span className="ml-2 text-xs text-gray-500 dark:text-gray-400">(you)</span>
                ) : null}
                {owner ? (
                  <span className="ml-2 rounded-full bg-gray-100 px-2 py-0.5 text-xs text-gray-700 dark:bg-gray-800 dark:text-gray-300">
                    Owner
                  </span>
                ) : null}
                {/* Below 640 px the email sits under the name instead of in its own column. */}
                <div className="break-all text-xs font-normal text-gray-600 sm:hidden dark:text-gray-400">
                  {member.email}
                </div>
              </td>
              <td className="hidden px-2 py-3 sm:px-4 text-gray-600 sm:table-cell dark:text-gray-400">
                {member.email}
              </td>
              <td className="px-2 py-3 sm:px-4">
                {actionable ? (
                  <RoleSelect teamId={team.id} member={member} />
                ) : (
                  <span data-testid="team-role">{TEAM_ROLE_LABELS[member.role]}</span>
                )}
              </td>
              {can.manageMembers ? (
                <td className="px-2 py-3 sm:px-4 text-right">
                  {actionable ? <RemoveMember teamId={team.id} member={member} /> : null}
                </td>
              ) : null}
            </tr>
          )
        })}
      </DataTable>
    </div>
  )
}

/** Spec §2.10: the current role's option is disabled; choosing another one saves it. */
function RoleSelect({
  teamId,
  member,
}: {
  teamId: string
  member: { id: string; role: TeamRole; firstName: string; lastName: string }
}) {
  const submit = useSubmit()
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const id = `role-${member.id}`
  return (
    <Form method="POST" className="flex items-center gap-2">
      <input type="hidden" name="intent" value="change-role" />
      <input type="hidden" name="teamId" value={teamId} />
      <input type="hidden" name="memberId" value={member.id} />
      <label htmlFor={id} className="sr-only">
        Team role of {memberName(member)}
      </label>
      <select
        id={id}
        name="role"
        defaultValue={member.role}
        key={member.role}
        className={cn(SELECT_CLASS, 'h-9')}
        onChange={(event) => {
          if (hydrated) submit(event.currentTarget.form, { preventScrollReset: true })
        }}
      >
        {TEAM_ROLES.map((role) => (
          <option key={role} value={role} disabled={role === member.role}>
            {TEAM_ROLE_LABELS[role]}
          </option>
        ))}
      </select>
      {/* Without JavaScript the change needs a button. */}
      {hydrated ? null : (
        <Button type="submit" variant="secondary" size="sm">
          Update
        </Button>
      )}
    </Form>
  )
}

function RemoveMember({
  teamId,
  member,
}: {
  teamId: string
  member: { id: string; firstName: string; lastName: string; email: string }
}) {
  const navigation = useNavigation()
  const name = memberName(member)
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" size="sm" aria-label={`Remove ${name}`}>
          <X aria-hidden className="h-4 w-4" />
          <span className="sr-only sm:not-sr-only">Remove</span>
        </Button>
      }
      title={`Remove ${name} from the team?`}
      description={`${member.email} loses access to this team. Their account and cards stay as they are.`}
    >
      <Form method="POST" className="flex justify-end gap-2">
        <input type="hidden" name="intent" value="remove-member" />
        <input type="hidden" name="teamId" value={teamId} />
        <input type="hidden" name="memberId" value={member.id} />
        <ConfirmActions
          pending={navigation.state === 'submitting'}
          label="Remove"
          pendingText="Removing..."
        />
      </Form>
    </ConfirmDialog>
  )
}

function InvitationsTable({ team, now }: { team: Selected; now: string }) {
  const can = teamPermissions(team.myRole, team.policy)
  const navigation = useNavigation()
  const cancelling = navigation.formData?.get('intent') === 'cancel-invitation'
  return (
    <div className="flex flex-col gap-3">
      <h3 className="text-lg font-semibold">Pending Invitations</h3>
      {team.invitations.length === 0 ? (
        <p className="rounded-xl border border-dashed border-gray-300 px-4 py-6 text-center text-sm text-gray-600 dark:border-gray-700 dark:text-gray-400">
          No pending invitations.
        </p>
      ) : (
        <DataTable
          columns={[
            { label: 'Email' },
            { label: 'Role' },
            { label: 'Expires', className: 'hidden px-4 py-3 font-medium sm:table-cell' },
            can.invite && actionsColumn(),
          ]}
        >
          {team.invitations.map((invitation) => {
            return (
              <tr key={invitation.id} data-testid="invitation-row">
                <td className="px-4 py-3 font-medium">
                  <span className="break-all">{invitation.email}</span>
                  <div className="text-xs font-normal text-gray-600 sm:hidden dark:text-gray-400">
                    <Expiry expiresAt={invitation.expiresAt} now={now} />
                  </div>
                </td>
                <td className="px-4 py-3">{TEAM_ROLE_LABELS[invitation.role]}</td>
                <td className="hidden px-4 py-3 text-gray-600 sm:table-cell dark:text-gray-400">
                  <Expiry expiresAt={invitation.expiresAt} now={now} />
                </td>
                {can.invite ? (
                  <td className="px-4 py-3 text-right">
                    <Form method="POST" preventScrollReset>
                      <input type="hidden" name="intent" value="cancel-invitation" />
                      <input type="hidden" name="teamId" value={team.id} />
                      <input type="hidden" name="invitationId" value={invitation.id} />
                      <Button
                        type="submit"
                        variant="ghost"
                        size="sm"
                        disabled={cancelling}
                        aria-label={`Cancel the invitation of ${invitation.email}`}
                      >
                        Cancel
                      </Button>
                    </Form>
                  </td>
                ) : null}
              </tr>
            )
          })}
        </DataTable>
      )}
    </div>
  )
}

function Expiry({ expiresAt, now }: { expiresAt: string | Date; now: string }) {
  if (new Date(expiresAt) <= new Date(now)) {
    return <span className="font-medium text-red-600 dark:text-red-400">Expired</span>
  }
  return <>Expires {formatDistance(new Date(expiresAt), new Date(now), { addSuffix: true })}</>
}
