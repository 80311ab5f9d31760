// The sign-in pages' document titles, in the page's language, which the root loader chose
// (ADR 105): the root's data is all a meta function has, the page's translator is not there yet.
import type { MetaFunction } from '@remix-run/react'
import { type MessageKey, rootTranslator } from '#app/utils/i18n/translate'

/** A sign-in page's meta: its title in the page's language. */
export const translatedTitle =
  (key: MessageKey): MetaFunction =>
  ({ matches }) => [{ title: rootTranslator(matches)(key) }]

/** The same, for a title that names the product (`{name}`: the branding's name). */
export const translatedBrandedTitle =
  (key: MessageKey): MetaFunction =>
  ({ matches }) => {
    const name = (matches[0]?.data as { branding?: { name: string } } | undefined)?.branding?.name
    return [{ title: rootTranslator(matches)(key, { name: name ?? '' }) }]
  }
