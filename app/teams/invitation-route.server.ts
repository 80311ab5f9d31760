// The two pages of an emailed invitation, /invitations/{token} (accept) and
// /invitations/{token}/decline: each shows the invitation, and only its POST answers it.

import { parseWithZod } from '@conform-to/zod/v4'
import { type AppLoadContext, data } from '@remix-run/node'
import { getOptionalUser, requireUser } from '#app/auth/guards.server'
import { readPlainForm } from '#app/media/uploads.server'
import { isRefusal } from '#app/utils/action-error'
import { redirectWithToast } from '#app/utils/toast.server'
import { rolePaths } from '#app/validation/roles'
import { teamPagePath } from '#app/validation/team-paths'
import { InvitationResponseSchema } from '#app/validation/teams'
import { answerInvitation, INVITATION_EXPIRED, lookUpInvitation } from './invitations.server'

// The token is in the URL: it must not leak to other sites through the Referer header.
export const INVITATION_HEADERS = { 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' }

export async function invitationLoader(request: Request, context: AppLoadContext, token: string) {
  const { tenant, user } = await getOptionalUser(request, context)
  const lookup = await lookUpInvitation(tenant, token)
  const viewer = user ? { email: user.email } : null
  const status = lookup.state === 'invalid' ? 404 : lookup.state === 'expired' ? 410 : 200
  // The invitee's own account answers; another signed-in account is told so, and not whose
  // invitation it is (issue 39 point 3): the invited address is the invitee's to see.
  const matches = lookup.state === 'pending' && viewer?.email === lookup.invitation.email
  const shown =
    lookup.state === 'pending'
      ? {
          ...lookup,
          invitation: {
            ...lookup.invitation,
            email: viewer && !matches ? null : (lookup.invitation.email as string | null),
          },
        }
      : lookup
  return data(
    {
      ...shown,
      token: lookup.state === 'pending' ? token : null,
      viewer,
      matches,
      answerError: null as string | null,
    },
    { status, headers: INVITATION_HEADERS },
  )
}

export async function invitationAction(
  request: Request,
  context: AppLoadContext,
  token: string,
  answer: 'accept' | 'decline',
) {
  const { tenant, user } = await requireUser(request, context)
  const submission = parseWithZod(await readPlainForm(request), {
    schema: InvitationResponseSchema,
  })
  if (submission.status !== 'success' || submission.value.intent !== answer) {
    return data(
      { answerError: `Use the ${answer === 'accept' ? 'Accept' : 'Decline'} button of this page` },
      { status: 400, headers: INVITATION_HEADERS },
    )
  }
  try {
    const result = await answerInvitation(tenant, user, token, answer)
    if (result.outcome === 'expired') {
      return data({ answerError: INVITATION_EXPIRED }, { status: 410, headers: INVITATION_HEADERS })
    }
    if (result.outcome === 'accepted') {
      return redirectWithToast(teamPagePath(result.teamId), { title: 'You have joined the team' })
    }
    return redirectWithToast(rolePaths(user.role).dashboard, { title: 'Invitation declined' })
  } catch (error) {
    if (!isRefusal(error)) throw error
    return data(
      { answerError: error.message },
      { status: error.status, headers: INVITATION_HEADERS },
    )
  }
}
