import { type ActionFunctionArgs, redirect } from '@remix-run/node'
import { getOptionalUser } from '#app/auth/guards.server'
import { safeRedirectPath } from '#app/auth/redirect'
import { invalidateSession, serializeBlankSessionCookie } from '#app/auth/session.server'
import { readPlainForm } from '#app/media/uploads.server'
import { toastCookie } from '#app/utils/toast.server'

// Signing out changes state, so it is a POST; a GET just goes home.
export async function loader() {
  return redirect('/')
}

export async function action({ request, context }: ActionFunctionArgs) {
  // A session still owing a sign-in step (ADR 045) may sign out too.
  const { tenant, session, pendingSession } = await getOptionalUser(request, context)
  // "Switch account" (an invitation for another address) comes back to its page after sign-in.
  // Signing out never fails on its body: an unreadable one just has no destination.
  const form = await readPlainForm(request).catch(() => null)
  const redirectTo = safeRedirectPath(form?.get('redirectTo'))
  const ending = session ?? pendingSession
  if (ending) await invalidateSession(tenant.id, ending.sessionId)
  const headers = new Headers()
  headers.append('Set-Cookie', serializeBlankSessionCookie())
  headers.append('Set-Cookie', await toastCookie({ title: 'Signed out successfully' }))
  const login = redirectTo ? `/auth/login?${new URLSearchParams({ redirectTo })}` : '/auth/login'
  return redirect(login, { headers })
}
