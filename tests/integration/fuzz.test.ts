// Every form action fed generated bad input (long strings, unicode, wrong types, missing
// fields, huge and malformed bodies): never a 5xx; a 4xx says what is wrong and writes nothing.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { STATUS_CODES } from 'node:http'
import { and, eq, isNull } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createApiKey } from '#app/api/manage-api-keys.server'
import { createSession, sessionCookieName } from '#app/auth/session.server'
import { hashToken, newLinkToken } from '#app/email/link-token.server'
import {
  createFollowerStopToken,
  createUnsubscribeToken,
} from '#app/email/unsubscribe-token.server'
import { resetEnvForTests } from '#app/env.server'
import { askToFollow, confirmFollower } from '#app/models/card-followers.server'
import { addContact } from '#app/models/contacts.server'
import { storeMedia } from '#app/models/media.server'
import {
  insertPersonalCard,
  offerPersonalCard,
  setManageToken,
} from '#app/models/personal-cards.server'
import { savePlatformSettings } from '#app/models/platform-settings.server'
import { insertSamlProvider } from '#app/models/sso-saml.server'
import { insertInvitation } from '#app/models/team-invitations.server'
import { addTeamMember, createTeamWithAdmin, findMembership } from '#app/models/teams.server'
import { setUserPlan, type User } from '#app/models/users.server'
import { createScimToken } from '#app/scim/scim-tokens.server'
import { IMAGE_PURPOSES, MAX_UPLOAD_BYTES } from '#app/services/images.server'
import { parseIdpMetadata } from '#app/sso/saml.server'
import { invalidatePlatformSettings } from '#app/tenancy/platform-settings-cache.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { API_SCOPES } from '#app/validation/api'
import type { Role } from '#app/validation/roles'
import { getDb, type Transaction, withTenant } from '#drizzle/db.server'
import { cardSlugs, teamInvitations, users } from '#drizzle/schema'
import {
  configureAppleWallet,
  makeTestCertificates,
  removeTestCertificates,
  TEST_PASS_TYPE_ID,
  type TestCertificates,
  unconfigureAppleWallet,
} from '#tests/apple-wallet'
import { databaseChecksum, installWriteCounter } from '#tests/checksum'
import {
  contextFor,
  getPlatformOrganization,
  makeCard,
  makeOrganization,
  makePng,
  makeUser,
  type SubmissionReply,
  sessionCookieFor,
  settle,
} from '#tests/factories'
import { type FakeCrm, startFakeCrm } from '#tests/fake-crm'
import { type FakeHubspot, startFakeHubspot } from '#tests/fake-hubspot'
import { clearStripeEnv, type FakeStripe, startFakeStripe, stripeEnvFor } from '#tests/fake-stripe'
import { blankPng } from '#tests/images'
import { startSamlIdp } from '#tests/saml-idp'

type Action = (args: {
  request: Request
  context: ReturnType<typeof contextFor>
  params: Record<string, string>
}) => Promise<unknown>

/**
 * Who sends the form: nobody, a signed-in user of a role, a session made for this one request,
 * or the end user the team invitations are addressed to.
 */
type Actor =
  | 'anonymous'
  // Signed out, on the platform's own host (a personal card's pages, ADR 106).
  | 'platform visitor'
  | Role
  | 'fresh session'
  | 'invitee'
  // Sessions that owe a sign-in step (ADR 045), made afresh for each request.
  | 'two-factor step'
  | 'new-password step'

type Form = {
  name: string
  /** The route module under app/routes, without extension. */
  file: string
  /**
   * CARD stands for the id of the actor's own card (or `cardOf`'s); NAME_TOKEN for the link
   * token of that name (`linkTokens`), also passed as the route's `token` param.
   */
  path: string
  actor: Actor
  /** Whose card CARD is, when not the actor's own. */
  cardOf?: Actor
  /** The route's real intents: most generated requests carry one of them. */
  intents?: readonly string[]
  keys: readonly string[]
  /** File fields, sent in multipart bodies. */
  files?: readonly string[]
  /**
   * Tables a refusal may legitimately change for this form (and why); everything else must be
   * byte-for-byte unchanged after a 4xx.
   */
  mayChange?: readonly string[]
  /** Sent with the agency's SCIM bearer token (ADR 089) rather than a session. */
  scimBearer?: boolean
  /** Sent with an API key of the agency (ADR 092), every scope, rather than a session. */
  apiBearer?: boolean
}

// The lead form, with the consent box and the version of the agency's text it showed (ADR 050).
const LEAD_KEYS = [
  'fullName',
  'email',
  'phoneNumber',
  'company',
  'note',
  'website',
  'consentTextId',
  'consent',
]

const PROFILE_KEYS = [
  'firstName',
  'lastName',
  'email',
  'workEmail',
  'phoneNumber',
  'company',
  'jobTitle',
  'website',
  'logoMediaId',
  'profilePictureMediaId',
  'currentPassword',
  'newPassword',
  'confirmPassword',
  'notifications',
  'marketingEmails',
  // The card details form of the Business Card tab (issue 28): the card by id, some details.
  'cardId',
  'bio',
  'pronouns',
  'phone2',
  'addressCity',
  'links[0].kind',
  'links[0].url',
  'links[10].kind',
  'links[10].url',
] as const
const PROFILE_FILES = ['logoFile', 'profilePictureFile'] as const
const CARD_EDIT_KEYS = [
  'title',
  'noindex',
  'firstName',
  'lastName',
  'email',
  'workEmail',
  'phoneNumber',
  'company',
  'jobTitle',
  'website',
  // Issue 28's details, and links by index (one past the limit of 10 among them).
  'bio',
  'pronouns',
  'phoneType',
  'phone2',
  'phone2Type',
  'addressStreet',
  'addressCity',
  'addressRegion',
  'addressPostalCode',
  'addressCountry',
  'links[0].kind',
  'links[0].label',
  'links[0].url',
  'links[1].kind',
  'links[1].url',
  'links[10].kind',
  'links[10].url',
  'kind',
  'value',
  'mediaId',
  'logoMediaId',
  'profilePictureMediaId',
  'backgroundMediaId',
  'slug',
  // Issue 41 point 6 (ADR 083): the cover image and the video.
  'coverMediaId',
  'videoUrl',
] as const
const WIZARD_IMAGE_KEYS = [
  'backgroundChoice',
  'logoMediaId',
  'profilePictureMediaId',
  'backgroundMediaId',
] as const
const IMAGE_FILES = ['logoFile', 'profilePictureFile', 'backgroundFile'] as const
const CARD_EDIT_FILES = [...IMAGE_FILES, 'coverFile'] as const
const WIZARD_STEP_KEYS = [
  ['firstName', 'lastName'],
  [
    'workEmail',
    'phoneNumber',
    'phoneType',
    'phone2',
    'phone2Type',
    'addressStreet',
    'addressCity',
    'addressRegion',
    'addressPostalCode',
    'addressCountry',
  ],
  [
    'company',
    'jobTitle',
    'website',
    'pronouns',
    'bio',
    'links[0].kind',
    'links[0].label',
    'links[0].url',
    'links[10].kind',
    'links[10].url',
  ],
  WIZARD_IMAGE_KEYS,
  // The finish step reads no field: whatever is sent must be ignored.
  ['firstName', 'title', 'mode'],
] as const

function wizardForms(mode: 'profile' | 'card'): Form[] {
  return WIZARD_STEP_KEYS.map((keys, index) => {
    const step = index + 1
    const query = mode === 'card' ? `?mode=card&step=${step}` : `?step=${step}`
    return {
      name: `wizard ${mode === 'card' ? '(mode=card) ' : ''}${step === 5 ? 'finish' : `step ${step}`}`,
      file: 'onboarding',
      path: `/onboarding${query}`,
      actor: 'end_user',
      keys,
      files: step === 4 ? IMAGE_FILES : undefined,
    }
  })
}

const profileForm = (name: string, file: string, path: string, actor: Actor): Form => ({
  name,
  file,
  path,
  actor,
  intents: ['profile', 'password', 'notifications'],
  keys: PROFILE_KEYS,
  files: PROFILE_FILES,
  // A wrong current password counts against the account and the address, as a failed sign-in
  // does (issue 26 point 8): the counters move on a 400.
  mayChange: ['rate_limits'],
})

const PRIVACY_KEYS = ['visibility', 'showEmail', 'showPhone', 'theme', 'fontSize', 'animations']
const LEGAL_KEYS = ['privacyPolicyUrl', 'termsOfServiceUrl', 'supportEmail', 'accessibilityEmail']
/** A settings page under /settings/{area} and the dashboard's settings entry (spec §2.6). */
const settingsForms = (area: string, actor: Actor, intents: string[], keys: string[]): Form[] => [
  {
    name: `settings (${area})`,
    file: `settings.${area}`,
    path: `/settings/${area}`,
    actor,
    intents,
    keys,
  },
  {
    name: `dashboard settings (${area})`,
    file: `dashboard.${area}.settings`,
    path: `/dashboard/${area}/settings`,
    actor,
    intents,
    keys,
  },
]

