// Single sign-on per agency (issue 42 point 1, ADR 088): the forms of /dashboard/agency/sso and of
// "Sign in with SSO", and the words and rules client and server share.
import { z } from 'zod'
import { emailField } from './auth'
import { isDomainName } from './domain'
import { singleLineText } from './text'

export const SSO_PATH = '/dashboard/agency/sso'
export const SSO_SIGN_IN_PATH = '/auth/sso'
export const SSO_CALLBACK_PATH = '/auth/sso/callback'

/**
 * The roles an account made at its first SSO sign-in may get. Not agency admin: who may change
 * the agency's sign-in is decided on this screen by an admin, never by a directory (ADR 088).
 */
export const SSO_JIT_ROLES = ['end_user', 'team_admin', 'agency_member'] as const
export type SsoJitRole = (typeof SSO_JIT_ROLES)[number]

export const SSO_JIT_ROLE_LABELS: Record<SsoJitRole, string> = {
  end_user: 'End user',
  team_admin: 'Team member',
  agency_member: 'Agency member',
}

export const SSO_MESSAGES = {
  issuerRequired: 'Enter the issuer or discovery URL your identity provider gives you',
  issuerInvalid: 'Enter a URL such as https://login.example.com',
  issuerNotHttps: 'The issuer URL must start with https://',
  discoveryFailed:
    'No OpenID Connect discovery document was found at this URL. Check the issuer URL (it usually ends before /.well-known/openid-configuration).',
  clientIdRequired: 'Enter the client ID',
  clientSecretRequired: 'Enter the client secret',
  nameRequired: 'Enter a name people will recognise, such as "Contoso Entra ID"',
  providerNotFound: 'That identity provider no longer exists',
  domainInvalid: 'Enter an email domain such as example.com',
  domainClaimed: 'Your agency has claimed this domain already',
  domainNotFound: 'That domain is no longer claimed',
  domainNotVerified: 'Verify the domain before requiring SSO for it',
  domainUnavailable: 'This domain is not available. If it is yours, contact support.',
  dnsUnreachable: 'The DNS servers could not be reached. Nothing changed; try again in a minute.',
  noProviderForEmail:
    'Single sign-on is not set up for this email address here. Sign in with your password instead.',
  flowExpired: 'The single sign-on attempt expired or was started in another browser. Try again.',
  flowMismatch:
    'The answer from your identity provider did not match this sign-in attempt, so nobody was signed in. Start again from the sign-in page.',
  idpError: 'Your identity provider did not sign you in. Try again or contact your administrator.',
  idpFailed: 'Your identity provider could not be reached. Try again in a minute.',
  emailMissing:
    'Your identity provider did not send a verified email address, so nobody was signed in. Ask your administrator to release the email claim.',
  emailNotCovered:
    'Your identity provider signed you in with an address this agency has not verified for single sign-on. Ask your administrator.',
  accountInactive: 'This account is deactivated. Contact your administrator.',
  noSeat:
    "Your agency's plan has no free seat for a new account, so nobody was signed in. Ask your administrator.",
  providerDisabled: 'Single sign-on is turned off for this address. Contact your administrator.',
  metadataRequired:
    'Enter the metadata URL your identity provider gives you, or paste its metadata XML',
  metadataUrlInvalid: 'Enter a URL such as https://login.example.com/federationmetadata.xml',
  metadataUrlNotHttps: 'The metadata URL must start with https://',
  privateAddress:
    "This URL leads to a private network address, which is never called from here. Use your identity provider's public URL.",
  metadataUnreachable:
    'The metadata could not be fetched from this URL. Check it, or paste the metadata XML instead.',
  metadataTooLarge: 'The metadata XML must be at most 256 KB',
} as const

/** Password sign-in and reset for a domain that requires SSO (ADR 088). */
/** The sign-in's refusal for a domain that signs in with SSO; `{domain}` is the domain (ADR 105). */
export const SSO_REQUIRED_MESSAGE =
  'Addresses at {domain} sign in with single sign-on. Use "Sign in with SSO" instead.'

export function ssoRequiredMessage(domain: string) {
  return SSO_REQUIRED_MESSAGE.replace('{domain}', domain)
}

/**
 * Whether a provider's URL may be plain http: only this machine's loopback address (the tests'
 * IdPs listen on 127.0.0.1). By address, not by name: this module reaches the browser, and an
 * agency's pages must not carry the platform's root name when that is a loopback name (the
 * no-trace crawl, issue 17).
 */
export function isLoopbackHost(hostname: string) {
  return hostname === '127.0.0.1' || hostname === '[::1]'
}

const issuerUrl = z
  .string({ error: SSO_MESSAGES.issuerRequired })
  .trim()
  .min(1, SSO_MESSAGES.issuerRequired)
  .max(500, 'The URL must be at most 500 characters')
  .refine((value) => URL.canParse(value), SSO_MESSAGES.issuerInvalid)
  .refine((value) => {
    if (!URL.canParse(value)) return true
    const url = new URL(value)
    if (url.username || url.password || url.hash) return false
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))
  }, SSO_MESSAGES.issuerNotHttps)

