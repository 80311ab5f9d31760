// The sign-in pages' actions answer in the page's language (ADR 105): the host's offered
// languages, negotiated as the root loader does for the page that sent the form.
import type { AppLoadContext } from '@remix-run/node'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { languageOfRequest } from '#app/utils/i18n/negotiate'
import { translateEnglish, translator } from '#app/utils/i18n/translate'

export async function requestTranslator(request: Request, context: AppLoadContext) {
  const { languages } = await requireTenant(context)
  const t = translator(languageOfRequest(request, languages))
  /** For `formAction`'s `translate`: the English messages of the schemas and refusals. */
  const translate = (message: string) => translateEnglish(message, t)
  return { t, translate }
}
