import { type ActionFunctionArgs, redirect } from '@remix-run/node'
import { getOptionalUser } from '#app/auth/guards.server'
import { invalidateSession, serializeBlankSessionCookie } from '#app/auth/session.server'
import { toastCookie } from '#app/utils/toast.server'

// Signing out changes state, so it is a POST; a GET just goes home.
export async function loader() {
  return redirect('/')
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { tenant, session } = await getOptionalUser(request, context)
  if (session) await invalidateSession(tenant.id, session.sessionId)
  const headers = new Headers()
  headers.append('Set-Cookie', serializeBlankSessionCookie())
  headers.append('Set-Cookie', await toastCookie({ title: 'Signed out successfully' }))
  return redirect('/auth/login', { headers })
}