const FORMS: Form[] = [
  {
    name: 'register',
    file: 'auth.register',
    path: '/auth/register',
    actor: 'anonymous',
    keys: ['firstName', 'lastName', 'email', 'password', 'company', 'redirectTo'],
    // A taken address is refused (409, ADR 071) after counting against the sign-up limits and
    // telling its owner that someone tried: the notice is queued (an outbox row and its job).
    mayChange: ['rate_limits', 'email_outbox', 'jobs'],
  },
  {
    name: 'login',
    file: 'auth.login',
    path: '/auth/login',
    actor: 'anonymous',
    keys: ['email', 'password', 'redirectTo'],
    // A failed sign-in counts against the account and the address: that is the brute-force
    // protection, so the counters move on a 401.
    mayChange: ['rate_limits'],
  },
  // Sign in with SSO (ADR 088): no address here has a provider, so nothing starts.
  {
    name: 'sign in with SSO',
    file: 'auth.sso._index',
    path: '/auth/sso',
    actor: 'anonymous',
    keys: ['email', 'redirectTo'],
    // Every attempt started counts against the address (ADR 090), refused or not, as failed
    // sign-ins do: the counter moves on a 400.
    mayChange: ['rate_limits'],
  },
  {
    name: 'forgot password',
    file: 'auth.forgot-password',
    path: '/auth/forgot-password',
    actor: 'anonymous',
    keys: ['email'],
  },
  {
    name: 'reset password',
    file: 'auth.reset-password',
    path: '/auth/reset-password',
    actor: 'anonymous',
    keys: ['token', 'password', 'confirmPassword'],
  },
  {
    name: 'confirm email',
    file: 'auth.confirm-email',
    path: '/auth/confirm-email',
    actor: 'anonymous',
    keys: ['token'],
  },
  {
    name: 'email confirmation banner',
    file: 'resources.email-confirmation',
    path: '/resources/email-confirmation',
    actor: 'end_user',
    intents: ['resend', 'dismiss'],
    keys: ['redirectTo'],
  },
  {
    name: 'logout',
    file: 'auth.logout',
    path: '/auth/logout',
    actor: 'fresh session',
    keys: ['redirectTo', 'intent'],
  },
  {
    name: 'unknown path',
    file: '$',
    path: '/no/such/page',
    actor: 'end_user',
    keys: ['intent', 'email'],
  },
  ...wizardForms('profile'),
  ...wizardForms('card'),
  profileForm('profile', 'profile._index', '/profile?index', 'end_user'),
  profileForm('profile (any other path)', 'profile.$variant', '/profile/role', 'agency_admin'),
  profileForm('profile (agency)', 'profile.agency', '/profile/agency', 'agency_admin'),
  profileForm('profile (end user)', 'profile.end-user', '/profile/end-user', 'end_user'),
  profileForm(
    'profile (super admin)',
    'profile.super-admin',
    '/profile/super-admin',
    'super_admin',
  ),
  profileForm('profile (team member)', 'profile.team-member', '/profile/team-member', 'team_admin'),
  ...settingsForms('end-user', 'end_user', ['privacy', 'appearance'], PRIVACY_KEYS),
  {
    name: 'settings (default variant)',
    file: 'settings.$variant',
    path: '/settings/role',
    actor: 'end_user',
    intents: ['privacy', 'appearance'],
    keys: PRIVACY_KEYS,
  },
  ...settingsForms(
    'team-member',
    'team_admin',
    // The Billing tab's buttons (ADR 051): Team Member Basic's checkout and the portal; without
    // Stripe its request to the agency's admins and its withdrawal (ADR 079).
    [
      'notifications',
      'privacy',
      'upgrade',
      'billing-portal',
      'request-plan',
      'withdraw-plan-request',
    ],
    [
      ...PRIVACY_KEYS,
      'activityTracking',
      'notifications',
      'newContactAlerts',
      'teamUpdates',
      'marketingEmails',
    ],
  ),
  ...settingsForms(
    'agency',
    'agency_admin',
    // The Billing tab's buttons (ADR 051): Agency Pro's checkout and the portal.
    ['team', 'billing', 'upgrade', 'billing-portal'],
    ['defaultTeamRole', 'autoApprove', 'membersMayInvite', 'billingEmail'],
  ),
  // No intent: one form, subject and message (ADR 046).
  {
    name: 'agency announcements',
    file: 'dashboard.agency.announcements',
    path: '/dashboard/agency/announcements',
    actor: 'agency_admin',
    keys: ['subject', 'body'],
  },
  // Single sign-on (ADR 088): every intent; the issuer answers nothing (no discovery succeeds)
  // and the ids name no provider or domain, so every body is refused without a write.
  {
    name: 'agency single sign-on',
    file: 'dashboard.agency.sso',
    path: '/dashboard/agency/sso',
    actor: 'agency_admin',
    intents: [
      'add-provider',
      'edit-provider',
      'remove-provider',
      'test-provider',
      'claim-domain',
      'verify-domain',
      'enforce-domain',
      'remove-domain',
    ],
    keys: [
      'displayName',
      'issuerUrl',
      'clientId',
      'clientSecret',
      'jitRole',
      'enabled',
      'providerId',
      'domain',
      'domainId',
      'enforced',
    ],
  },
  // Card templates (ADR 048): save, delete, apply and reset, with every field of the form.
  {
    name: 'agency card templates',
    file: 'dashboard.agency.templates',
    path: '/dashboard/agency/templates',
    actor: 'agency_admin',
    intents: ['save', 'delete', 'apply', 'reset'],
    keys: [
      'templateId',
      'cardId',
      'name',
      'teamId',
      'background',
      'useAgencyLogo',
      'company',
      'website',
      'addressStreet',
      'addressCity',
      'addressCountry',
      'links[0].kind',
      'links[0].url',
      'backgroundMode',
      'logoMode',
      'companyMode',
      'websiteMode',
      'addressMode',
      'linksMode',
    ],
  },
  {
    name: 'agency branding',
    file: 'dashboard.agency.branding',
    path: '/dashboard/agency/branding',
    actor: 'agency_admin',
    intents: [
      'save',
      'verify-domain',
      'add-sending-domain',
      'check-sending-domain',
      'remove-sending-domain',
      'save-consent',
    ],
    keys: [
      'consentText',
      'sendingDomain',
      'senderLocalPart',
      'companyName',
      'primaryColor',
      'secondaryColor',
      'customDomain',
      'whiteLabelActive',
      'logoMediaId',
      'faviconMediaId',
      ...LEGAL_KEYS,
      'getYourOwnCardUrl',
    ],
    files: ['logoFile', 'faviconFile'],
  },
  ...settingsForms(
    'super-admin',
    'super_admin',
    ['general', 'security'],
    [
      'platformName',
      'platformUrl',
      'maintenanceMode',
      'sessionTimeoutMinutes',
      'requireTwoFactorForAdmins',
      'passwordRotation',
      ...LEGAL_KEYS,
    ],
  ),
  {
    name: 'cards list (end user)',
    file: 'dashboard.end-user.digital-cards._index',
    path: '/dashboard/end-user/digital-cards?index',
    actor: 'end_user',
    intents: ['create', 'set-default', 'delete'],
    keys: ['method', 'title', 'cardId'],
  },
  {
    name: 'cards list (team member)',
    file: 'dashboard.team-member.digital-cards._index',
    path: '/dashboard/team-member/digital-cards?index',
    actor: 'team_admin',
    intents: ['create', 'set-default', 'delete'],
    keys: ['method', 'title', 'cardId'],
  },
  {
    name: 'card editor (end user)',
    file: 'dashboard.end-user.digital-cards.edit.$cardId',
    path: '/dashboard/end-user/digital-cards/edit/CARD',
    actor: 'end_user',
    intents: ['details', 'visuals', 'background', 'short-link'],
    keys: CARD_EDIT_KEYS,
    files: CARD_EDIT_FILES,
  },
  {
    name: 'card editor (team member)',
    file: 'dashboard.team-member.digital-cards.edit.$cardId',
    path: '/dashboard/team-member/digital-cards/edit/CARD',
    actor: 'team_admin',
    intents: ['details', 'visuals', 'background', 'short-link'],
    keys: CARD_EDIT_KEYS,
    files: CARD_EDIT_FILES,
  },
  {
    name: 'public card',
    file: 'card.$ref',
    path: '/card/CARD',
    actor: 'anonymous',
    intents: ['connect', 'save', 'lead', 'follow'],
    keys: LEAD_KEYS,
  },
  {
    // SLUG: the card's current short link (ADR 041).
    name: 'public card (short link)',
    file: 'c.$slug',
    path: '/c/SLUG',
    actor: 'anonymous',
    intents: ['connect', 'save', 'lead', 'follow'],
    keys: LEAD_KEYS,
  },
  {
    name: 'public card (contact path)',
    file: 'contact.$ref',
    path: '/contact/CARD',
    actor: 'anonymous',
    intents: ['connect', 'save', 'lead', 'follow'],
    keys: LEAD_KEYS,
  },
  {
    name: 'public card (signed in)',
    file: 'card.$ref',
    path: '/card/CARD',
    actor: 'team_admin',
    cardOf: 'end_user',
    intents: ['connect', 'save', 'lead', 'follow'],
    keys: LEAD_KEYS,
  },
  {
    // The one-click unsubscribe: UNSUBSCRIBE_TOKEN is the end user's genuine token.
    name: 'one-click unsubscribe',
    file: 'email.unsubscribe',
    path: '/email/unsubscribe?token=UNSUBSCRIBE_TOKEN',
    actor: 'anonymous',
    keys: ['List-Unsubscribe', 'token'],
  },
  {
    // Download my data (ADR 052): the request names nobody (always the signed-in person's own
    // export, a second press while one is pending a 409 that writes nothing) ...
    name: 'data export request',
    file: 'account.data-export',
    path: '/account/data-export',
    actor: 'end_user',
    intents: ['request'],
    keys: ['redirectTo'],
  },
  {
    // ... and its download, by the export's id: anything but the person's own ready one is a 404.
    name: 'data export download',
    file: 'account.data-export[.]zip',
    path: '/account/data-export.zip',
    actor: 'end_user',
    keys: ['exportId'],
  },
  {
    // A card follower's confirmation link (ADR 102): FOLLOW_TOKEN is a genuine pending one.
    name: 'follow confirmation',
    file: 'follow.confirm',
    path: '/follow/confirm?token=FOLLOW_TOKEN',
    actor: 'anonymous',
    intents: ['confirm'],
    keys: ['token'],
  },
  {
    // A card follower's one-click way out: STOPFOLLOW_TOKEN is a genuine follower's.
    name: 'follow one-click stop',
    file: 'follow.unsubscribe',
    path: '/follow/unsubscribe?token=STOPFOLLOW_TOKEN',
    actor: 'anonymous',
    keys: ['List-Unsubscribe', 'token'],
  },
  {
    // A departing person's claim of a personal card (ADR 103): CLAIM_TOKEN is a genuine offer's.
    name: 'personal card claim',
    file: 'personal-card.claim',
    path: '/personal-card/claim?token=CLAIM_TOKEN',
    actor: 'anonymous',
    intents: ['claim'],
    keys: ['firstName', 'lastName', 'email', 'phone', 'token'],
  },
  {
    // Its owner asks for a link to edit or remove a personal card (ADR 106): PERSONAL_SLUG is a
    // genuine personal card's, on the platform's host.
    name: 'personal card: ask for an edit link',
    file: 'p.$slug_.manage',
    path: '/p/PERSONAL_SLUG/manage',
    actor: 'platform visitor',
    keys: ['email'],
  },
  {
    // That link's form: MANAGE_TOKEN is a genuine one of another personal card.
    name: 'personal card: edit or remove',
    file: 'personal-card.manage',
    path: '/personal-card/manage?token=MANAGE_TOKEN',
    actor: 'platform visitor',
    intents: ['save', 'remove'],
    keys: ['firstName', 'lastName', 'email', 'phone', 'token'],
  },
  {
    // A lead's receipt link (ADR 050): RECEIPT_TOKEN is a genuine one of the end user's lead.
    name: "lead's data page",
    file: 'lead-data',
    path: '/lead-data?token=RECEIPT_TOKEN',
    actor: 'anonymous',
    intents: ['delete'],
    keys: ['token'],
  },
  {
    // Apple's PassKit web service (ADR 042), configured with throwaway certificates: a device's
    // log, and a registration without the pass's token.
    name: 'Apple Wallet: device log',
    file: 'wallet.apple.v1.$',
    path: '/wallet/apple/v1/log',
    actor: 'anonymous',
    keys: ['logs'],
  },
  {
    name: 'Apple Wallet: device registration',
    file: 'wallet.apple.v1.$',
    path: `/wallet/apple/v1/devices/fuzz-device/registrations/${TEST_PASS_TYPE_ID}/CARD`,
    actor: 'anonymous',
    keys: ['pushToken'],
  },
  {
    // A SAML IdP's answer (ADR 090) to the fuzzing tenant's SAML provider: nothing the fuzzer
    // makes is signed by its IdP's key, so each is a 400 that changes nothing.
    name: 'SAML ACS',
    file: 'auth.sso.saml.$providerId.acs',
    path: '/auth/sso/saml/SAMLIDP_TOKEN/acs',
    actor: 'anonymous',
    keys: ['SAMLResponse', 'RelayState'],
  },
  {
    // The agency admin's Directory Sync screen (ADR 089): tokens by id, the role from a list.
    name: 'Directory Sync',
    file: 'dashboard.agency.scim',
    path: '/dashboard/agency/scim',
    actor: 'agency_admin',
    intents: ['create-token', 'rotate-token', 'revoke-token', 'set-role', 'set-card-fields'],
    keys: ['name', 'tokenId', 'graceHours', 'role', 'fields'],
  },
  {
    // The agency admin's Webhooks screen (ADR 093): endpoints and deliveries by id, a URL, event
    // types from a list, an overlap from a list.
    name: 'Webhooks',
    file: 'dashboard.agency.webhooks',
    path: '/dashboard/agency/webhooks',
    actor: 'agency_admin',
    intents: [
      'create-endpoint',
      'edit-endpoint',
      'delete-endpoint',
      'enable-endpoint',
      'rotate-secret',
      'resend',
    ],
    keys: ['url', 'description', 'eventTypes', 'endpointId', 'overlapHours', 'deliveryId'],
  },
  {
    // SCIM (ADR 089) without a token: refused before anything is read or written.
    name: 'SCIM: no token',
    file: 'scim.v2.$',
    path: '/scim/v2/Users',
    actor: 'anonymous',
    keys: ['userName', 'externalId', 'active', 'displayName'],
  },
  {
    // With the agency's token: a body that is no SCIM User is a SCIM error; only the
    // provisioning log, the token's last use and its rate-limit counter change.
    name: 'SCIM: create a user',
    file: 'scim.v2.$',
    path: '/scim/v2/Users',
    actor: 'anonymous',
    keys: ['userName', 'externalId', 'active', 'displayName'],
    scimBearer: true,
    mayChange: ['scim_events', 'scim_tokens', 'rate_limits'],
  },
  {
    name: 'SCIM: patch a group',
    file: 'scim.v2.$',
    path: '/scim/v2/Groups/00000000-0000-4000-8000-000000000000',
    actor: 'anonymous',
    keys: ['Operations', 'schemas', 'displayName'],
    scimBearer: true,
    mayChange: ['scim_events', 'scim_tokens', 'rate_limits'],
  },
  {
    // The agency admin's API screen (ADR 092): keys by id, scopes from a list, a date.
    name: 'API keys',
    file: 'dashboard.agency.api',
    path: '/dashboard/agency/api',
    actor: 'agency_admin',
    intents: ['create-key', 'revoke-key'],
    keys: ['name', 'scopes', 'expiresOn', 'keyId'],
  },
  {
    // The REST API (ADR 092) without a key: refused before anything is read or written.
    name: 'API: no key',
    file: 'api.v1.$',
    path: '/api/v1/contacts',
    actor: 'anonymous',
    keys: ['owner_id', 'full_name', 'email'],
  },
  {
    // With the agency's key: a body that is no JSON contact is a problem; only the key's last
    // use and its rate-limit counter change.
    name: 'API: create a contact',
    file: 'api.v1.$',
    path: '/api/v1/contacts',
    actor: 'anonymous',
    keys: ['owner_id', 'full_name', 'email'],
    apiBearer: true,
    mayChange: ['api_keys', 'rate_limits'],
  },
  {
    // Stripe's webhook (ADR 051), configured against the local fake: no body the fuzzer makes
    // carries a valid Stripe-Signature, so each is a 400 that stores nothing.
    name: 'Stripe webhook',
    file: 'api.stripe.webhook',
    path: '/api/stripe/webhook',
    actor: 'anonymous',
    keys: ['id', 'type', 'created', 'data', 'Stripe-Signature'],
  },
  {
    name: 'my end users: add user',
    file: 'dashboard.team-member.users',
    path: '/dashboard/team-member/users',
    actor: 'team_admin',
    intents: ['add-user'],
    keys: ['name', 'email', 'active'],
  },
  {
    // The end user administers {team} and {spareTeam}; {foreignTeam} is another tenant's.
    name: 'team page',
    file: 'dashboard.end-user.team',
    path: '/dashboard/end-user/team',
    actor: 'end_user',
    intents: [
      'create-team',
      'update-team',
      'delete-team',
      'add-member',
      'change-role',
      'remove-member',
      'cancel-invitation',
      'upgrade',
      'billing-portal',
      // Without Stripe the upgrade is a request to the agency's admins (ADR 079).
      'request-plan',
      'withdraw-plan-request',
    ],
    keys: ['name', 'description', 'teamId', 'email', 'role', 'memberId', 'invitationId', 'plan'],
  },
  {
    name: 'super admin agencies',
    file: 'dashboard.super-admin.agencies',
    path: '/dashboard/super-admin/agencies',
    actor: 'super_admin',
    intents: ['create', 'update', 'delete', 'activate', 'deactivate', 'approve', 'reject'],
    keys: ['agencyId', 'name', 'slug', 'ownerName', 'email', 'subscription', 'active'],
  },
  {
    // Another account than the one invited: refused, whatever the body.
    name: 'invitation accept (another account)',
    file: 'invitations.$token',
    path: '/invitations/ACCEPT_TOKEN',
    actor: 'end_user',
    keys: ['intent'],
  },
  {
    name: 'invitation accept (invitee)',
    file: 'invitations.$token',
    path: '/invitations/ACCEPT_TOKEN',
    actor: 'invitee',
    keys: ['intent'],
  },
  {
    name: 'invitation decline (invitee)',
    file: 'invitations.$token_.decline',
    path: '/invitations/DECLINE_TOKEN/decline',
    actor: 'invitee',
    keys: ['intent'],
  },
  {
    name: 'invitation accept (expired)',
    file: 'invitations.$token',
    path: '/invitations/EXPIRED_TOKEN',
    actor: 'invitee',
    keys: ['intent'],
    // Answering an expired invitation is refused (410) and marks it expired (spec §4).
    mayChange: ['team_invitations'],
  },
  {
    // {endUser}, {staff} and {superAdmin} are real accounts; {organization} is theirs.
    name: 'super admin end users',
    file: 'dashboard.super-admin.users._index',
    path: '/dashboard/super-admin/users?index',
    actor: 'super_admin',
    intents: [
      'add-user',
      'edit-user',
      'set-status',
      'delete-user',
      'change-role',
      'set-plan',
      'decide-plan-request',
    ],
    keys: [
      'userId',
      'organizationId',
      'name',
      'email',
      'active',
      'status',
      'role',
      'plan',
      'requestId',
      'decision',
    ],
  },
  {
    name: 'super admin team',
    file: 'dashboard.super-admin.team',
    path: '/dashboard/super-admin/team',
    actor: 'super_admin',
    // set-member-plan: a team member's plan (ADR 051).
    intents: ['add-member', 'edit-member', 'delete-member', 'change-role', 'set-member-plan'],
    keys: ['userId', 'name', 'email', 'staffTitle', 'access', 'password', 'role', 'plan'],
  },
  {
    // {teamAdmin} is a real assignee; {foreignTeamAdmin} and {endUser} must be refused.
    name: 'agency end users',
    file: 'dashboard.agency.users._index',
    path: '/dashboard/agency/users?index',
    actor: 'agency_admin',
    intents: [
      'add-user',
      'edit-user',
      'assign-user',
      'set-status',
      'delete-user',
      'change-role',
      'set-plan',
      // Cards that outlive a seat (ADR 049).
      'hand-over',
      'set-forwarding',
      'clear-successor',
      // A plan request's answer (ADR 079).
      'decide-plan-request',
    ],
    keys: [
      'userId',
      'name',
      'email',
      'active',
      'status',
      'role',
      'assignedToUserId',
      'plan',
      'requestId',
      'decision',
      'successorId',
      'offerPersonalCard',
      'kind',
      'message',
      'contactPageUrl',
    ],
  },
  {
    // The Personal switch of a contact (ADR 049).
    name: 'contacts',
    file: 'contacts._index',
    path: '/contacts?index',
    actor: 'end_user',
    intents: ['set-personal'],
    keys: ['contactId', 'personal'],
  },
  {
    // The same switch on a contact's page (issue 41 point 12): the id in the path only says
    // where the answer goes back to.
    name: 'contact page',
    file: 'contacts.$contactId',
    path: '/contacts/CARD',
    actor: 'end_user',
    intents: ['set-personal'],
    keys: ['contactId', 'personal'],
  },
  {
    // "Scan a card" (issue 45 point 3, ADR 101): a photo read on the server, then the contact
    // as corrected. Any bytes as the photo: refused with a message, never a 500.
    name: 'scan a card',
    file: 'contacts.scan',
    path: '/contacts/scan',
    actor: 'end_user',
    intents: ['read', 'save'],
    keys: ['fullName', 'jobTitle', 'company', 'email', 'phoneNumber', 'website', 'note'],
    files: ['photo'],
  },
  {
    name: 'agency team',
    file: 'dashboard.agency.team',
    path: '/dashboard/agency/team',
    actor: 'agency_admin',
    // set-member-plan: a team member's plan (ADR 051).
    intents: ['add-member', 'edit-member', 'delete-member', 'change-role', 'set-member-plan'],
    keys: ['userId', 'name', 'email', 'staffTitle', 'access', 'password', 'role', 'plan'],
  },
  {
    name: 'api settings',
    file: 'api-settings',
    path: '/api-settings',
    actor: 'end_user',
    // save-hubspot, save-salesforce: HubSpot and Salesforce beside GoHighLevel (ADR 094).
    intents: ['validate', 'save', 'retry', 'save-hubspot', 'save-salesforce'],
    keys: [
      'apiKey',
      'keepStoredKey',
      'locationId',
      'enabled',
      'contactId',
      'hubspotToken',
      'keepStoredHubspotToken',
      'salesforceUrl',
      'salesforceClientId',
      'salesforceClientSecret',
      'keepStoredSalesforceSecret',
    ],
  },
  {
    name: 'two-factor step',
    file: 'auth.two-factor',
    path: '/auth/two-factor',
    actor: 'two-factor step',
    intents: [
      'code',
      'recovery',
      'enrol',
      'passkey-options',
      'passkey',
      'passkey-add',
      // The emailed link before a first factor is set up (ADR 054).
      'send-enrolment-email',
      'confirm-email',
    ],
    keys: ['code', 'recoveryCode', 'sealedKey', 'credential', 'name', 'token'],
    // Every code attempt counts against the account and the address (ADR 045).
    mayChange: ['rate_limits'],
  },
  {
    name: 'password rotation step',
    file: 'auth.new-password',
    path: '/auth/new-password',
    actor: 'new-password step',
    keys: ['password', 'confirmPassword'],
  },
  {
    name: 'two-factor settings',
    file: 'account.two-factor',
    path: '/account/two-factor',
    actor: 'end_user',
    intents: [
      'enrol',
      'regenerate',
      'disable',
      'passkey-options',
      'passkey-add',
      'passkey-rename',
      'passkey-remove',
    ],
    keys: ['code', 'sealedKey', 'name', 'credential', 'passkeyId'],
    mayChange: ['rate_limits'],
  },
  {
    // "Delete my account" (ADR 053): no generated password is the account's, so nothing is
    // scheduled; each check counts against the limits.
    name: 'delete my account',
    file: 'account.delete',
    path: '/account/delete',
    actor: 'end_user',
    keys: ['password'],
    mayChange: ['rate_limits'],
  },
  {
    // "Keep my account" (ADR 081): the fuzzer's account has no deletion scheduled, so every
    // post is refused and writes nothing.
    name: 'keep my account',
    file: 'account.keep',
    path: '/account/keep',
    actor: 'end_user',
    keys: ['redirectTo'],
  },
  {
    // Leads captured offline (issue 45 point 4, ADR 104): the queue's JSON endpoint. Any key and
    // fields: refused with a message, never a 500.
    name: 'offline lead',
    file: 'offline_.leads',
    path: '/offline/leads',
    actor: 'end_user',
    keys: ['idempotencyKey', 'fullName', 'company', 'email', 'phoneNumber', 'note'],
  },
  {
    name: 'image upload',
    file: 'resources.upload',
    path: '/resources/upload',
    actor: 'end_user',
    keys: ['purpose'],
    files: ['file'],
  },
]

