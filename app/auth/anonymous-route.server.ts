// The pages only a signed-out visitor sees (sign-in, sign-up, forgot password): a signed-in one
// goes to their dashboard instead, from the page and from its form alike.
import type { AppLoadContext } from '@remix-run/node'
import type { z } from 'zod'
import { type FormActionOptions, formAction } from '#app/actions/intent-action.server'
import { requireAnonymous } from './guards.server'

/** The loader of such a page that needs no data. */
export async function anonymousLoader(request: Request, context: AppLoadContext) {
  await requireAnonymous(request, context)
  return null
}

type Anonymous = Awaited<ReturnType<typeof requireAnonymous>>

/** The action of such a page: its form's action, guarded by requireAnonymous. */
export async function anonymousAction<S extends z.ZodType>(
  request: Request,
  context: AppLoadContext,
  options: Omit<FormActionOptions<S, Anonymous>, 'guard'>,
) {
  return formAction(request, { ...options, guard: () => requireAnonymous(request, context) })
}
