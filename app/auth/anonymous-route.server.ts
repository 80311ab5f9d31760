// The pages only a signed-out visitor sees (sign-in, sign-up, forgot password): a signed-in one
// goes to their dashboard instead, from the page and from its form alike. Their forms answer in
// the page's language (ADR 105).
import type { AppLoadContext, LoaderFunctionArgs } from '@remix-run/node'
import type { z } from 'zod'
import { type FormActionOptions, formAction } from '#app/actions/intent-action.server'
import type { Translate } from '#app/utils/i18n/translate'
import { requireAnonymous } from './guards.server'
import { requestTranslator } from './page-language.server'

/** The loader of such a page that needs no data. */
export async function anonymousLoader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context)
  return null
}

/** What the handler of such a page's form gets: the tenant, and the page's translator. */
type Anonymous = Awaited<ReturnType<typeof requireAnonymous>> & { t: Translate }

/**
 * The action of such a page: its form's action, guarded by requireAnonymous, its refusals and
 * the schema's messages in the page's language.
 */
export async function anonymousAction<S extends z.ZodType>(
  request: Request,
  context: AppLoadContext,
  options: Omit<FormActionOptions<S, Anonymous>, 'guard' | 'translate'>,
) {
  const { t, translate } = await requestTranslator(request, context)
  return formAction(request, {
    ...options,
    translate,
    guard: async () => ({ ...(await requireAnonymous(request, context)), t }),
  })
}
