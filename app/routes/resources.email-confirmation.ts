import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, redirect } from '@remix-run/node'
import { dismissBannerCookie, resendConfirmationEmail } from '#app/auth/email-confirmation.server'
import { requireUser } from '#app/auth/guards.server'
import { RateLimitedError } from '#app/auth/rate-limit.server'
import { safeRedirectPath } from '#app/auth/redirect'
import { readPlainForm } from '#app/media/uploads.server'
import { redirectWithToast } from '#app/utils/toast.server'
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
  const { tenant, user } = await requireUser(request, context)
  const submission = parseWithZod(await readPlainForm(request), {
    schema: EmailConfirmationIntentSchema,
  })
  if (submission.status !== 'success') {
    return Response.json({ result: submission.reply() }, { status: 400 })
  }
  const back = safeRedirectPath(submission.value.redirectTo) ?? '/'
  if (submission.value.intent === 'dismiss') {
    return redirect(back, { headers: { 'Set-Cookie': await dismissBannerCookie(user) } })
  }
  try {
    const outcome = await resendConfirmationEmail(tenant, user, context.clientIp ?? 'unknown')
    return outcome === 'sent'
      ? redirectWithToast(back, { title: CONFIRMATION_SENT_MESSAGE })
      : redirectWithToast(back, { type: 'info', title: ALREADY_CONFIRMED_MESSAGE })
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error
    // A redirect (the page comes back, with or without JavaScript) carrying the 429's message.
    return redirectWithToast(
      back,
      { type: 'error', title: error.message },
      { headers: { 'Retry-After': String(error.retryAfterSeconds) } },
    )
  }
}