// --- The world the forms run in -------------------------------------------------------------

type Signed = {
  host: string
  cookie: string
  cardId: string
  organizationId: string
  userId: string
}
const actors = new Map<Actor, Signed>()
/**
 * Real ids the generator may send as `{name}`: they get past the format checks into the
 * branches (another tenant's media must be refused like an unknown one).
 */
const knownIds = new Map<string, string>()
/** The link tokens forms name in their path: UNSUBSCRIBE_TOKEN and the invitations'. */
const linkTokens = new Map<string, string>()

// The CRM integration's key checks reach a local fake that refuses every key (HubSpot's too,
// ADR 094; a Salesforce URL is typed, and only Salesforce's domains or loopback are called).
let crm: FakeCrm | undefined
let hubspot: FakeHubspot | undefined
let walletCertificates: TestCertificates | undefined
// Stripe's API (ADR 051): the upgrade's Checkout and the portal reach a local fake.
let stripe: FakeStripe | undefined

afterAll(async () => {
  delete process.env.GOHIGHLEVEL_API_URL
  delete process.env.HUBSPOT_API_URL
  clearStripeEnv()
  resetEnvForTests()
  await stripe?.close()
  unconfigureAppleWallet()
  if (walletCertificates) removeTestCertificates(walletCertificates)
  await crm?.close()
  await hubspot?.close()
})

