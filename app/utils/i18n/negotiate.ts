// Which language a visitor gets (ADR 105): the browser's Accept-Language, read by `negotiator`
// (q-values, regional tags such as de-CH matching de), within the languages the host offers,
// else the host's default. A `?lang=` the visitor picked on the page wins over the header.
import Negotiator from 'negotiator'
import {
  isLanguage,
  LANGUAGES,
  type Language,
  type LanguageSettings,
} from '#app/validation/languages'

/**
 * The product's languages the browser accepts, most wanted first; none for a request without
 * the header (a crawler, curl): the host's default answers those. The page cache keys on this
 * list, which is all the choice below depends on, so one entry answers every browser that
 * ranks the same languages the same way.
 */
export function acceptedLanguages(acceptLanguage: string | null | undefined): Language[] {
  if (!acceptLanguage?.trim()) return []
  const negotiator = new Negotiator({ headers: { 'accept-language': acceptLanguage } })
  return negotiator.languages([...LANGUAGES]).filter(isLanguage)
}

/** The page cache's part of a key for this header: the accepted languages in order. */
export const languagePreferenceKey = (acceptLanguage: string | null | undefined) =>
  acceptedLanguages(acceptLanguage).join(',')

/** The first accepted language the host offers, else its default. */
export function chooseLanguage(accepted: readonly Language[], settings: LanguageSettings) {
  return (
    accepted.find((language) => settings.languages.includes(language)) ?? settings.defaultLanguage
  )
}

/** The query parameter of the page's language switcher. */
export const LANGUAGE_PARAM = 'lang'

/** A request's language: the switcher's choice when offered, else the negotiated one. */
export function languageOfRequest(request: Request, settings: LanguageSettings): Language {
  const picked = new URL(request.url).searchParams.get(LANGUAGE_PARAM)
  if (isLanguage(picked) && settings.languages.includes(picked)) return picked
  return chooseLanguage(acceptedLanguages(request.headers.get('Accept-Language')), settings)
}
