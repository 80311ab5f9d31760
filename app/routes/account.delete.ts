// "Delete my account" (issue 31 point 4, ADR 053): the profile's danger zone posts here. The
// password confirms it; the deletion is scheduled, every session of the account ends (this one
// too) and the person lands on the sign-in page with the date. A GET goes to the profile.
import { type ActionFunctionArgs, redirect } from '@remix-run/node'
import { formAction } from '#app/actions/intent-action.server'
import { requireUser } from '#app/auth/guards.server'
import { serializeBlankSessionCookie } from '#app/auth/session.server'
import { requestAccountDeletion } from '#app/people/account-deletion.server'
import { DELETION_SCHEDULED, DeleteAccountSchema } from '#app/validation/account-deletion'

export async function loader() {
  return redirect('/profile')
}

export async function action({ request, context }: ActionFunctionArgs) {
  return formAction(request, {
    guard: () => requireUser(request, context),
    schema: DeleteAccountSchema,
    hideFields: ['password'],
    redirectTo: '/auth/login',
    handle: async ({ password }, signedIn) => {
      const scheduledFor = await requestAccountDeletion(
        signedIn,
        password,
        context.clientIp ?? 'unknown',
      )
      return {
        toast: DELETION_SCHEDULED(scheduledFor),
        description:
          'We emailed you the date. Until then you can sign in to download your data or keep your account.',
        redirectTo: '/auth/login',
        headers: { 'Set-Cookie': serializeBlankSessionCookie() },
      }
    },
  })
}