beforeAll(async () => {
  crm = await startFakeCrm({ validKeys: [] })
  process.env.GOHIGHLEVEL_API_URL = crm.url
  hubspot = await startFakeHubspot({ validTokens: [] })
  process.env.HUBSPOT_API_URL = hubspot.url
  stripe = await startFakeStripe()
  Object.assign(process.env, stripeEnvFor(stripe))
  resetEnvForTests()
  walletCertificates = makeTestCertificates()
  configureAppleWallet(walletCertificates)
  const organization = await makeOrganization()
  const host = `${organization.slug}.localhost`
  // An agency of its own for the Agencies screen to act on (a deleted or deactivated
  // fuzzing tenant would fail every form after it).
  knownIds.set('agency', (await makeOrganization()).id)
  const platform = await getPlatformOrganization()
  const other = await makeOrganization()
  for (const role of ['end_user', 'team_admin', 'agency_admin', 'super_admin'] as const) {
    // Super admins belong to the platform organization, served on the root domain.
    const org = role === 'super_admin' ? platform : organization
    const user = await makeUser(org.id, {
      role,
      email: `fuzz-${role.replace('_', '-')}@example.test`,
      password: 'fuzz-pass',
    })
    const card = await makeCard(org.id, user.id)
    // A second card whose id the generator knows: the cards list may set or delete it,
    // while the first one stays for the editor and the public page.
    knownIds.set(`${role}Card`, (await makeCard(org.id, user.id)).id)
    actors.set(role, {
      host: role === 'super_admin' ? 'localhost' : host,
      cookie: await sessionCookieFor(org.id, user.id),
      cardId: card.id,
      organizationId: org.id,
      userId: user.id,
    })
  }
  // Signed out, on the end user's host and card (the public card page shows it).
  const endUser = actors.get('end_user') as Signed
  actors.set('anonymous', { ...endUser, cookie: '' })
  actors.set('platform visitor', { ...(actors.get('super_admin') as Signed), cookie: '' })
  linkTokens.set(
    'UNSUBSCRIBE_TOKEN',
    createUnsubscribeToken({
      organizationId: endUser.organizationId,
      userId: endUser.userId,
      purpose: 'notifications',
    }),
  )
  // A lead of the end user's who consented, with its receipt link's token (ADR 050).
  const receiptToken = newLinkToken()
  await withTenant(endUser.organizationId, (tx) =>
    addContact(tx, endUser.organizationId, endUser.userId, {
      fullName: 'Fuzz Lead',
      email: 'fuzz-lead@example.test',
      source: 'lead',
      dataTokenHash: hashToken(receiptToken),
    }),
  )
  linkTokens.set('RECEIPT_TOKEN', receiptToken)
  // A follower of the end user's card and a visitor waiting to confirm (ADR 102).
  const followToken = newLinkToken()
  const follower = await withTenant(endUser.organizationId, async (tx) => {
    const { organizationId, cardId } = endUser
    await askToFollow(tx, organizationId, cardId, 'fuzz-fan@example.test', 'd'.repeat(64))
    await askToFollow(tx, organizationId, cardId, 'fuzz-new@example.test', hashToken(followToken))
    return confirmFollower(tx, organizationId, 'd'.repeat(64))
  })
  if (!follower) throw new Error('no follower')
  linkTokens.set('FOLLOW_TOKEN', followToken)
  linkTokens.set('STOPFOLLOW_TOKEN', createFollowerStopToken(endUser.organizationId, follower.id))
  // A personal card offered to the end user at a hand-over (ADR 103).
  const claimToken = newLinkToken()
  await withTenant(endUser.organizationId, (tx) =>
    offerPersonalCard(tx, endUser.organizationId, endUser.userId, hashToken(claimToken), null),
  )
  linkTokens.set('CLAIM_TOKEN', claimToken)
  // Two personal cards on the platform (ADR 106): one whose page asks for an edit link, and one
  // whose emailed link is open (a fuzzed removal must not take the first away).
  const manageToken = newLinkToken()
  await withTenant(platform.id, async (tx) => {
    const card = { firstName: 'Fuzz', lastName: 'Person', email: 'fuzz-own@home.test', phone: '' }
    await insertPersonalCard(tx, platform.id, { slug: 'fuzz-person-asks', ...card })
    await insertPersonalCard(tx, platform.id, { slug: 'fuzz-person-edits', ...card })
    await setManageToken(tx, platform.id, 'fuzz-person-edits', hashToken(manageToken))
  })
  linkTokens.set('MANAGE_TOKEN', manageToken)
  // A SAML provider of the end user's agency, its IdP's real certificate (ADR 090).
  const samlIdp = parseIdpMetadata(startSamlIdp().metadata)
  if (!samlIdp.ok) throw new Error(samlIdp.message)
  const samlProvider = await insertSamlProvider(getDb(), endUser.organizationId, {
    displayName: 'Fuzz SAML',
    samlEntityId: samlIdp.idp.entityId,
    samlSsoUrl: samlIdp.idp.ssoUrl,
    samlCertificates: samlIdp.idp.certificates,
    samlMetadataUrl: null,
    jitRole: 'end_user',
    enabled: true,
  })
  linkTokens.set('SAMLIDP_TOKEN', samlProvider.id)
  actors.set('fresh session', { ...endUser, cookie: '' })
  // An agency admin without an authenticator while admins must have one: the enrolment step.
  const enrolling = await makeUser(organization.id, { role: 'agency_admin', password: 'fuzz-pass' })
  const pending = await createSession(organization.id, enrolling.id, { twoFactorVerified: false })
  actors.set('two-factor step', {
    ...endUser,
    cookie: `${sessionCookieName()}=${pending.token}`,
    organizationId: organization.id,
    userId: enrolling.id,
  })
  // An end user whose password is past rotation's 90 days, with rotation on.
  const expired = await makeUser(organization.id, { password: 'fuzz-pass' })
  await savePlatformSettings(getDb(), { passwordRotation: true })
  invalidatePlatformSettings()
  actors.set('new-password step', {
    ...endUser,
    cookie: await sessionCookieFor(organization.id, expired.id),
    organizationId: organization.id,
    userId: expired.id,
  })
  for (const [name, org] of [
    ['media', organization],
    ['foreignMedia', other],
  ] as const) {
    const stored = await withTenant(org.id, async (tx) =>
      storeMedia(tx, org.id, {
        bytes: await makePng('#123456', 40, 20),
        contentType: 'image/png',
        width: 40,
        height: 20,
        purpose: 'logo',
      }),
    )
    knownIds.set(name, stored.id)
  }
  await seedTeams(organization.id, other.id)
  knownIds.set('organization', organization.id)
  knownIds.set('endUser', (await makeUser(organization.id)).id)
  knownIds.set('staff', (await makeUser(platform.id, { role: 'super_admin_team' })).id)
  knownIds.set('superAdmin', (actors.get('super_admin') as Signed).userId)
  // The agency screens: a staff account of the agency, its team member (the assignee) and one
  // of another agency's.
  knownIds.set('agencyStaff', (await makeUser(organization.id, { role: 'agency_member' })).id)
  knownIds.set('teamAdmin', (actors.get('team_admin') as Signed).userId)
  knownIds.set('foreignTeamAdmin', (await makeUser(other.id, { role: 'team_admin' })).id)
})

