// "Keep my account" (issue 41 point 16, ADR 081): a person signed in while their deletion waits
// (to download their data, say) cancels it from the banner. A GET goes to the profile.
import { type ActionFunctionArgs, redirect } from '@remix-run/node'
import { formAction } from '#app/actions/intent-action.server'
import { requireUser } from '#app/auth/guards.server'
import { safeRedirectPath } from '#app/auth/redirect'
import { keepAccount } from '#app/people/account-deletion.server'
import { DELETION_CANCELLED, KeepAccountSchema } from '#app/validation/account-deletion'

export async function loader() {
  return redirect('/profile')
}

export async function action({ request, context }: ActionFunctionArgs) {
  return formAction(request, {
    guard: () => requireUser(request, context),
    schema: KeepAccountSchema,
    redirectTo: '/profile',
    handle: async ({ redirectTo }, signedIn) => {
      await keepAccount(signedIn)
      return {
        toast: DELETION_CANCELLED,
        description: 'Your account stays as it is.',
        redirectTo: safeRedirectPath(redirectTo) ?? '/profile',
      }
    },
  })
}
