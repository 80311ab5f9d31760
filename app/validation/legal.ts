// Legal and support links (issue 17 point 5): the privacy policy, the terms of service and the
// support email an agency sets on its Branding screen and the super admin sets for the platform
// in System Settings. Each is optional: an empty field falls back to the platform's value.
import { z } from 'zod'
import { emailField } from './auth'

export const LEGAL_URL_MESSAGE = 'Please enter a valid URL starting with https://'

// Pages on loopback hosts are reachable only from the machine itself, so plain http there is
// no risk to a visitor and lets dev and test servers stand in for a real policy page.
const LOOPBACK = /^(localhost|[a-z0-9-]+(\.[a-z0-9-]+)*\.localhost|127\.0\.0\.1|\[::1\])$/i

// The URL parser drops tabs and newlines the stored string would keep: judge the string itself.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const WHITESPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f]/

export function isSafeLegalUrl(value: string) {
  if (WHITESPACE_OR_CONTROL.test(value)) return false
  try {
    const url = new URL(value)
    if (url.username || url.password) return false
    if (url.protocol === 'https:') return true
    return url.protocol === 'http:' && LOOPBACK.test(url.hostname)
  } catch {
    return false
  }
}

/** An optional https page address (a policy, an agency's contact page); empty when not set. */
export const legalUrlField = z
  .string({ error: LEGAL_URL_MESSAGE })
  .trim()
  .max(500, LEGAL_URL_MESSAGE)
  .refine((value) => value === '' || isSafeLegalUrl(value), LEGAL_URL_MESSAGE)
  // conform sends an emptied field as absent: absent means "not set".
  .optional()
  .transform((value) => value ?? '')

function optionalEmailField() {
  return z
    .union([z.literal(''), emailField()], { error: 'Please enter a valid email address' })
    .optional()
    .transform((value) => value ?? '')
}

export const LegalFields = {
  privacyPolicyUrl: legalUrlField,
  termsOfServiceUrl: legalUrlField,
  supportEmail: optionalEmailField(),
  // Where the accessibility statement (/accessibility, ADR 100) sends requests about access;
  // empty: the support email, then the platform's.
  accessibilityEmail: optionalEmailField(),
}

/**
 * The address of the "Get your own card" link in a recipient's card page footer (issue 41
 * point 6, ADR 083): an agency's own page (its pricing, a contact form), or empty for the sign-up
 * page on the host the card is on. The same rule as the policy links: https, or http on loopback.
 */
export const getYourOwnCardUrlField = legalUrlField
export const DEFAULT_GET_YOUR_OWN_CARD_PATH = '/auth/register'
/** The stored value read back: anything unusable counts as not set. */
export const StoredGetYourOwnCardUrlSchema = z.string().refine(isSafeLegalUrl).catch('')

export type LegalLinks = {
  privacyPolicyUrl: string
  termsOfServiceUrl: string
  supportEmail: string
  /**
   * The address for accessibility requests (issue 45 point 6, ADR 100). Stored: the
   * organization's own, '' when not set. On a host (legalFor): the one to show, never empty
   * while any fallback exists: its own, else its support email, else the platform's.
   */
  accessibilityEmail: string
}

export const NO_LEGAL_LINKS: LegalLinks = {
  privacyPolicyUrl: '',
  termsOfServiceUrl: '',
  supportEmail: '',
  accessibilityEmail: '',
}

/** The stored values read back: anything unusable (hand-edited, older rule) counts as not set. */
export const StoredLegalSchema = z
  .object({
    privacyPolicyUrl: z.string().refine(isSafeLegalUrl).catch('').default(''),
    termsOfServiceUrl: z.string().refine(isSafeLegalUrl).catch('').default(''),
    supportEmail: z.email().catch('').default(''),
    accessibilityEmail: z.email().catch('').default(''),
  })
  .catch(NO_LEGAL_LINKS)

/**
 * What a host shows: each of the agency's own values, else the platform's (the issue's
 * "platform defaults otherwise"). Per field, so an agency that only sets a support email still
 * shows the platform's policies rather than none.
 */
export function withPlatformDefaults(own: LegalLinks, platform: LegalLinks): LegalLinks {
  return {
    privacyPolicyUrl: own.privacyPolicyUrl || platform.privacyPolicyUrl,
    termsOfServiceUrl: own.termsOfServiceUrl || platform.termsOfServiceUrl,
    supportEmail: own.supportEmail || platform.supportEmail,
    // The organization's own people first: its support desk answers before the platform's.
    accessibilityEmail: accessibilityContact(own) || accessibilityContact(platform),
  }
}

/** An organization's own address for accessibility requests: its own, else its support email. */
export function accessibilityContact(own: LegalLinks) {
  return own.accessibilityEmail || own.supportEmail
}

/** One organization's links as shown on its own (the platform's) host. */
function alone(own: LegalLinks): LegalLinks {
  return { ...own, accessibilityEmail: accessibilityContact(own) }
}

/**
 * The links an organization's host and emails show, given its own and the platform's: the
 * platform's alone while white labeling is off (as its name and colours are), else each of its
 * own values with the platform's in place of an empty one.
 */
export function legalFor(
  organization: { kind: 'platform' | 'agency'; whiteLabelActive: boolean },
  own: LegalLinks,
  platform: LegalLinks,
): LegalLinks {
  if (organization.kind === 'platform') return alone(own)
  return organization.whiteLabelActive ? withPlatformDefaults(own, platform) : alone(platform)
}
