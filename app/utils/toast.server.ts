// Feedback that survives a redirect: a signed flash cookie, read once by the root loader.
import { createCookieSessionStorage, redirect } from '@remix-run/node'
import { z } from 'zod'
import { getEnv } from '#app/env.server'

export const ToastSchema = z.object({
  type: z.enum(['success', 'error', 'info']).default('success'),
  title: z.string(),
  description: z.string().optional(),
})
export type Toast = z.input<typeof ToastSchema>

type FlashData = { toast: z.output<typeof ToastSchema> }
let storage:
  | ReturnType<typeof createCookieSessionStorage<Record<string, never>, FlashData>>
  | undefined
function toastStorage() {
  storage ??= createCookieSessionStorage<Record<string, never>, FlashData>({
    cookie: {
      name: 'toast',
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: getEnv().NODE_ENV === 'production',
      secrets: [getEnv().APP_SECRET],
    },
  })
  return storage
}

export async function toastCookie(toast: Toast) {
  const session = await toastStorage().getSession()
  session.flash('toast', ToastSchema.parse(toast))
  return toastStorage().commitSession(session)
}

/** Reads and clears the pending toast. */
export async function readToast(request: Request) {
  const session = await toastStorage().getSession(request.headers.get('Cookie'))
  const parsed = ToastSchema.safeParse(session.get('toast'))
  return {
    toast: parsed.success ? parsed.data : null,
    setCookie: parsed.success ? await toastStorage().destroySession(session) : null,
  }
}

export async function redirectWithToast(url: string, toast: Toast, init: ResponseInit = {}) {
  const headers = new Headers(init.headers)
  headers.append('Set-Cookie', await toastCookie(toast))
  return redirect(url, { ...init, headers })
}
