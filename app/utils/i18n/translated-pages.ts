import { VISITOR_PAGE_PATH } from '#app/utils/visitor-page'
import { type Language, type LanguageSettings, SOURCE_LANGUAGE } from '#app/validation/languages'
import { languageOfRequest } from './negotiate'

/**
 * The pages that speak the visitor's language (ADR 105): a shared card and its short link, and
 * the sign-in pages a visitor meets. Every other page is English and says so in `<html lang>`:
 * a lang that named a language the page does not speak would mislead screen readers.
 */
const SIGN_IN_PAGE_PATH = /^\/auth\/(login|forgot-password|reset-password|new-password)\/?$/

export const speaksVisitorLanguage = (pathname: string) =>
  VISITOR_PAGE_PATH.test(pathname) || SIGN_IN_PAGE_PATH.test(pathname)

/** The language a request's page is written in. */
export function pageLanguage(request: Request, settings: LanguageSettings): Language {
  const { pathname } = new URL(request.url)
  // A client navigation's data request (`/card/x.data`) is the page's own.
  const page = pathname.replace(/\.data$/, '')
  return speaksVisitorLanguage(page) ? languageOfRequest(request, settings) : SOURCE_LANGUAGE
}