/**
 * The end user (on Team Basic: 3 seats) administers {team}, full with a member and a pending
 * invitation, and {spareTeam}; another tenant has {foreignTeam}. The invitee, an end user, has
 * a pending invitation to accept, one to decline and an expired one, to teams of the member's
 * (which the team page's fuzzing, as the end user, cannot delete).
 */
async function seedTeams(organizationId: string, otherOrganizationId: string) {
  const endUser = actors.get('end_user') as Signed
  const invitee = await makeUser(organizationId, {
    email: 'fuzz-invitee@example.test',
    password: 'fuzz-pass',
  })
  const member = await makeUser(organizationId, { email: 'fuzz-member@example.test' })
  actors.set('invitee', {
    host: endUser.host,
    cookie: await sessionCookieFor(organizationId, invitee.id),
    cardId: (await makeCard(organizationId, invitee.id)).id,
    organizationId,
    userId: invitee.id,
  })
  const invite = (tx: Transaction, teamId: string, email: string, token: string) =>
    insertInvitation(tx, organizationId, {
      teamId,
      email,
      role: 'member',
      tokenHash: hashToken(token),
      invitedByUserId: endUser.userId,
    })
  const tokens = { ACCEPT_TOKEN: newLinkToken(), DECLINE_TOKEN: newLinkToken() }
  const expiredToken = newLinkToken()
  await withTenant(organizationId, async (tx) => {
    await setUserPlan(tx, organizationId, endUser.userId, 'free', 'team_basic')
    const fields = { name: 'Fuzz team', description: 'Fuzzed' }
    const team = await createTeamWithAdmin(tx, organizationId, endUser.userId, fields)
    const spare = await createTeamWithAdmin(tx, organizationId, endUser.userId, fields)
    const added = await addTeamMember(tx, organizationId, team.id, member.id, 'member')
    await setUserPlan(tx, organizationId, member.id, 'free', 'team_basic')
    const toAccept = await createTeamWithAdmin(tx, organizationId, member.id, fields)
    const toDecline = await createTeamWithAdmin(tx, organizationId, member.id, fields)
    const own = await findMembership(tx, organizationId, team.id, endUser.userId)
    const pending = await invite(tx, team.id, 'pending@example.test', newLinkToken())
    await invite(tx, toAccept.id, invitee.email, tokens.ACCEPT_TOKEN)
    await invite(tx, toDecline.id, invitee.email, tokens.DECLINE_TOKEN)
    const expired = await invite(tx, toAccept.id, 'late@example.test', expiredToken)
    await tx
      .update(teamInvitations)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(teamInvitations.id, expired.id))
    knownIds.set('team', team.id)
    knownIds.set('spareTeam', spare.id)
    knownIds.set('teamMember', added?.id ?? '')
    knownIds.set('ownMembership', own?.id ?? '')
    knownIds.set('invitation', pending.id)
  })
  for (const [name, token] of Object.entries(tokens)) linkTokens.set(name, token)
  linkTokens.set('EXPIRED_TOKEN', expiredToken)
  const foreignAdmin = await makeUser(otherOrganizationId)
  await withTenant(otherOrganizationId, async (tx) => {
    const team = await createTeamWithAdmin(tx, otherOrganizationId, foreignAdmin.id, {
      name: 'Foreign team',
      description: '',
    })
    const invitation = await insertInvitation(tx, otherOrganizationId, {
      teamId: team.id,
      email: 'fuzz-end-user@example.test',
      role: 'admin',
      tokenHash: hashToken(newLinkToken()),
      invitedByUserId: foreignAdmin.id,
    })
    knownIds.set('foreignTeam', team.id)
    knownIds.set('foreignInvitation', invitation.id)
  })
}

// --- Generators --------------------------------------------------------------------------------

const PURPOSES = Object.keys(IMAGE_PURPOSES)

