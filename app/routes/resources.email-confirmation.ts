import { type ActionFunctionArgs, redirect } from '@remix-run/node'
import { intentAction } from '#app/actions/intent-action.server'
import { dismissBannerCookie, resendConfirmationEmail } from '#app/auth/email-confirmation.server'
import { requireUser } from '#app/auth/guards.server'
import { safeRedirectPath } from '#app/auth/redirect'
import { isRefusal } from '#app/utils/action-error'
import {
  ALREADY_CONFIRMED_MESSAGE,
  CONFIRMATION_SENT_MESSAGE,
  EmailConfirmationIntentSchema,
} from '#app/validation/email-confirmation'

// The buttons of the unconfirmed-email banner and the profile: plain form posts that come back
// to the page they were on, so they work without JavaScript.
export async function loader() {
  return redirect('/')
}

export async function action({ request, context }: ActionFunctionArgs) {
  const back = (redirectTo: string | undefined) => safeRedirectPath(redirectTo) ?? '/'
  return intentAction(request, {
    guard: () => requireUser(request, context),
    schema: EmailConfirmationIntentSchema,
    redirectTo: '/',
    intents: {
      dismiss: async ({ redirectTo }, { user }) => ({
        redirectTo: back(redirectTo),
        headers: { 'Set-Cookie': await dismissBannerCookie(user) },
      }),
      resend: async ({ redirectTo }, { tenant, user }) => {
        try {
          const outcome = await resendConfirmationEmail(tenant, user, context.clientIp ?? 'unknown')
          return outcome === 'sent'
            ? { toast: CONFIRMATION_SENT_MESSAGE, redirectTo: back(redirectTo) }
            : { toast: ALREADY_CONFIRMED_MESSAGE, type: 'info', redirectTo: back(redirectTo) }
        } catch (error) {
          if (!isRefusal(error, 'rate_limited')) throw error
          // A redirect (the page comes back, with or without JavaScript) carrying the 429's
          // message: these buttons sit on every page, which has no reply to show.
          return {
            toast: error.message,
            type: 'error',
            redirectTo: back(redirectTo),
            headers: { 'Retry-After': String(error.retryAfterSeconds) },
          }
        }
      },
    },
  })
}