const providerFields = {
  displayName: singleLineText(
    80,
    'The name must be at most 80 characters',
    SSO_MESSAGES.nameRequired,
  ).min(1, SSO_MESSAGES.nameRequired),
  issuerUrl,
  clientId: singleLineText(
    255,
    'The client ID must be at most 255 characters',
    SSO_MESSAGES.clientIdRequired,
  ).min(1, SSO_MESSAGES.clientIdRequired),
  // Left empty when editing: the stored secret stays (it is never shown again).
  clientSecret: z
    .string()
    .max(1000, 'The client secret must be at most 1000 characters')
    .optional(),
  jitRole: z.enum(SSO_JIT_ROLES, { error: 'Choose a role for new accounts' }),
  enabled: z
    .literal('on')
    .optional()
    .transform((value) => value === 'on'),
}

/** An https URL (plain http only for this machine's own server, the tests' IdP). */
function webAddress(messages: { invalid: string; notHttps: string }) {
  return z
    .string()
    .trim()
    .max(500, 'The URL must be at most 500 characters')
    .refine((value) => URL.canParse(value), messages.invalid)
    .refine((value) => {
      if (!URL.canParse(value)) return true
      const url = new URL(value)
      if (url.username || url.password || url.hash) return false
      return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))
    }, messages.notHttps)
}

/**
 * A SAML provider: its metadata by URL (fetched at save) or pasted as XML; one of the two. The
 * XML's size is the parser's to refuse with a clearer message than a length.
 */
const samlProviderFields = {
  displayName: providerFields.displayName,
  metadataUrl: z
    .union([
      z.literal('').transform(() => undefined),
      webAddress({
        invalid: SSO_MESSAGES.metadataUrlInvalid,
        notHttps: SSO_MESSAGES.metadataUrlNotHttps,
      }),
    ])
    .optional(),
  metadataXml: z
    .string()
    .max(256 * 1024, SSO_MESSAGES.metadataTooLarge)
    .optional()
    .transform((value) => value?.trim() || undefined),
  jitRole: providerFields.jitRole,
  enabled: providerFields.enabled,
}

function requireMetadata(
  value: { metadataUrl?: string; metadataXml?: string },
  ctx: z.RefinementCtx,
) {
  if (!value.metadataUrl && !value.metadataXml) {
    ctx.addIssue({ code: 'custom', path: ['metadataUrl'], message: SSO_MESSAGES.metadataRequired })
  }
}

const id = (message: string) => z.string({ error: message }).trim().uuid(message)

export const ssoDomainField = z
  .string({ error: SSO_MESSAGES.domainInvalid })
  .trim()
  .toLowerCase()
  // People paste an address or a URL: keep the domain.
  .transform((value) =>
    value
      .replace(/^.*@/, '')
      .replace(/^https?:\/\//, '')
      .replace(/[/.]+$/, ''),
  )
  .refine(isDomainName, SSO_MESSAGES.domainInvalid)

export const SsoSettingsSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('add-provider'), ...providerFields }),
  z.object({
    intent: z.literal('edit-provider'),
    providerId: id(SSO_MESSAGES.providerNotFound),
    ...providerFields,
  }),
  z
    .object({ intent: z.literal('add-saml-provider'), ...samlProviderFields })
    .superRefine(requireMetadata),
  z
    .object({
      intent: z.literal('edit-saml-provider'),
      providerId: id(SSO_MESSAGES.providerNotFound),
      ...samlProviderFields,
    })
    .superRefine(requireMetadata),
  z.object({ intent: z.literal('remove-provider'), providerId: id(SSO_MESSAGES.providerNotFound) }),
  z.object({ intent: z.literal('test-provider'), providerId: id(SSO_MESSAGES.providerNotFound) }),
  z.object({
    intent: z.literal('claim-domain'),
    providerId: id(SSO_MESSAGES.providerNotFound),
    domain: ssoDomainField,
  }),
  z.object({ intent: z.literal('verify-domain'), domainId: id(SSO_MESSAGES.domainNotFound) }),
  z.object({
    intent: z.literal('enforce-domain'),
    domainId: id(SSO_MESSAGES.domainNotFound),
    enforced: z.enum(['on', 'off']).transform((value) => value === 'on'),
  }),
  z.object({ intent: z.literal('remove-domain'), domainId: id(SSO_MESSAGES.domainNotFound) }),
])
export type SsoSettingsForm = z.output<typeof SsoSettingsSchema>

/** "Sign in with SSO": the address, whose domain picks the provider. */
export const SsoSignInSchema = z.object({
  email: emailField(),
  redirectTo: z.string().max(2000).optional(),
})

/** The email domain of an address, lower-cased. */
export function emailDomain(email: string) {
  return email.trim().toLowerCase().split('@').at(-1) ?? ''
}

/**
 * RFC 8176 authentication method references that say the identity provider itself asked for
 * more than a password: then the sign-in counts as two factors (ADR 088).
 */
export const MFA_AMR_VALUES = ['mfa', 'otp', 'hwk', 'sc']

export function amrSaysMultiFactor(amr: unknown) {
  return Array.isArray(amr) && amr.some((value) => MFA_AMR_VALUES.includes(String(value)))
}