/** Values a real user might send: they get past validation and reach the deeper branches. */
const plausible = fc.constantFrom(
  'Ada',
  'Lovelace',
  'ada@example.test',
  'fuzz-end-user@example.test',
  'fuzz-pass',
  'password123',
  'https://example.com',
  '+44 20 7946 0000',
  'color:#3b82f6',
  'gradient:blue-ocean',
  '#ffffff',
  'color',
  'gradient',
  'image',
  'blue-ocean',
  'none',
  'new',
  'duplicate',
  'on',
  '/dashboard',
  ...PURPOSES,
)

/** A valid but unknown uuid, one in capitals, and 36 characters that only look like one. */
const ID_SHAPED = [
  '00000000-0000-0000-0000-000000000000',
  'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11',
  '------------------------------------',
  'ffffffffffffffffffffffffffffffffffff',
  'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1z',
]

const hostile = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\uD800',
  '\u202Eevil',
  'e\u0301',
  '👩‍👩‍👧‍👦',
  '<script>alert(1)</script>',
  'a@b',
  "'; drop table users; --",
  '#zzzzzz',
  'color:',
  'image:../../etc/passwd',
  '../../etc/passwd',
  'javascript:alert(1)',
  '//evil.example/',
  'true',
  'false',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e309',
  '[object Object]',
  '__proto__',
  ...ID_SHAPED,
)

/** One field value: plausible, hostile, any unicode, numbers and JSON as text, or long. */
const value = fc.oneof(
  { weight: 3, arbitrary: plausible },
  { weight: 3, arbitrary: hostile },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double()).map(String) },
  { weight: 1, arbitrary: fc.json({ maxDepth: 2 }) },
  // A real card or media id (this tenant's or another's), filled in when the body is built.
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{end_userCard}',
      '{team_adminCard}',
      '{media}',
      '{foreignMedia}',
      '{team}',
      '{teamMember}',
    ),
  },
  { weight: 1, arbitrary: fc.string({ minLength: 5000, maxLength: 12000 }) },
)

/** A valid value per field name: bodies mostly valid but for a few fields reach the writes. */
const VALID: Record<string, readonly string[]> = {
  // Download my data (ADR 052): an export id of the right shape (redirectTo is below).
  exportId: ['00000000-0000-4000-8000-000000000000'],
  // Two-factor (ADR 045): well-formed codes that match nothing, a sealed-looking key.
  code: ['123456', '000000'],
  // Single sign-on's settings (ADR 088): a loopback issuer where nothing listens, ids of nothing.
  displayName: ['Contoso Entra ID'],
  issuerUrl: ['http://127.0.0.1:9/', 'http://idp.example.test'],
  clientId: ['client-id'],
  clientSecret: ['client-secret', ''],
  jitRole: ['end_user', 'agency_member', 'agency_admin'],
  enabled: ['on'],
  providerId: ['00000000-0000-4000-8000-000000000000'],
  domainId: ['00000000-0000-4000-8000-000000000000'],
  domain: ['example.com', 'user@example.com'],
  enforced: ['on', 'off'],
  recoveryCode: ['abcde-fghij'],
  sealedKey: ['v1.AAAAAAAA.AAAAAAAAAAAAAAAA.AAAA'],
  firstName: ['Ada'],
  lastName: ['Lovelace'],
  fullName: ['Grace Hopper'],
  email: ['ada@example.test', 'fuzz-end-user@example.test'],
  workEmail: ['ada@work.example.test', ''],
  phoneNumber: ['+44 20 7946 0000', ''],
  company: ['Analytical Engines', ''],
  jobTitle: ['Mathematician'],
  website: ['https://ada.example.test', ''],
  bio: ['Counts engines', ''],
  pronouns: ['she/her', ''],
  phoneType: ['mobile', 'work'],
  phone2: ['+44 20 7946 0001', ''],
  phone2Type: ['work', 'mobile'],
  addressStreet: ['12 St James Square', ''],
  addressCity: ['London'],
  addressRegion: ['Greater London', ''],
  addressPostalCode: ['SW1Y 4JH', ''],
  addressCountry: ['United Kingdom', ''],
  'links[0].kind': ['linkedin', 'whatsapp', 'custom'],
  'links[0].label': ['Blog', ''],
  'links[0].url': ['https://www.linkedin.com/in/ada', '+44 7700 900123', 'javascript:alert(1)'],
  'links[1].kind': ['github', 'booking'],
  'links[1].url': ['github.com/ada', 'https://calendly.com/ada'],
  'links[10].kind': ['x'],
  'links[10].url': ['https://x.com/ada'],
  note: ['Met at the conference'],
  password: ['password123'],
  currentPassword: ['fuzz-pass', 'password123'],
  newPassword: ['password123'],
  confirmPassword: ['password123'],
  token: ['a'.repeat(52)],
  redirectTo: ['/dashboard', 'https://evil.example/'],
  title: ['Work card'],
  noindex: ['on'],
  method: ['duplicate', 'new'],
  kind: ['color', 'gradient', 'image', 'message', 'contact_page'],
  successorId: ['{endUser}', '{teamMember}', '{staff}'],
  message: ['We moved on', ''],
  contactPageUrl: ['https://example.test/contact', 'javascript:alert(1)', ''],
  personal: ['true', 'false'],
  value: ['#3b82f6', 'blue-ocean'],
  backgroundChoice: ['color:#3b82f6', 'gradient:blue-ocean'],
  purpose: PURPOSES,
  notifications: ['on'],
  marketingEmails: ['on'],
  'List-Unsubscribe': ['One-Click'],
  consent: ['on'],
  consentText: ['I agree to be contacted.', ''],
  cardId: ['{end_userCard}', '{team_adminCard}'],
  mediaId: ['{media}', '{foreignMedia}'],
  logoMediaId: ['{media}', 'none'],
  profilePictureMediaId: ['{media}', 'none'],
  backgroundMediaId: ['{media}', '{foreignMedia}', 'none'],
  coverMediaId: ['{media}', '{foreignMedia}', 'none'],
  videoUrl: [
    'https://youtu.be/dQw4w9WgXcQ',
    'https://vimeo.com/76979871',
    'https://example.test/watch?v=dQw4w9WgXcQ',
    'javascript:alert(1)',
    '',
  ],
  getYourOwnCardUrl: ['https://example.test/get-a-card', 'javascript:alert(1)', ''],
  name: ['Sales team'],
  description: ['Our sales people', ''],
  teamId: ['{team}', '{spareTeam}', '{foreignTeam}'],
  role: ['member', 'manager', 'admin', 'viewer', 'end_user', 'team_admin', 'super_admin_team'],
  memberId: ['{teamMember}', '{ownMembership}'],
  invitationId: ['{invitation}', '{foreignInvitation}'],
  plan: ['team_basic', 'team_pro'],
  agencyId: ['{agency}'],
  slug: ['fuzz-agency', ''],
  ownerName: ['Olive Owner'],
  subscription: ['free', 'enterprise'],
  active: ['on', ''],
  userId: ['{endUser}', '{staff}', '{superAdmin}', '{teamMember}', '{agencyStaff}'],
  assignedToUserId: ['{teamAdmin}', '{foreignTeamAdmin}', '{endUser}', ''],
  organizationId: ['{organization}', '{foreignTeam}'],
  status: ['active', 'inactive'],
  staffTitle: ['team_lead', 'content_manager', 'designer', 'account_manager'],
  access: ['super_admin', 'super_admin_team', 'agency_admin', 'agency_member'],
  // The invitation pages' answer: each page takes its own only.
  intent: ['accept', 'decline'],
}

const valueFor = (key: string) => {
  const valid = VALID[key]
  if (!valid) return value
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...valid) },
    // Id fields get more id-shaped values: they reach the queries, where a bad one would fail.
    { weight: key.endsWith('Id') ? 1 : 0, arbitrary: fc.constantFrom(...ID_SHAPED) },
    { weight: 2, arbitrary: value },
  )
}

type FileSpec =
  | { kind: 'png'; color: number }
  | { kind: 'bytes'; bytes: Uint8Array; type: string }
  | { kind: 'png header'; bytes: Uint8Array }
  | { kind: 'bomb' }
  | { kind: 'too big' }

const fileSpec: fc.Arbitrary<FileSpec> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('png'), color: fc.nat(0xffffff) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('bytes'),
      bytes: fc.uint8Array({ maxLength: 2000 }),
      type: fc.constantFrom('image/png', 'image/jpeg', 'text/plain', 'application/pdf', ''),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('png header'),
      bytes: fc.uint8Array({ maxLength: 200 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'bomb' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'too big' as const }) },
)

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
let bomb: Buffer | undefined

async function materialize(spec: FileSpec): Promise<Blob> {
  switch (spec.kind) {
    case 'png': {
      const color = `#${spec.color.toString(16).padStart(6, '0')}`
      return new Blob([new Uint8Array(await makePng(color, 30, 30))], { type: 'image/png' })
    }
    case 'bytes':
      return new Blob([new Uint8Array(spec.bytes)], { type: spec.type })
    case 'png header':
      return new Blob([new Uint8Array([...PNG_SIGNATURE, ...spec.bytes])], { type: 'image/png' })
    case 'bomb':
      bomb ??= blankPng(10_000, 10_000)
      return new Blob([new Uint8Array(bomb)], { type: 'image/png' })
    case 'too big':
      return new Blob([new Uint8Array(MAX_UPLOAD_BYTES + 1)], { type: 'image/png' })
  }
}

