// The sign-in page's own words, shared with the Branding screen's preview of it (issue 41
// point 17: the preview shows the real page, not a look-alike). Their home is the English
// catalogue, which the sign-in page translates (ADR 105); the preview, in the dashboard, is English.
import { en } from '#app/utils/i18n/catalogue-en'

export const SIGN_IN_TITLE = en['signIn.title']
export const SIGN_IN_DESCRIPTION = en['signIn.description']
export const SIGN_UP_PROMPT = en['signIn.signUpPrompt']
