// The sign-in pages' actions answer in the page's language (ADR 105): the host's offered
// languages, negotiated as the root loader does for the page that sent the form.
import type { AppLoadContext } from '@remix-run/node'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { languageOfRequest } from '#app/utils/i18n/negotiate'
import { type Translate, translateEnglish, translator } from '#app/utils/i18n/translate'
import { signedInToast } from '#app/validation/account-deletion'

export async function requestTranslator(request: Request, context: AppLoadContext) {
  const { languages } = await requireTenant(context)
  const t = translator(languageOfRequest(request, languages))
  /** For `formAction`'s `translate`: the English messages of the schemas and refusals. */
  const translate = (message: string) => translateEnglish(message, t)
  return { t, translate }
}

/**
 * The sign-in's toast in the page's language; a pending deletion's notice, with its date and the
 * banner's words, stays as the banner (English) says it.
 */
export function translatedSignedInToast(
  completion: { deletionPending: Date | string | null },
  t: Translate,
) {
  return completion.deletionPending ? signedInToast(completion) : { toast: t('signIn.done') }
}