type Entry = [string, string | FileSpec]
type Body = { multipart: boolean; entries: Entry[] }

function bodyFor(form: Form): fc.Arbitrary<Body> {
  const keys = [...form.keys, ...(form.files ?? [])]
  // Known keys, and the same keys made into arrays or objects by conform's name syntax.
  const key = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...keys) },
    { weight: 1, arbitrary: fc.constantFrom(...keys).map((k) => `${k}[0]`) },
    { weight: 1, arbitrary: fc.constantFrom(...keys).map((k) => `${k}.x`) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
    { weight: 1, arbitrary: fc.constantFrom('intent', '__proto__', 'constructor', 'id', 'role') },
  )
  // Mostly a real intent; sometimes another value, twice (an array), or none at all.
  const intent: fc.Arbitrary<Entry[]> = form.intents
    ? fc.oneof(
        {
          weight: 12,
          arbitrary: fc.constantFrom(...form.intents).map((v): Entry[] => [['intent', v]]),
        },
        { weight: 1, arbitrary: value.map((v): Entry[] => [['intent', v]]) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.constantFrom(...form.intents), fc.constantFrom(...form.intents))
            .map(([a, b]): Entry[] => [
              ['intent', a],
              ['intent', b],
            ]),
        },
        { weight: 1, arbitrary: fc.constant<Entry[]>([]) },
      )
    : fc.constant<Entry[]>([])
  // Each known field present or missing, then a few extra (repeated or odd) entries.
  const fields = fc.record(Object.fromEntries(form.keys.map((k) => [k, valueFor(k)])), {
    requiredKeys: [],
  })
  const files = fc.record(Object.fromEntries((form.files ?? []).map((k) => [k, fileSpec])), {
    requiredKeys: [],
  })
  const extra = fc.array(fc.tuple(key, value), { maxLength: 3 })
  return fc
    .record({
      intent,
      fields,
      files,
      extra,
      multipart: fc.boolean(),
    })
    .chain(({ intent, fields, files, extra, multipart }) => {
      const present = (record: Record<string, string | FileSpec | undefined>) =>
        Object.entries(record).filter((entry): entry is Entry => entry[1] !== undefined)
      const entries: Entry[] = [
        ...intent,
        ...present(fields),
        ...(multipart ? present(files) : []),
        ...extra,
      ]
      return fc.shuffledSubarray(entries, { minLength: entries.length }).map((shuffled) => ({
        multipart,
        entries: shuffled,
      }))
    })
}

// --- Requests and checks -------------------------------------------------------------------

const modules = import.meta.glob<{ action?: Action }>('../../app/routes/*.{ts,tsx}')

async function actionOf(file: string): Promise<Action> {
  const importer = Object.entries(modules).find(
    ([path]) => path.match(/routes\/(.+)\.tsx?$/)?.[1] === file,
  )?.[1]
  if (!importer) throw new Error(`no module for ${file}`)
  const { action } = await importer()
  if (!action) throw new Error(`${file} has no action`)
  return action
}

/**
 * The Cookie header of the form's actor. Logout ends the session it is sent with, so each of
 * its requests gets a session of its own (made before the "before" checksum is taken).
 */
async function cookieFor(form: Form) {
  const signed = actors.get(form.actor) as Signed
  // The token (and its audit event) exists before the checksum a run starts from.
  if (form.scimBearer) await scimTokenOf(signed)
  if (form.apiBearer) await apiKeyOf(signed)
  if (form.actor === 'new-password step') {
    // A generated valid password may pass the step: the next request starts expired again (a
    // fixed date, so a refused request's checksum is the next one's start).
    await getDb()
      .update(users)
      .set({ passwordChangedAt: new Date('2020-01-01T00:00:00Z') })
      .where(eq(users.id, signed.userId))
  }
  if (form.actor !== 'fresh session') return signed.cookie
  return sessionCookieFor(signed.organizationId, signed.userId)
}

type Payload = { body: BodyInit; contentType?: string }

/** The actor's agency's SCIM token, made on first use (its row is in the forms' mayChange). */
const scimTokens = new Map<string, Promise<string>>()
function scimTokenOf(signed: Signed) {
  let token = scimTokens.get(signed.organizationId)
  if (!token) {
    token = createScimToken(
      {
        tenant: { id: signed.organizationId } as Tenant,
        user: { id: signed.userId } as User,
        session: { sessionId: 'fuzz' },
      },
      'Fuzz',
    ).then((made) => made.token)
    scimTokens.set(signed.organizationId, token)
  }
  return token
}

/** The actor's agency's API key with every scope, made on first use. */
const apiKeys = new Map<string, Promise<string>>()
function apiKeyOf(signed: Signed) {
  let key = apiKeys.get(signed.organizationId)
  if (!key) {
    key = createApiKey(
      {
        tenant: { id: signed.organizationId } as Tenant,
        user: { id: signed.userId } as User,
        session: { sessionId: 'fuzz' },
      },
      { name: 'Fuzz', scopes: [...API_SCOPES] },
    ).then((made) => made.key)
    apiKeys.set(signed.organizationId, key)
  }
  return key
}

async function send(form: Form, action: Action, payload: Payload, cookie: string, run: number) {
  const signed = actors.get(form.actor) as Signed
  const cardId = (actors.get(form.cardOf ?? form.actor) as Signed).cardId
  const headers = new Headers()
  if (payload.contentType) headers.set('Content-Type', payload.contentType)
  if (cookie) headers.set('Cookie', cookie)
  if (form.scimBearer) headers.set('Authorization', `Bearer ${await scimTokenOf(signed)}`)
  if (form.apiBearer) headers.set('Authorization', `Bearer ${await apiKeyOf(signed)}`)
  const slug = form.path.includes('PERSONAL_SLUG')
    ? 'fuzz-person-asks'
    : form.path.includes('SLUG')
      ? await currentSlugOf(cardId)
      : ''
  const path = form.path
    .replace('PERSONAL_SLUG', slug)
    .replace('CARD', cardId)
    .replace('SLUG', slug)
    .replace(/[A-Z]+_TOKEN/, (name) => linkTokens.get(name) ?? name)
  const token = /^\/invitations\/([^/?]+)/.exec(path)?.[1] ?? ''
  const providerId = /^\/auth\/sso\/saml\/([^/]+)\//.exec(path)?.[1] ?? ''
  return settle(() =>
    action({
      request: new Request(`http://${signed.host}${path}`, {
        method: 'POST',
        headers,
        body: payload.body,
      }),
      // A different address per request: per-address rate limits do not mask the branches.
      context: contextFor(signed.host, `198.51.${Math.floor(run / 250) % 250}.${run % 250}`),
      params: { cardId, ref: cardId, slug, token, providerId },
    }),
  )
}

async function currentSlugOf(cardId: string) {
  const [row] = await getDb()
    .select({ slug: cardSlugs.slug })
    .from(cardSlugs)
    .where(and(eq(cardSlugs.cardId, cardId), isNull(cardSlugs.retiredAt)))
  return row?.slug ?? ''
}

/** A generated value with its `{name}` id token, if any, made into the real id. */
const fill = (v: string) => v.replace(/^\{(\w+)\}$/, (token, name) => knownIds.get(name) ?? token)

async function encode(body: Body): Promise<Payload> {
  if (!body.multipart) {
    const params = new URLSearchParams()
    for (const [k, v] of body.entries) if (typeof v === 'string') params.append(k, fill(v))
    return { body: params.toString(), contentType: 'application/x-www-form-urlencoded' }
  }
  const data = new FormData()
  for (const [k, v] of body.entries) {
    if (typeof v === 'string') data.append(k, fill(v))
    else data.append(k, await materialize(v), 'upload.png')
  }
  return { body: data }
}

/** The human-readable explanation a refusal carries, or '' when it has none. */
async function explanation(response: Response): Promise<string> {
  const text = await response.clone().text()
  if (!(response.headers.get('Content-Type') ?? '').includes('application/json')) {
    // 'Not Found' or 'Forbidden' tell the whole story; a bare 'Bad Request' does not say what
    // is wrong with the request.
    const vague = [400, 413, 422].includes(response.status)
    return vague && text.trim() === STATUS_CODES[response.status] ? '' : text
  }
  const body = JSON.parse(text) as Partial<SubmissionReply> & {
    error?: unknown
    message?: unknown
    answerError?: unknown
    imageErrors?: Record<string, unknown>
  }
  // A page with several forms answers each under its own key (the Branding screen's
  // `sendingDomain`): every conform reply in the body counts.
  const replies = Object.values(body).filter(
    (value): value is SubmissionReply['result'] =>
      typeof value === 'object' && value !== null && 'status' in value && 'error' in value,
  )
  const messages = [
    ...replies.flatMap((reply) => Object.values(reply.error ?? {}).flatMap((list) => list ?? [])),
    ...Object.values(body.imageErrors ?? {}),
    body.error,
    body.message,
    // The invitation pages' refusal.
    body.answerError,
  ]
  return messages.filter((m): m is string => typeof m === 'string' && m.trim() !== '').join(' | ')
}

async function checksum(form: Form) {
  return databaseChecksum({ exclude: [...(form.mayChange ?? [])] })
}

// The rows written per table (tests/checksum.ts): a refusal that wrote no row of a table the form
// may not change is proved to have changed nothing without a checksum of the whole database.
let writeCounts: Awaited<ReturnType<typeof installWriteCounter>> | undefined
async function writesOf(form: Form) {
  writeCounts ??= await installWriteCounter()
  return writeCounts({ exclude: [...(form.mayChange ?? [])] })
}

