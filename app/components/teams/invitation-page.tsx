// What an invitation link opens: who invites whom to which team, and one button that answers.
import type { SerializeFrom } from '@remix-run/node'
import { Form, Link, useActionData, useNavigation } from '@remix-run/react'
import { useClientFailureToast } from '#app/components/client-failure'
import { FormMessage } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'
import type { invitationLoader } from '#app/teams/invitation-route.server'
import { TEAM_ROLE_LABELS } from '#app/teams/permissions'
import { INVITATIONS_VALID_FOR } from '#app/validation/invitation-lifetime'
import type { TeamRole } from '#app/validation/teams'

type Data = SerializeFrom<typeof invitationLoader>

// Spec §8: what a failed request (no network, a 5xx) says, by the answer it carried.
const FAILURES: Record<string, string> = {
  accept: 'Failed to accept invitation',
  decline: 'Failed to decline invitation',
}

export function InvitationPage({ data, answer }: { data: Data; answer: 'accept' | 'decline' }) {
  const actionData = useActionData<{ answerError?: string }>()
  const navigation = useNavigation()
  useClientFailureToast(actionData, FAILURES, FAILURES[answer] ?? 'Something went wrong')
  const error = actionData?.answerError
  if (data.state === 'expired' || error === 'Invitation has expired') {
    return (
      <AuthCard title="Invitation has expired" description={INVITATIONS_VALID_FOR}>
        <p className="text-sm text-gray-700 dark:text-gray-300">
          Ask the team's admin to invite you again.
        </p>
      </AuthCard>
    )
  }
  if (data.state !== 'pending' || !data.token) {
    return (
      <AuthCard title="Invitation not found" description="This invitation is no longer valid">
        <p className="text-sm text-gray-700 dark:text-gray-300">
          It may have been accepted, declined or cancelled already. Ask the team's admin for a new
          invitation if you still want to join.
        </p>
      </AuthCard>
    )
  }
  const { invitation, token } = data
  const path = `/invitations/${token}${answer === 'decline' ? '/decline' : ''}`
  const role = TEAM_ROLE_LABELS[invitation.role as TeamRole] ?? invitation.role
  const title =
    answer === 'accept'
      ? `Join ${invitation.teamName}`
      : `Decline the invitation to ${invitation.teamName}?`
  return (
    <AuthCard
      title={title}
      description={`${invitation.inviterName} invited ${invitation.email ?? 'another email address'} to join the team “${invitation.teamName}” as ${role}.`}
    >
      <div className="flex flex-col gap-4">
        {error ? <FormMessage>{error}</FormMessage> : null}
        {!data.viewer ? (
          <>
            <p className="text-sm text-gray-700 dark:text-gray-300">
              Sign in with {invitation.email} to {answer} the invitation, or create an account with
              that address first.
            </p>
            <Button asChild className="w-full">
              <Link to={`/auth/login?${new URLSearchParams({ redirectTo: path })}`}>
                Sign in to {answer}
              </Link>
            </Button>
            <Button asChild variant="secondary" className="w-full">
              <Link
                to={`/auth/register?${new URLSearchParams({ email: invitation.email ?? '', redirectTo: path })}`}
              >
                Create an account
              </Link>
            </Button>
          </>
        ) : !data.matches ? (
          <>
            <FormMessage>
              {`This invitation was sent to another email address, and you are signed in as ${data.viewer.email}. Sign in with the invited address to answer it.`}
            </FormMessage>
            <Form method="POST" action="/auth/logout">
              <input type="hidden" name="redirectTo" value={path} />
              <Button type="submit" variant="secondary" className="w-full">
                Sign out and switch account
              </Button>
            </Form>
          </>
        ) : (
          <Form method="POST" className="flex flex-col gap-3">
            <input type="hidden" name="intent" value={answer} />
            <StatusButton
              variant={answer === 'accept' ? 'primary' : 'danger'}
              pending={navigation.state === 'submitting'}
              pendingText={answer === 'accept' ? 'Joining...' : 'Declining...'}
            >
              {answer === 'accept' ? 'Accept Invitation' : 'Decline Invitation'}
            </StatusButton>
            <Button asChild variant="ghost" className="w-full">
              {answer === 'accept' ? (
                <Link to={`/invitations/${token}/decline`}>Decline instead</Link>
              ) : (
                <Link to={`/invitations/${token}`}>Accept instead</Link>
              )}
            </Button>
          </Form>
        )}
      </div>
    </AuthCard>
  )
}
