import { VISITOR_PAGE_PATH } from '#app/utils/visitor-page'
import { type Language, type LanguageSettings, SOURCE_LANGUAGE } from '#app/validation/languages'
import { languageOfRequest } from './negotiate'

/** The follow links' pages (ADR 102), opened from a follower's email written in their language. */
const FOLLOW_PAGE_PATH = /^\/follow\/(confirm|unsubscribe)$/

/**
 * The sign-in pages: sign-in, sign-up, forgot password, the reset link, the expired password's
 * step, the second step (two-factor), the email confirmation link's page and the single sign-on
 * page's form (its provider's callback, a refusal or an admin's test, stays English).
 */
const SIGN_IN_PAGES = new Set([
  '/auth/login',
  '/auth/register',
  '/auth/forgot-password',
  '/auth/reset-password',
  '/auth/new-password',
  '/auth/two-factor',
  '/auth/confirm-email',
  '/auth/sso',
])

/**
 * The pages that speak the visitor's language (ADR 105): a shared card, its short link and the
 * contact page standing in for one, the follow links' pages and the sign-in pages. Every other page is English and says
 * so in `<html lang>`: a lang that named a language the page does not speak would mislead
 * screen readers.
 */
export const speaksVisitorLanguage = (pathname: string) =>
  VISITOR_PAGE_PATH.test(pathname) ||
  FOLLOW_PAGE_PATH.test(pathname) ||
  SIGN_IN_PAGES.has(pathname.replace(/\/$/, ''))

/** The language a request's page is written in. */
export function pageLanguage(request: Request, settings: LanguageSettings): Language {
  const { pathname } = new URL(request.url)
  // A client navigation's data request (`/card/x.data`) is the page's own.
  const page = pathname.replace(/\.data$/, '')
  return speaksVisitorLanguage(page) ? languageOfRequest(request, settings) : SOURCE_LANGUAGE
}
