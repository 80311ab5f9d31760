// The sign-in page's own words, shared with the Branding screen's preview of it (issue 41
// point 17: the preview shows the real page, not a look-alike).
export const SIGN_IN_TITLE = 'Sign in'
export const SIGN_IN_DESCRIPTION = 'Welcome back. Sign in to manage and share your cards.'
export const SIGN_UP_PROMPT = "Don't have an account?"
