// Feedback that survives a redirect: a signed flash cookie, read once by the root loader.
import { createCookieSessionStorage, redirect } from '@remix-run/node'
import { z } from 'zod'
import { type Env, getEnv } from '#app/env.server'

export const ToastSchema = z.object({
  type: z.enum(['success', 'error', 'info']).default('success'),
  title: z.string(),
  description: z.string().optional(),
})
export type Toast = z.input<typeof ToastSchema>

type FlashData = { toast: z.output<typeof ToastSchema> }
// Made again when the environment is read again (resetEnvForTests): a test that rotates
// APP_SECRET or runs as production, and the test files after it in the same process, sign with
// the secret in force.
let storage:
  | {
      env: Env
      sessions: ReturnType<typeof createCookieSessionStorage<Record<string, never>, FlashData>>
    }
  | undefined
function toastStorage() {
  const env = getEnv()
  if (storage?.env !== env) {
    const sessions = createCookieSessionStorage<Record<string, never>, FlashData>({
      cookie: {
        name: 'toast',
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        secure: env.NODE_ENV === 'production',
        secrets: [env.APP_SECRET],
      },
    })
    storage = { env, sessions }
  }
  return storage.sessions
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