async function expectRefusalOrSuccess(
  form: Form,
  response: Response,
  before: Record<string, string>,
  writesBefore: Record<string, number>,
  label: string,
) {
  expect(response.status, label).toBeLessThan(500)
  if (response.status < 400 || response.status === 429) return undefined
  expect(await explanation(response), `${label}: a ${response.status} without a message`).not.toBe(
    '',
  )
  // No row written: the database is as it was. Rows written: the checksum says whether they
  // changed anything (an UPDATE to the same values writes a row and changes nothing).
  if (JSON.stringify(await writesOf(form)) === JSON.stringify(writesBefore)) return before
  const after = await checksum(form)
  expect(after, `${label}: a ${response.status} changed the database`).toEqual(before)
  return after
}

// FUZZ_STATS=file writes which answers the generated requests got: does the generator still
// reach the branches behind validation (saves, duplicates, image checks, rate limits)?
const STATS = process.env.FUZZ_STATS
const stats: string[] = []
afterAll(() => {
  if (STATS) writeFileSync(STATS, `${stats.sort().join('\n')}\n`)
})

async function outcome(response: Response) {
  if (response.status >= 400) return (await explanation(response)).slice(0, 80)
  return response.headers.get('Location') ?? ''
}

const RUNS = Number(process.env.FUZZ_RUNS ?? 25)
const SEED = Number(process.env.FUZZ_SEED ?? 20261122)

test('every action route is fuzzed', async () => {
  const dir = new URL('../../app/routes/', import.meta.url)
  const withAction = readdirSync(dir)
    .filter((name) => /\.tsx?$/.test(name))
    .filter((name) =>
      /export\s+(async\s+function\s+action\b|const\s+action\b|function\s+action\b|\{[^}]*\baction\b)/.test(
        readFileSync(new URL(name, dir), 'utf8'),
      ),
    )
    .map((name) => name.replace(/\.tsx?$/, ''))
  // The same list from the modules themselves: nothing re-exported slips past the regex.
  const fromModules: string[] = []
  for (const [path, load] of Object.entries(modules)) {
    if (typeof (await load()).action === 'function') {
      fromModules.push(path.replace(/^.*routes\//, '').replace(/\.tsx?$/, ''))
    }
  }
  expect(withAction.sort()).toEqual(fromModules.sort())
  const fuzzed = new Set(FORMS.map((form) => form.file))
  expect(withAction.filter((file) => !fuzzed.has(file))).toEqual([])
  expect(withAction.length).toBeGreaterThan(10)
})

/** 1.5 MB once UTF-8 encoded: put in turn in each known field, the others valid. */
const HUGE = 'é'.repeat(750_000)
const HUGE_ENCODED = Buffer.from(new URLSearchParams({ v: HUGE }).toString().slice('v='.length))

describe.each(FORMS)('$name', (form) => {
  test('generated bad input: never a 5xx; a 4xx has a message and writes nothing', async () => {
    const action = await actionOf(form.file)
    let run = 0
    let before: Record<string, string> | undefined
    await fc.assert(
      fc.asyncProperty(bodyFor(form), async (body) => {
        run += 1
        const cookie = await cookieFor(form)
        const start = before ?? (await checksum(form))
        // Unknown until this run has passed (a failing run may have written; shrinking goes on).
        before = undefined
        const writes = await writesOf(form)
        const response = await send(form, action, await encode(body), cookie, run)
        const label = `${form.name} ${JSON.stringify(body).slice(0, 300)}`
        if (STATS) stats.push(`${form.name}\t${response.status}\t${await outcome(response)}`)
        // After a refusal the database is as it was, so its checksum is the next run's start.
        before = await expectRefusalOrSuccess(form, response, start, writes, label)
      }),
      // A fixed seed keeps CI reproducible; FUZZ_SEED and FUZZ_RUNS explore further.
      { numRuns: RUNS, seed: SEED },
    )
  }, 120_000)

  test('huge and malformed bodies: never a 5xx; a 4xx has a message and writes nothing', async () => {
    const action = await actionOf(form.file)
    const cases: (Payload & { label: string })[] = []
    const intents = form.intents ?? [null]
    intents.forEach((intent, index) => {
      const params = new URLSearchParams()
      if (intent) params.set('intent', intent)
      for (const key of form.keys) params.set(key, fill(VALID[key]?.[0] ?? 'Ada'))
      const key = form.keys[index % form.keys.length] ?? 'unknown'
      params.delete(key)
      // The huge value percent-encoded once for the whole file, as bytes (4.5 MB of text to
      // encode again for every case was a sixth of this test's time); the body is the same.
      const field = new URLSearchParams({ [key]: '' }).toString()
      cases.push({
        label: `${key} of 1.5 MB (intent ${intent})`,
        body: Buffer.concat([
          Buffer.from([params.toString(), field].filter(Boolean).join('&')),
          HUGE_ENCODED,
        ]),
        contentType: 'application/x-www-form-urlencoded',
      })
    })
    const multipart = new FormData()
    if (form.intents?.[0]) multipart.set('intent', form.intents[0])
    multipart.set('unknownField', HUGE)
    for (const key of form.files ?? ['file']) {
      multipart.set(key, await materialize({ kind: 'too big' }), 'big.png')
    }
    cases.push({ label: 'multipart, a 1.5 MB field and a file over 5 MB', body: multipart })
    cases.push(
      { label: 'multipart without a boundary', body: 'x=1', contentType: 'multipart/form-data' },
      {
        label: 'truncated multipart',
        body: '--b\r\nContent-Disposition: form-data; name="intent"\r\n\r\nprof',
        contentType: 'multipart/form-data; boundary=b',
      },
      { label: 'JSON body', body: '{"intent":"profile"}', contentType: 'application/json' },
      {
        label: 'broken percent-encoding',
        body: 'intent=%E0%A4%A&email=%ZZ',
        contentType: 'application/x-www-form-urlencoded',
      },
      { label: 'no content type', body: new Uint8Array([0, 255, 1, 254]) },
    )
    let run = 10_000
    let before: Record<string, string> | undefined
    for (const { label, ...payload } of cases) {
      run += 1
      const cookie = await cookieFor(form)
      const start = before ?? (await checksum(form))
      const writes = await writesOf(form)
      const response = await send(form, action, payload, cookie, run)
      before = await expectRefusalOrSuccess(form, response, start, writes, `${form.name}: ${label}`)
    }
  }, 120_000)
})

// Loaders that read input from the query: the TLS proxy's ask takes any string Caddy got in a
// TLS ClientHello (anyone can send any server name). Never a 5xx; a refusal says why; nothing
// but its rate-limit counter is written.
describe('the TLS ask (/api/domains/allowed?domain=)', () => {
  test('generated domains and query strings: never a 5xx, writes only rate limits', async () => {
    const { loader } = await import('#app/routes/api.domains.allowed')
    const domainLike = fc
      .array(fc.stringMatching(/^[a-z0-9-]{0,70}$/), { minLength: 1, maxLength: 6 })
      .map((labels) => labels.join('.'))
    const anyText = fc.string({ unit: 'binary', maxLength: 400 })
    const before = await databaseChecksum({ exclude: ['rate_limits'] })
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(domainLike, anyText),
        fc.constantFrom('domain', 'Domain', 'domain[]'),
        async (value, key) => {
          const query = `${encodeURIComponent(key)}=${encodeURIComponent(value)}`
          const response = await loader({
            request: new Request(`http://127.0.0.1:3000/api/domains/allowed?${query}`),
            context: { ...contextFor('127.0.0.1'), peerAddress: '127.0.0.1', relayed: false },
            params: {},
          })
          const label = JSON.stringify({ key, value }).slice(0, 300)
          expect([200, 400, 404, 429], label).toContain(response.status)
          expect((await response.text()).trim().length, label).toBeGreaterThan(0)
        },
      ),
      { numRuns: RUNS * 4, seed: SEED },
    )
    expect(await databaseChecksum({ exclude: ['rate_limits'] })).toEqual(before)
  }, 120_000)
})

// The health probes (ADR 097) take whatever a load balancer or a stranger sends: any query, any
// headers. Liveness is always 200, readiness 200 or 503 (never another 5xx), and neither writes.
describe('the health probes (/api/health/live, /api/health/ready)', () => {
  test('generated queries and headers: liveness 200, readiness 200 or 503, nothing written', async () => {
    const { loader: live } = await import('#app/routes/api.health.live')
    const { loader: ready } = await import('#app/routes/api.health.ready')
    const anyText = fc.string({ unit: 'binary', maxLength: 200 })
    const before = await databaseChecksum()
    await fc.assert(
      fc.asyncProperty(anyText, anyText, async (query, header) => {
        const headers = new Headers()
        try {
          headers.set('traceparent', header)
        } catch {}
        const url = `http://localhost:3000/api/health/ready?${encodeURIComponent(query)}`
        const label = JSON.stringify({ query, header }).slice(0, 300)
        expect(live().status, label).toBe(200)
        const response = await ready({
          request: new Request(url, { headers }),
          context: contextFor('localhost'),
          params: {},
        })
        expect([200, 503], label).toContain(response.status)
        expect(response.headers.get('Cache-Control'), label).toBe('no-store')
      }),
      { numRuns: RUNS, seed: SEED },
    )
    expect(await databaseChecksum()).toEqual(before)
  }, 120_000)
})
