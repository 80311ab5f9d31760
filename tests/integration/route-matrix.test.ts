// Two matrices over every route module: roles × protected routes, and a user of tenant A
// against tenant B's resources on both hosts. A route file the matrices do not list fails.

import { readdirSync, readFileSync } from 'node:fs'
import { and, eq, like, sql } from 'drizzle-orm'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { sendConfirmationEmail } from '#app/auth/email-confirmation.server'
import { flushCardEvents } from '#app/cards/event-batcher.server'
import { hashToken, newLinkToken } from '#app/email/link-token.server'
import {
  createFollowerStopToken,
  createUnsubscribeToken,
} from '#app/email/unsubscribe-token.server'
import { resetEnvForTests } from '#app/env.server'
import { insertAnnouncement } from '#app/models/announcements.server'
import { insertApiKey } from '#app/models/api-keys.server'
import { askToFollow, confirmFollower } from '#app/models/card-followers.server'
import { insertTemplate, setCardsTemplate } from '#app/models/card-templates.server'
import { insertConsentText } from '#app/models/consent-texts.server'
import { addContact } from '#app/models/contacts.server'
import {
  finishDataExport,
  insertDataExport,
  startDataExport,
} from '#app/models/data-exports.server'
import { insertPasskey } from '#app/models/passkeys.server'
import { offerPersonalCard } from '#app/models/personal-cards.server'
import { insertPlanRequest } from '#app/models/plan-requests.server'
import { insertScimToken } from '#app/models/scim.server'
import { setSeatSuccessor } from '#app/models/seat-successors.server'
import { insertOidcProvider, insertSsoDomain } from '#app/models/sso.server'
import { insertSamlProvider } from '#app/models/sso-saml.server'
import { insertInvitation } from '#app/models/team-invitations.server'
import { addTeamMember, createTeamWithAdmin } from '#app/models/teams.server'
import { setUserPlan } from '#app/models/users.server'
import {
  insertWebhookDelivery,
  insertWebhookEndpoint,
  insertWebhookMessage,
} from '#app/models/webhooks.server'
import { resolveTenant } from '#app/tenancy/tenant.server'
import { sealAtRest } from '#app/utils/secret-box.server'
import { type Role, rolePaths } from '#app/validation/roles'
import { getDb, withTenant } from '#drizzle/db.server'
import { emailOutbox, users } from '#drizzle/schema'
import { databaseChecksum, rowsOf } from '#tests/checksum'
import {
  contextFor,
  formRequest,
  makeBrandedOrganization,
  makeCard,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'
import { makeServiceAccountKey, TEST_ISSUER_ID } from '#tests/fake-google-wallet'
import { asDelivered } from '#tests/inbox'
import { loadRoute } from '#tests/route-modules'

const load = loadRoute

// Who may open each protected page ('any' = every signed-in role). Public routes: 'public'.
const ALL_ROLES: Role[] = [
  'super_admin',
  'super_admin_team',
  'agency_admin',
  'agency_member',
  'team_admin',
  'end_user',
]
// Everyone but team admins (who keep theirs in the team-member area) owns cards here (ADR 007).
const CARD_OWNERS: Role[] = [
  'end_user',
  'super_admin_team',
  'super_admin',
  'agency_admin',
  'agency_member',
]
// 'platform-admin': a super admin on the platform host only, so on an agency host every role
// gets 403 (super-admin-people.test.ts covers the platform host).
const ACCESS: Record<string, Role[] | 'any' | 'public' | 'no-loader' | 'platform-admin'> = {
  '$.tsx': 'public',
  '_index.tsx': 'public',
  'api.health-check.ts': 'public',
  // Liveness and readiness (ADR 097): no tenant, no session; a load balancer's probes.
  'api.health.live.ts': 'public',
  'api.health.ready.ts': 'public',
  // The TLS proxy's ask: no tenant, no session; only the proxy's address may ask
  // (tests/integration/domains-ask.test.ts).
  'api.domains.allowed.ts': 'public',
  // Stripe's webhook: no session, no tenant host; only a body whose signature verifies changes
  // anything (tests/integration/billing.test.ts).
  'api.stripe.webhook.ts': 'public',
  'auth.confirm-email.tsx': 'public',
  'auth.forgot-password.tsx': 'public',
  'auth.login.tsx': 'public',
  // Sign in with SSO and the identity provider's way back (ADR 088): signed out, like sign-in.
  'auth.sso._index.tsx': 'public',
  'auth.sso.callback.tsx': 'public',
  'auth.logout.ts': 'public',
  'auth.register.tsx': 'public',
  'auth.reset-password.tsx': 'public',
  // Sign-in steps (ADR 045): only a session owing the step reaches them; any other session goes
  // to its dashboard, none to sign in (tests/integration/two-factor.test.ts).
  'auth.two-factor.tsx': 'public',
  'auth.new-password.tsx': 'public',
  // SAML (ADR 090): the SP metadata an IdP imports, and the ACS an IdP's page posts to (no
  // session; only a response that checks out is passed on, tests/integration/sso-saml.test.ts).
  'auth.sso.saml.$providerId.metadata.tsx': 'public',
  'auth.sso.saml.$providerId.acs.ts': 'public',
  'c.$slug.tsx': 'public',
  'card.$ref.tsx': 'public',
  'card._index.tsx': 'public',
  'contact._index.tsx': 'public',
  'card_.$ref.background[.]png.ts': 'public',
  'card_.$ref.google-wallet.ts': 'public',
  // The email signature: its owner's, anyone else the missing card's 404 (no sign-in redirect).
  'card_.$ref.signature[.]html.ts': 'public',
  'card_.$ref.signature[.]txt.ts': 'public',
  'card_.$ref.qr[.]png.ts': 'public',
  'card_.$ref.qr[.]svg.ts': 'public',
  'card_.$ref.vcard.ts': 'public',
  // A tap on a card's link (ADR 082): counted, then 302 to that card's own stored URL.
  'card_.$ref.l.$linkId.ts': 'public',
  // A card's link preview image, under the card's own privacy rules (ADR 024).
  'card_.$ref.og.$file.ts': 'public',
  // A card's Apple Wallet pass, through the card gate like the vCard (ADR 042).
  'card_.$ref.pass[.]pkpass.ts': 'public',
  // Apple's PassKit web service: devices, no session; each pass's own token
  // (tests/integration/apple-wallet.test.ts runs it with the feature configured).
  'wallet.apple.v1.$.ts': 'public',
  // SCIM 2.0 (ADR 089): no session; the agency's bearer token only (tests/integration/scim.test.ts).
  'scim.v2.$.ts': 'public',
  // The REST API (ADR 092): no session; the agency's API key only (tests/integration/api-rest.test.ts).
  'api.v1.$.ts': 'public',
  'contact.$ref.tsx': 'public',
  'media.$file.ts': 'public',
  'dev.outbox.tsx': 'public',
  'email.unsubscribe.tsx': 'public',
  // A card follower's links (ADR 102): the token is the only authority, on its tenant's host.
  'follow.confirm.tsx': 'public',
  'follow.unsubscribe.tsx': 'public',
  // A departing person's emailed claim link (ADR 103): the token is the only authority, on its
  // agency's host; a personal card is public, on the platform's host only.
  'personal-card.claim.tsx': 'public',
  'p.$slug.tsx': 'public',
  // Its owner's way to edit or remove it (ADR 106): the platform's host only; the emailed
  // token is the only authority.
  'p.$slug_.manage.tsx': 'public',
  'personal-card.manage.tsx': 'public',
  // A lead's receipt link (ADR 050): the token is the only authority, on its tenant's host.
  'lead-data.tsx': 'public',
  // An emailed invitation opens for anyone; only its action (accept, decline) needs sign-in.
  'invitations.$token.tsx': 'public',
  'invitations.$token_.decline.tsx': 'public',
  'resources.upload.ts': 'no-loader',
  'resources.email-confirmation.ts': 'no-loader',
  // "Delete my account" (ADR 053): every signed-in role asks for its own; a GET goes to the profile.
  'account.delete.ts': 'no-loader',
  // "Keep my account" (ADR 081): a person's own scheduled deletion; a GET goes to the profile.
  'account.keep.ts': 'no-loader',
  'api-settings.tsx': 'any',
  // Download my data (ADR 052): every signed-in role's own export; the zip is a POST (it audits)
  // that answers 404 for anyone but its owner (tests/integration/data-export.test.ts).
  'account.data-export.tsx': 'any',
  'account.data-export[.]zip.ts': 'no-loader',
  // The Security area's two-factor page: every signed-in role manages its own.
  'account.two-factor.tsx': 'any',
  'contacts._index.tsx': 'any',
  // A contact's page (issue 41 point 12): every role's own contacts.
  'contacts.$contactId.tsx': 'any',
  'contacts.export[.]csv.ts': 'any',
  'contacts.export[.]vcf.ts': 'any',
  // "Scan a card" (issue 45 point 3, ADR 101): every role reads paper cards into its own contacts.
  'contacts.scan.tsx': 'any',
  // "My cards offline" (ADR 104): every role its own cards, and its own leads captured offline.
  'offline.tsx': 'any',
  'offline_.leads.ts': 'no-loader',
  // Analytics (ADR 082): every role its own cards; the wider scopes are checked by role inside
  // (tests/integration/card-analytics.test.ts).
  'dashboard.analytics.tsx': 'any',
  'dashboard.analytics[.]csv.ts': 'any',
  'onboarding.tsx': 'any',
  // /profile and any other profile path: every role, led to its own profile screen (ADR 078,
  // LEADS_TO_OWN below); a form posted there is still saved.
  'profile._index.tsx': 'any',
  'profile.$variant.tsx': 'any',
  'qrcode._index.tsx': 'any',
  'qrcode.$cardId.tsx': 'public',
  // The sidebar layout: any signed-in user; the pages under it guard their own roles.
  'dashboard.tsx': 'any',
  'dashboard.agency._index.tsx': ['agency_admin', 'agency_member'],
  'dashboard.agency.team.tsx': ['agency_admin', 'agency_member'],
  'dashboard.agency.users._index.tsx': ['agency_admin', 'agency_member'],
  'dashboard.agency.users.export[.]csv.ts': ['agency_admin', 'agency_member'],
  // Agency members read the history and reach; only the admin sends (ADR 046).
  'dashboard.agency.announcements.tsx': ['agency_admin', 'agency_member'],
  // Single sign-on (ADR 088): only the agency admin, who decides how the agency signs in.
  'dashboard.agency.sso.tsx': ['agency_admin'],
  // Agency members read the templates and which cards deviate; only the admin changes them (ADR 048).
  'dashboard.agency.templates.tsx': ['agency_admin', 'agency_member'],
  // Directory Sync (ADR 089): the agency admin only, for reading too (the log holds everyone's data).
  'dashboard.agency.scim.tsx': ['agency_admin'],
  // Webhooks (ADR 093): the agency admin only, for reading too (the log names what was sent).
  'dashboard.agency.webhooks.tsx': ['agency_admin'],
  // The API's keys and reference (ADR 092): the agency admin only, as Directory Sync.
  'dashboard.agency.api.tsx': ['agency_admin'],
  'dashboard.agency.api_.reference.tsx': ['agency_admin'],
  // On an agency host only its admin; a super admin reads it on the platform host
  // (tests/integration/audit-log.test.ts).
  'dashboard.audit-log.tsx': ['agency_admin'],
  'dashboard.end-user._index.tsx': ['end_user', 'super_admin_team'],
  'dashboard.end-user.digital-cards._index.tsx': CARD_OWNERS,
  'dashboard.end-user.digital-cards.edit.$cardId.tsx': CARD_OWNERS,
  'dashboard.end-user.digital-cards.signature.$cardId.tsx': CARD_OWNERS,
  'dashboard.end-user.team.tsx': ['end_user', 'super_admin_team'],
  'dashboard.super-admin._index.tsx': ['super_admin'],
  'dashboard.super-admin.agencies.tsx': 'platform-admin',
  'dashboard.super-admin.team.tsx': 'platform-admin',
  'dashboard.super-admin.users._index.tsx': 'platform-admin',
  'dashboard.super-admin.users.export[.]csv.ts': 'platform-admin',
  'dashboard.team-member._index.tsx': ['team_admin'],
  'dashboard.team-member.digital-cards._index.tsx': ['team_admin'],
  'dashboard.team-member.users.tsx': ['team_admin'],
  'dashboard.team-member.users[.]csv.ts': ['team_admin'],
  'dashboard.team-member.digital-cards.edit.$cardId.tsx': ['team_admin'],
  'dashboard.team-member.digital-cards.signature.$cardId.tsx': ['team_admin'],
  'profile.agency.tsx': ['agency_admin', 'agency_member'],
  'profile.end-user.tsx': ['end_user', 'super_admin_team'],
  'profile.super-admin.tsx': ['super_admin'],
  'profile.team-member.tsx': ['team_admin'],
  // Any other settings path: the end-user variant, the default for every role (spec §2.6).
  'settings.$variant.tsx': 'any',
  'settings.end-user.tsx': ['end_user', 'super_admin_team'],
  'dashboard.end-user.settings.tsx': ['end_user', 'super_admin_team'],
  'settings.team-member.tsx': ['team_admin'],
  'dashboard.team-member.settings.tsx': ['team_admin'],
  'settings.agency.tsx': ['agency_admin', 'agency_member'],
  'dashboard.agency.settings.tsx': ['agency_admin', 'agency_member'],
  'dashboard.agency.branding.tsx': ['agency_admin', 'agency_member'],
  // The tenant's own favicon (as ICO), like its pages' other public assets.
  'favicon[.]ico.ts': 'public',
  // The host's web app manifest and its icons (ADR 024): for anyone adding it to a home screen.
  'manifest[.]webmanifest.ts': 'public',
  // The price list and the privacy notice (ADR 087): the host's configuration, nobody's rows.
  'pricing.tsx': 'public',
  'privacy.tsx': 'public',
  // The accessibility statement (ADR 100): the suite's facts and the host's contact.
  'accessibility.tsx': 'public',
  'icons.$file.ts': 'public',
  // System Settings answer on the platform's host only: on A's (an agency's) host, nobody.
  'settings.super-admin.tsx': 'platform-admin',
  'dashboard.super-admin.settings.tsx': 'platform-admin',
}

// Route modules exporting an action (own or re-exported), read from their source.
const ACTION_ROUTES = readdirSync('app/routes').filter((file) =>
  /export\s+(async\s+function\s+action\b|const\s+action\b|\{[^}]*\baction\b)/.test(
    readFileSync(`app/routes/${file}`, 'utf8'),
  ),
)

// Roles that may open a page but not post to it (agency members read the agency's settings).
const READ_ONLY: Record<string, Role[]> = {
  'settings.agency.tsx': ['agency_member'],
  'dashboard.agency.settings.tsx': ['agency_member'],
  'dashboard.agency.team.tsx': ['agency_member'],
  'dashboard.agency.users._index.tsx': ['agency_member'],
  'dashboard.agency.announcements.tsx': ['agency_member'],
  'dashboard.agency.templates.tsx': ['agency_member'],
  'dashboard.agency.branding.tsx': ['agency_member'],
}

// Public pages whose action still needs a signed-in user (of any role).
const SIGNED_IN_ACTIONS = ['invitations.$token.tsx', 'invitations.$token_.decline.tsx']

test('every route module is in the matrices', () => {
  const files = readdirSync('app/routes').sort()
  expect(files).toEqual(Object.keys(ACCESS).sort())
})

let tenantA: Awaited<ReturnType<typeof makeBrandedOrganization>>
let tenantB: Awaited<ReturnType<typeof makeBrandedOrganization>>
let hostA: string
let hostB: string
let cardB: { id: string }
/** A contact of B's owner, which A's Personal switch names (ADR 049). */
let contactIdB = ''
/** B's SAML identity provider, which A's SAML routes name (ADR 090). */
let samlProviderB = ''
/** B's owner's passkey, which A's forms name (ADR 045, Passkeys). */
let passkeyB: { id: string }
let intruderCookie: string
/** A second session of the intruder's, for the sign-out attempt (which ends the session it gets). */
let logoutCookie: string
let intruderEmail: string
/** The team A's end user (the first role of the team page) administers. */
let teamOfA: { id: string }
const roleCookies = new Map<Role, { cookie: string; cardId: string; contactId: string }>()

beforeAll(async () => {
  tenantA = await makeBrandedOrganization({ primaryColor: '#111111' })
  tenantB = await makeBrandedOrganization({ primaryColor: '#222222' })
  hostA = `${tenantA.organization.slug}.localhost`
  hostB = `${tenantB.organization.slug}.localhost`
  for (const role of ALL_ROLES) {
    const user = await makeUser(tenantA.organization.id, { role })
    const card = await makeCard(tenantA.organization.id, user.id)
    // A contact of the role's own, so a contact's page answers 200 too.
    const added = await withTenant(tenantA.organization.id, (tx) =>
      addContact(tx, tenantA.organization.id, user.id, { fullName: `Contact of ${role}` }),
    )
    if (added.status !== 'created') throw new Error(`no contact for ${role}`)
    roleCookies.set(role, {
      cookie: await sessionCookieFor(tenantA.organization.id, user.id),
      cardId: card.id,
      contactId: added.contact.id,
    })
  }
  const ownerB = await makeUser(tenantB.organization.id, { firstName: 'Bea', lastName: 'Bee' })
  cardB = await makeCard(tenantB.organization.id, ownerB.id, { firstName: 'Bea', lastName: 'Bee' })
  const addedB = await withTenant(tenantB.organization.id, (tx) =>
    addContact(tx, tenantB.organization.id, ownerB.id, { fullName: 'Bea Contact' }),
  )
  if (addedB.status !== 'created') throw new Error("B's contact not added")
  contactIdB = addedB.contact.id
  samlProviderB = (
    await insertSamlProvider(getDb(), tenantB.organization.id, {
      displayName: `IdP ${MARK}`,
      samlEntityId: `https://idp-${MARK}.example.test/metadata`,
      samlSsoUrl: `https://idp-${MARK}.example.test/sso`,
      samlCertificates: ['MIIB'],
      samlMetadataUrl: null,
      jitRole: 'end_user',
      enabled: true,
    })
  ).id
  const storedPasskeyB = await withTenant(tenantB.organization.id, (tx) =>
    insertPasskey(tx, tenantB.organization.id, ownerB.id, {
      credentialId: `credential-b-${tenantB.organization.id}`,
      publicKey: Buffer.from([1, 2, 3]),
      counter: 0,
      transports: [],
      name: 'Bea key',
    }),
  )
  if (!storedPasskeyB) throw new Error('no passkey in B')
  passkeyB = storedPasskeyB
  const intruder = await makeUser(tenantA.organization.id, { role: 'end_user' })
  intruderCookie = await sessionCookieFor(tenantA.organization.id, intruder.id)
  intruderEmail = intruder.email
  logoutCookie = await sessionCookieFor(tenantA.organization.id, intruder.id)
  // A's end user has a team of their own: the team page has a real team to fall back to.
  const endUserOfA = await getDb()
    .select()
    .from(users)
    .where(and(eq(users.organizationId, tenantA.organization.id), eq(users.role, 'end_user')))
  const teamAdminOfA = endUserOfA.find((user) => user.id !== intruder.id)
  if (!teamAdminOfA) throw new Error('no end user in A')
  teamOfA = await withTenant(tenantA.organization.id, async (tx) => {
    await setUserPlan(tx, tenantA.organization.id, teamAdminOfA.id, 'free', 'team_basic')
    return createTeamWithAdmin(tx, tenantA.organization.id, teamAdminOfA.id, {
      name: 'Team of A',
      description: '',
    })
  })
})

// Layout routes answer only for the pages under them; each is requested at one of those.
const LAYOUT_PAGES: Record<string, string> = { 'dashboard.tsx': '/dashboard/end-user' }

function paramsFor(
  file: string,
  cardId: string,
  contactId = cardId,
): { path: string; params: Record<string, string> } {
  const layoutPage = LAYOUT_PAGES[file]
  if (layoutPage) return { path: layoutPage, params: {} }
  const path =
    `/${file
      .replace(/\.(tsx|ts)$/, '')
      .replace('_index', '')
      .replace('$contactId', contactId)
      .replace('card_.', 'card.')
      .replace('[.]', '.')
      .replaceAll('.', '/')
      .replace(/\$cardId|\$ref|\$slug/, cardId)
      .replace('$file', imageFileFor(file))
      .replace(/\$token_?/, linkToken(cardId))
      .replace(/\/qr\/(png|svg)$/, '/qr.$1')
      .replace(/\/pass\/pkpass$/, '/pass.pkpass')
      .replace(/\/background\/png$/, '/background.png')
      .replace(/\/signature\/(html|txt)$/, '/signature.$1')
      .replace(/\/export\/(csv|vcf)$/, '/export.$1')
      .replace(/\/users\/csv$/, '/users.csv')
      .replace(/\/analytics\/csv$/, '/analytics.csv')
      .replace('$linkId', cardId)
      .replace('$providerId', cardId)}`.replace(/\/+$/, '') || '/'
  return {
    path: path.replace('/$', '/nothing-here'),
    params: {
      cardId,
      contactId,
      ref: cardId,
      linkId: cardId,
      providerId: cardId,
      slug: cardId,
      token: linkToken(cardId),
      file: imageFileFor(file),
      '*': 'nothing-here',
    },
  }
}

/**
 * An image file name of the right shape for the route (an icon, or a card's preview), whose
 * hash is not the current one: the lookups run, and a found card or tenant answers a redirect.
 */
const imageFileFor = (file: string) =>
  file.startsWith('icons.') ? `any-192-${'0'.repeat(20)}.png` : `${'0'.repeat(20)}.png`

/** A link token as given, or one of the right shape that names nothing (so lookups run). */
const linkToken = (ref: string) => (/^[a-z2-7]{52}$/.test(ref) ? ref : 'a'.repeat(52))

/** Routes whose page, for every signed-in role, is a redirect to the role's own (ADR 078). */
const LEADS_TO_OWN: Record<string, (role: Role) => string> = {
  'profile._index.tsx': (role) => rolePaths(role).profile,
  'profile.$variant.tsx': (role) => rolePaths(role).profile,
}

describe('role matrix: protected routes × roles', () => {
  const protectedRoutes = Object.entries(ACCESS).filter(
    ([, access]) => access === 'any' || access === 'platform-admin' || Array.isArray(access),
  )
  for (const [file, access] of protectedRoutes) {
    test(`${file}: signed out is sent to sign in`, async () => {
      const mod = await load(file)
      const { path, params } = paramsFor(file, '00000000-0000-4000-8000-000000000000')
      const response = await settle(async () =>
        mod.loader?.({ request: requestFor(hostA, path), context: contextFor(hostA), params }),
      )
      expect(response).toHaveRedirect(/^\/auth\/login\?redirectTo=/)
    })
    for (const role of ALL_ROLES) {
      const allowed = access === 'any' || (Array.isArray(access) && access.includes(role))
      const own = LEADS_TO_OWN[file]
      test(`${file} as ${role} → ${own ? own(role) : allowed ? '200' : '403'}`, async () => {
        const mod = await load(file)
        const { cookie, cardId, contactId } = roleCookies.get(role) as {
          cookie: string
          cardId: string
          contactId: string
        }
        const { path, params } = paramsFor(file, cardId, contactId)
        const response = await settle(async () =>
          mod.loader?.({
            request: requestFor(hostA, path, { headers: { Cookie: cookie } }),
            context: contextFor(hostA),
            params,
          }),
        )
        if (own) {
          expect(response).toHaveRedirect(own(role))
        } else if (allowed) {
          // The own card of the role exists, so edit and share pages answer 200 too.
          expect(response.status).toBe(200)
        } else {
          expect(response.status).toBe(403)
        }
      })
    }
  }
})

describe('role matrix: protected actions × roles', () => {
  // An empty form: the guard answers before any validation, so the cell shows who may post.
  const guarded = Object.entries(ACCESS).filter(
    ([file, access]) =>
      access === 'any' ||
      access === 'no-loader' ||
      access === 'platform-admin' ||
      Array.isArray(access) ||
      SIGNED_IN_ACTIONS.includes(file),
  )
  for (const [file, access] of guarded.filter(([file]) => ACTION_ROUTES.includes(file))) {
    test(`${file}: posting as each role`, async () => {
      const mod = await load(file)
      const { path, params } = paramsFor(file, '00000000-0000-4000-8000-000000000000')
      const post = async (cookie?: string, cardId?: string) => {
        const own = cardId ? paramsFor(file, cardId) : { path, params }
        return answer(() =>
          mod.action?.({
            request: formRequest(hostA, own.path, {}, cookie),
            context: contextFor(hostA),
            params: own.params,
          }),
        )
      }
      const signedOut = await post()
      expect(signedOut.status, `${file} signed out`).toBe(302)
      expect(signedOut.location ?? '').toMatch(/^\/auth\/login/)
      for (const role of ALL_ROLES) {
        const allowed =
          access !== 'platform-admin' &&
          (!Array.isArray(access) || access.includes(role)) &&
          !READ_ONLY[file]?.includes(role)
        const { cookie, cardId } = roleCookies.get(role) as { cookie: string; cardId: string }
        const got = await post(cookie, cardId)
        const cell = `${file} as ${role} (${got.status} ${got.location ?? ''})`
        if (allowed) {
          expect(got.status, cell).not.toBe(403)
          expect(got.status, cell).toBeLessThan(500)
          expect(got.location ?? '', cell).not.toMatch(/^\/auth\/login/)
        } else {
          expect(got.status, cell).toBe(403)
        }
      }
    })
  }
})

describe('no GET changes state', () => {
  // Opening a card page counts a view (spec: card analytics), and its vCard or a link a save or a
  // tap (ADR 082): those tables are the exceptions.
  test('every loader, for every role that may open it and signed out, writes nothing', async () => {
    const before = await databaseChecksum({ exclude: ['card_views', 'card_event_hours'] })
    const visits: string[] = []
    for (const [file, access] of Object.entries(ACCESS)) {
      const mod = await load(file)
      if (!mod.loader) continue
      const roles = Array.isArray(access) ? access : ALL_ROLES
      for (const role of [undefined, ...roles]) {
        const own = role ? roleCookies.get(role) : undefined
        const { path, params } = paramsFor(
          file,
          own?.cardId ?? '00000000-0000-4000-8000-000000000000',
        )
        const headers: Record<string, string> = own ? { Cookie: own.cookie } : {}
        // Public loaders may return plain data (a 200) rather than a Response.
        const answer = await Promise.resolve(
          mod.loader?.({
            request: requestFor(hostA, path, { headers }),
            context: contextFor(hostA),
            params,
          }),
        ).catch((thrown: unknown) => {
          if (thrown instanceof Response) return thrown
          throw thrown
        })
        const status = answer instanceof Response ? answer.status : 200
        expect(status, `${file} as ${role ?? 'signed out'}`).toBeLessThan(500)
        visits.push(`${file} as ${role ?? 'signed out'}`)
      }
    }
    expect(visits.length).toBeGreaterThan(Object.keys(ACCESS).length)
    expect(await databaseChecksum({ exclude: ['card_views', 'card_event_hours'] })).toEqual(before)
  })
})

// How each route module can name one of tenant B's rows. Every route module is listed: a new
// route fails 'every route module is in the matrices' until it says how it is reached.
type Reference =
  | 'card'
  | 'media'
  | 'reset-token'
  | 'confirmation-token'
  | 'unsubscribe-token'
  | 'team'
  | 'invitation-token'
  | 'lead-data-token'
  | 'follow-confirm-token'
  | 'follow-stop-token'
  | 'personal-card-claim-token'
  | 'contact'
  | 'sso-provider'
  | 'none'
const REFERENCES: Record<string, Reference> = {
  '$.tsx': 'none',
  '_index.tsx': 'none',
  'api.health-check.ts': 'none',
  'api.health.live.ts': 'none',
  'api.health.ready.ts': 'none',
  'api.domains.allowed.ts': 'none',
  'api.stripe.webhook.ts': 'none',
  'auth.confirm-email.tsx': 'confirmation-token',
  'auth.forgot-password.tsx': 'none',
  'auth.login.tsx': 'none',
  'auth.sso._index.tsx': 'none',
  'auth.sso.callback.tsx': 'none',
  'auth.logout.ts': 'none',
  'auth.register.tsx': 'none',
  'auth.reset-password.tsx': 'reset-token',
  'auth.two-factor.tsx': 'none',
  'auth.new-password.tsx': 'none',
  'auth.sso.saml.$providerId.metadata.tsx': 'sso-provider',
  // Its loader only sends a GET to the sign-in page; its action names the provider (below).
  'auth.sso.saml.$providerId.acs.ts': 'none',
  'account.two-factor.tsx': 'none',
  'account.delete.ts': 'none',
  'account.keep.ts': 'none',
  'c.$slug.tsx': 'card',
  'card.$ref.tsx': 'card',
  'card._index.tsx': 'none',
  'contact._index.tsx': 'none',
  'card_.$ref.background[.]png.ts': 'card',
  'card_.$ref.google-wallet.ts': 'card',
  'card_.$ref.signature[.]html.ts': 'card',
  'card_.$ref.signature[.]txt.ts': 'card',
  'card_.$ref.qr[.]png.ts': 'card',
  'card_.$ref.qr[.]svg.ts': 'card',
  'card_.$ref.vcard.ts': 'card',
  'card_.$ref.l.$linkId.ts': 'card',
  'card_.$ref.og.$file.ts': 'card',
  'card_.$ref.pass[.]pkpass.ts': 'card',
  // By a pass's serial and its token, on the pass's own tenant only (apple-wallet.test.ts).
  'wallet.apple.v1.$.ts': 'none',
  // By a user's or group's id, under the host's agency's token only (scim.test.ts).
  'scim.v2.$.ts': 'none',
  // By a card's, contact's, user's or team's id, under the host's agency's key only (api-rest.test.ts).
  'api.v1.$.ts': 'none',
  'contact.$ref.tsx': 'card',
  'media.$file.ts': 'media',
  'dev.outbox.tsx': 'none',
  'email.unsubscribe.tsx': 'unsubscribe-token',
  'lead-data.tsx': 'lead-data-token',
  'follow.confirm.tsx': 'follow-confirm-token',
  'follow.unsubscribe.tsx': 'follow-stop-token',
  'personal-card.claim.tsx': 'personal-card-claim-token',
  // A personal card is a row of the platform organization, never of an agency (ADR 103).
  'p.$slug.tsx': 'none',
  'p.$slug_.manage.tsx': 'none',
  'personal-card.manage.tsx': 'none',
  'invitations.$token.tsx': 'invitation-token',
  'invitations.$token_.decline.tsx': 'invitation-token',
  'resources.upload.ts': 'none',
  'resources.email-confirmation.ts': 'none',
  'api-settings.tsx': 'none',
  'account.data-export.tsx': 'none',
  'account.data-export[.]zip.ts': 'none',
  'contacts._index.tsx': 'none',
  'contacts.$contactId.tsx': 'contact',
  'contacts.export[.]csv.ts': 'none',
  'contacts.export[.]vcf.ts': 'none',
  // A contact of the user's own, made from what they typed: it names no row.
  'contacts.scan.tsx': 'none',
  // The signed-in person's own cards; a lead made from what they typed: no row named.
  'offline.tsx': 'none',
  'offline_.leads.ts': 'none',
  'onboarding.tsx': 'none',
  'profile._index.tsx': 'none',
  'qrcode._index.tsx': 'none',
  'qrcode.$cardId.tsx': 'card',
  'dashboard.tsx': 'none',
  'dashboard.agency._index.tsx': 'none',
  'dashboard.agency.team.tsx': 'none',
  'dashboard.agency.users._index.tsx': 'none',
  'dashboard.agency.announcements.tsx': 'none',
  // Its providers and domains are named only in its forms: the write attempts below.
  'dashboard.agency.sso.tsx': 'none',
  'dashboard.agency.templates.tsx': 'none',
  // Its forms name a token by id: B's is not found (the write attempts below).
  'dashboard.agency.scim.tsx': 'none',
  // Its forms name an endpoint or a delivery by id: B's are not found (the write attempts below).
  'dashboard.agency.webhooks.tsx': 'none',
  // Its form names a key by id: B's is not found (the write attempt below).
  'dashboard.agency.api.tsx': 'none',
  'dashboard.agency.api_.reference.tsx': 'none',
  'dashboard.agency.users.export[.]csv.ts': 'none',
  'dashboard.audit-log.tsx': 'none',
  'dashboard.analytics.tsx': 'none',
  'dashboard.analytics[.]csv.ts': 'none',
  'dashboard.end-user._index.tsx': 'none',
  'dashboard.end-user.digital-cards._index.tsx': 'none',
  'dashboard.end-user.digital-cards.edit.$cardId.tsx': 'card',
  'dashboard.end-user.team.tsx': 'team',
  'dashboard.super-admin._index.tsx': 'none',
  'dashboard.super-admin.agencies.tsx': 'none',
  'dashboard.super-admin.team.tsx': 'none',
  'dashboard.super-admin.users._index.tsx': 'none',
  'dashboard.super-admin.users.export[.]csv.ts': 'none',
  'dashboard.team-member._index.tsx': 'none',
  'dashboard.team-member.digital-cards._index.tsx': 'none',
  'dashboard.team-member.users.tsx': 'none',
  'dashboard.team-member.users[.]csv.ts': 'none',
  'dashboard.team-member.digital-cards.edit.$cardId.tsx': 'card',
  'dashboard.end-user.digital-cards.signature.$cardId.tsx': 'card',
  'dashboard.team-member.digital-cards.signature.$cardId.tsx': 'card',
  'profile.$variant.tsx': 'none',
  'profile.agency.tsx': 'none',
  'profile.end-user.tsx': 'none',
  'profile.super-admin.tsx': 'none',
  'profile.team-member.tsx': 'none',
  'settings.$variant.tsx': 'none',
  'settings.end-user.tsx': 'none',
  'dashboard.end-user.settings.tsx': 'none',
  'settings.team-member.tsx': 'none',
  'dashboard.team-member.settings.tsx': 'none',
  'settings.agency.tsx': 'none',
  'dashboard.agency.settings.tsx': 'none',
  'dashboard.agency.branding.tsx': 'none',
  'favicon[.]ico.ts': 'none',
  'manifest[.]webmanifest.ts': 'none',
  'pricing.tsx': 'none',
  'privacy.tsx': 'none',
  'accessibility.tsx': 'none',
  'icons.$file.ts': 'none',
  'settings.super-admin.tsx': 'none',
  'dashboard.super-admin.settings.tsx': 'none',
}

test('every route module says how it names tenant rows', () => {
  expect(Object.keys(REFERENCES).sort()).toEqual(readdirSync('app/routes').sort())
})

/** A cookie of tenant A whose role may open the route, so the guard lets the request through. */
function cookieOfAFor(file: string) {
  const access = ACCESS[file] === 'platform-admin' ? ['super_admin'] : ACCESS[file]
  if (Array.isArray(access))
    return (roleCookies.get((access[0] ?? 'super_admin') as Role) as { cookie: string }).cookie
  return intruderCookie
}

/** Strings only tenant B's rows hold; none may reach a response on A's host. */
const MARK = 'zqxb'
let resetTokenB: string
let confirmationTokenB: string
let unsubscribeTokenB: string
/** The one-click unsubscribe of B's owner from B's announcements (ADR 046). */
let marketingTokenB: string
let invitationTokenB: string
/** The receipt link of B's lead, who consented on B's card (ADR 050). */
let leadDataTokenB: string
/** B's visitor's "Keep me updated" confirmation link, and a B follower's stop link (ADR 102). */
let followConfirmTokenB: string
let followStopTokenB: string
/** The claim link of a personal card offered to B's departing person (ADR 103). */
let claimTokenB: string
let teamB: { id: string; name: string }
let memberB: { id: string }
let memberUserIdB: string
/** A team member (team_admin) of B: the agency's Team Members screen manages that role. */
let teamAdminIdB: string
let invitationB: { id: string }
/** B's team's card template, which B's card follows (ADR 048). */
let templateB: { id: string }
/** B's identity provider and its claimed email domain (ADR 088). */
let ssoProviderB: { id: string }
let ssoDomainB: { id: string }
/** B's owner's ready data export (ADR 052). */
let dataExportB: { id: string }
/** B's member's pending plan request (ADR 079). */
let planRequestB: { id: string }
/** B's API key (ADR 092), which A's API screen names. */
let apiKeyIdB = ''
/** B's SCIM token (ADR 089), which A's Directory Sync forms name. */
let scimTokenIdB = ''
/** B's webhook endpoint and a delivery to it (ADR 093), which A's Webhooks forms name. */
let webhookB = { endpointId: '', deliveryId: '' }
let markersOfB: string[]

async function seedTenantB() {
  const host = hostB
  const ownerEmail = `owner-${MARK}@example.test`
  await getDb()
    .update(users)
    .set({ email: ownerEmail })
    .where(eq(users.organizationId, tenantB.organization.id))
  // A lead (who consented to B's text, so it has a receipt link) and a reset email, so B has
  // contacts and an outbox to leak.
  const consent = await withTenant(tenantB.organization.id, (tx) =>
    insertConsentText(tx, tenantB.organization.id, `Consent ${MARK}`),
  )
  if (!consent) throw new Error('no consent text of B')
  const card = await load('card.$ref.tsx')
  const lead = await settle(async () =>
    card.action?.({
      request: formRequest(host, `/card/${cardB.id}`, {
        intent: 'lead',
        fullName: `Lead ${MARK}`,
        email: `lead-${MARK}@example.test`,
        company: `Company ${MARK}`,
        consentTextId: consent.id,
        consent: 'on',
      }),
      context: contextFor(host, '198.51.100.7'),
      params: { ref: cardB.id },
    }),
  )
  expect(lead.status).toBeLessThan(400)
  const forgot = await load('auth.forgot-password.tsx')
  await settle(async () =>
    forgot.action?.({
      request: formRequest(host, '/auth/forgot-password', { email: ownerEmail }),
      context: contextFor(host, '198.51.100.8'),
      params: {},
    }),
  )
  const emails = asDelivered(
    await getDb()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.organizationId, tenantB.organization.id)),
  )
  const found = (pattern: RegExp) =>
    emails.map((email) => pattern.exec(email.text)?.[1]).find(Boolean) ?? ''
  resetTokenB = found(/reset-password\?token=([a-z2-7]+)/)
  expect(resetTokenB).not.toBe('')
  leadDataTokenB = found(/lead-data\?token=([a-z2-7]+)/)
  expect(leadDataTokenB).not.toBe('')
  // An unconfirmed owner with a confirmation link of B's, which A's host must not honour.
  await getDb()
    .update(users)
    .set({ emailConfirmedAt: null })
    .where(eq(users.organizationId, tenantB.organization.id))
  const resolution = await resolveTenant(host)
  if (resolution.status !== 'found') throw new Error('tenant B not found')
  const [ownerB] = await getDb()
    .select()
    .from(users)
    .where(eq(users.organizationId, tenantB.organization.id))
  if (!ownerB) throw new Error('no owner in B')
  await sendConfirmationEmail(resolution.tenant, ownerB)
  const [confirmation] = asDelivered(
    await getDb()
      .select()
      .from(emailOutbox)
      .where(
        and(
          eq(emailOutbox.organizationId, tenantB.organization.id),
          like(emailOutbox.subject, 'Confirm your email%'),
        ),
      ),
  )
  confirmationTokenB = /confirm-email\?token=([a-z2-7]+)/.exec(confirmation?.text ?? '')?.[1] ?? ''
  expect(confirmationTokenB).not.toBe('')
  // A visitor of B's card waiting to confirm, and a follower of B's with their stop link.
  followConfirmTokenB = newLinkToken()
  const followerB = await withTenant(tenantB.organization.id, async (tx) => {
    await askToFollow(
      tx,
      tenantB.organization.id,
      cardB.id,
      `fan-${MARK}@example.test`,
      'f'.repeat(64),
    )
    const confirmed = await confirmFollower(tx, tenantB.organization.id, 'f'.repeat(64))
    await askToFollow(
      tx,
      tenantB.organization.id,
      cardB.id,
      `new-${MARK}@example.test`,
      hashToken(followConfirmTokenB),
    )
    return confirmed
  })
  if (!followerB) throw new Error('no follower of B')
  followStopTokenB = createFollowerStopToken(tenantB.organization.id, followerB.id)
  // B's departing person, offered a personal card at a hand-over (ADR 103).
  const departingB = await makeUser(tenantB.organization.id, { firstName: 'Dee', lastName: 'Bee' })
  claimTokenB = newLinkToken()
  await withTenant(tenantB.organization.id, (tx) =>
    offerPersonalCard(tx, tenantB.organization.id, departingB.id, hashToken(claimTokenB), null),
  )
  // The lead emailed B's owner, with a one-click unsubscribe link for B.
  unsubscribeTokenB = found(/email\/unsubscribe\?token=([A-Za-z0-9_.-]+)/)
  expect(unsubscribeTokenB).not.toBe('')
  marketingTokenB = createUnsubscribeToken({
    organizationId: tenantB.organization.id,
    userId: ownerB.id,
    purpose: 'marketing',
  })
  // An announcement B sent: its subject must never show on A's Announcements screen.
  await withTenant(tenantB.organization.id, (tx) =>
    insertAnnouncement(tx, tenantB.organization.id, {
      sentByUserId: ownerB.id,
      subject: `Announcement ${MARK}`,
      body: `Body ${MARK}`,
    }),
  )
  // A team of B's owner with a member and a pending invitation. The invitation is addressed to
  // A's intruder's email: only the tenant, never the address, may keep it out of A's reach.
  const memberUserB = await makeUser(tenantB.organization.id, {
    email: `member-${MARK}@example.test`,
  })
  memberUserIdB = memberUserB.id
  const pendingB = await withTenant(tenantB.organization.id, (tx) =>
    insertPlanRequest(tx, tenantB.organization.id, memberUserB.id, 'team_pro'),
  )
  if (!pendingB) throw new Error("B's plan request not stored")
  planRequestB = pendingB
  apiKeyIdB = (
    await withTenant(tenantB.organization.id, (tx) =>
      insertApiKey(tx, tenantB.organization.id, {
        name: `Key ${MARK}`,
        scopes: ['cards:read'],
        keyHash: `api-${MARK}`,
        lastFour: 'bbbb',
        expiresAt: null,
        createdByUserId: ownerB.id,
      }),
    )
  ).id
  scimTokenIdB = (
    await withTenant(tenantB.organization.id, (tx) =>
      insertScimToken(tx, tenantB.organization.id, {
        name: `Token ${MARK}`,
        tokenHash: `scim-${MARK}`,
        lastFour: 'bbbb',
        createdByUserId: ownerB.id,
      }),
    )
  ).id
  webhookB = await withTenant(tenantB.organization.id, async (tx) => {
    const organizationId = tenantB.organization.id
    const endpoint = await insertWebhookEndpoint(tx, organizationId, {
      url: `https://hooks.example.com/${MARK}`,
      description: '',
      eventTypes: ['lead.created'],
      secretSealed: sealAtRest('whsec_route-matrix'),
      createdByUserId: ownerB.id,
    })
    const message = await insertWebhookMessage(tx, organizationId, {
      eventType: 'lead.created',
      payload: { type: 'lead.created', data: {} },
    })
    if (!message) throw new Error("B's webhook message not stored")
    const delivery = await insertWebhookDelivery(tx, organizationId, {
      endpointId: endpoint.id,
      messageId: message.id,
      nextAttemptAt: new Date(Date.now() + 86_400_000),
    })
    return { endpointId: endpoint.id, deliveryId: delivery.id }
  })
  teamAdminIdB = (
    await makeUser(tenantB.organization.id, {
      role: 'team_admin',
      email: `team-admin-${MARK}@example.test`,
    })
  ).id
  invitationTokenB = newLinkToken()
  await withTenant(tenantB.organization.id, async (tx) => {
    const org = tenantB.organization.id
    await setUserPlan(tx, org, ownerB.id, ownerB.plan, 'team_pro')
    teamB = await createTeamWithAdmin(tx, org, ownerB.id, {
      name: `Team ${MARK}`,
      description: `About ${MARK}`,
    })
    const member = await addTeamMember(tx, org, teamB.id, memberUserB.id, 'member')
    // B's member's seat handed over to B's owner (ADR 049): A's Clear must not take it away.
    await setSeatSuccessor(tx, org, memberUserB.id, ownerB.id, null)
    if (!member) throw new Error('member of B not added')
    memberB = member
    invitationB = await insertInvitation(tx, org, {
      teamId: teamB.id,
      email: intruderEmail,
      role: 'manager',
      tokenHash: hashToken(invitationTokenB),
      invitedByUserId: ownerB.id,
    })
    templateB = await insertTemplate(tx, org, {
      name: `Template ${MARK}`,
      teamId: teamB.id,
      company: `Company ${MARK}`,
      modes: { company: 'locked' },
    })
    await setCardsTemplate(tx, org, [cardB.id], templateB.id)
    ssoProviderB = await insertOidcProvider(tx, org, {
      displayName: `IdP ${MARK}`,
      issuerUrl: 'https://idp.b.test',
      clientId: `client-${MARK}`,
      clientSecretSealed: 'v1.not.a.secret',
      jitRole: 'end_user',
      enabled: true,
    })
    const claimed = await insertSsoDomain(tx, org, {
      providerId: ssoProviderB.id,
      domain: `${MARK}.b.test`,
      token: `token${MARK}`,
    })
    if (!claimed) throw new Error('no sso domain of B')
    ssoDomainB = claimed
    const exported = await insertDataExport(tx, org, ownerB.id)
    if (!exported) throw new Error('no data export of B')
    await startDataExport(tx, org, exported.id)
    await finishDataExport(
      tx,
      org,
      exported.id,
      new Uint8Array([80, 75, 5, 6]),
      new Date(Date.now() + 86_400_000),
    )
    dataExportB = exported
  })
  markersOfB = [
    MARK,
    cardB.id,
    contactIdB,
    samlProviderB,
    tenantB.organization.id,
    tenantB.organization.name,
    tenantB.logo.hash,
    resetTokenB,
    confirmationTokenB,
    unsubscribeTokenB,
    marketingTokenB,
    teamB.id,
    teamB.name,
    memberB.id,
    memberUserB.id,
    invitationB.id,
    invitationTokenB,
    leadDataTokenB,
    followConfirmTokenB,
    followStopTokenB,
    claimTokenB,
    templateB.id,
    dataExportB.id,
    ssoProviderB.id,
    ssoDomainB.id,
  ]
}

function refsOfB(reference: Reference): { by: string; ref: string }[] {
  switch (reference) {
    case 'card':
      return [
        { by: 'id', ref: cardB.id },
        { by: 'slug', ref: 'bea-bee' },
        { by: 'name lookup', ref: 'BEA-Bee' },
      ]
    case 'media':
      return [{ by: 'file name', ref: `${tenantB.logo.hash}.png` }]
    case 'reset-token':
      return [{ by: 'token', ref: resetTokenB }]
    case 'confirmation-token':
      return [{ by: 'token', ref: confirmationTokenB }]
    case 'unsubscribe-token':
      return [{ by: 'token', ref: unsubscribeTokenB }]
    case 'team':
      return [{ by: 'id', ref: teamB.id }]
    case 'invitation-token':
      return [{ by: 'token', ref: invitationTokenB }]
    case 'lead-data-token':
      return [{ by: 'token', ref: leadDataTokenB }]
    case 'follow-confirm-token':
      return [{ by: 'token', ref: followConfirmTokenB }]
    case 'follow-stop-token':
      return [{ by: 'token', ref: followStopTokenB }]
    case 'personal-card-claim-token':
      return [{ by: 'token', ref: claimTokenB }]
    case 'contact':
      return [{ by: 'id', ref: contactIdB }]
    case 'sso-provider':
      return [{ by: 'id', ref: samlProviderB }]
    default:
      return [{ by: 'none', ref: '' }]
  }
}

function requestOf(file: string, reference: Reference, ref: string) {
  const { path, params } = paramsFor(file, ref || '00000000-0000-4000-8000-000000000000')
  if (reference === 'media') return { path: `/media/${ref}`, params: { file: ref } }
  if (
    reference === 'reset-token' ||
    reference === 'confirmation-token' ||
    reference === 'unsubscribe-token' ||
    reference === 'lead-data-token' ||
    reference === 'follow-confirm-token' ||
    reference === 'follow-stop-token' ||
    reference === 'personal-card-claim-token'
  ) {
    return { path: `${path}?token=${ref}`, params }
  }
  if (reference === 'team') return { path: `${path}?team=${ref}`, params }
  return { path, params }
}

async function answer(
  run: () => unknown,
): Promise<{ status: number; location: string | null; body: string }> {
  const result = await Promise.resolve()
    .then(run)
    .catch((thrown: unknown) => {
      if (thrown instanceof Response) return thrown
      throw thrown
    })
  if (!(result instanceof Response)) {
    return { status: 200, location: null, body: JSON.stringify(result ?? null) }
  }
  const type = result.headers.get('Content-Type') ?? ''
  const body = /json|text|csv|vcard|svg/.test(type) ? await result.text() : ''
  return { status: result.status, location: result.headers.get('Location'), body }
}

/** Rows of A (any table with an organization id) that mention one of B's ids. */
async function rowsOfAMentioningB() {
  const ids = [
    cardB.id,
    tenantB.organization.id,
    tenantB.logo.id,
    tenantB.favicon.id,
    teamB.id,
    memberB.id,
    invitationB.id,
  ]
  const tables = rowsOf<{ table_name: string }>(
    await getDb().execute(sql`
      select table_name from information_schema.columns
      where table_schema = 'public' and column_name = 'organization_id'
      order by table_name`),
  )
  const found: string[] = []
  for (const { table_name: table } of tables) {
    for (const id of ids) {
      const [row] = rowsOf<{ n: number }>(
        await getDb().execute(
          sql`select count(*)::int as n from ${sql.identifier(table)} t
              where t.organization_id = ${tenantA.organization.id} and t::text like ${`%${id}%`}`,
        ),
      )
      if ((row?.n ?? 0) > 0) found.push(`${table} mentions ${id}`)
    }
  }
  return found
}

describe('cross-tenant matrix: a user of A against B', () => {
  beforeAll(async () => {
    await seedTenantB()
    // Google Wallet on (a throwaway key), so its save link looks B's card up rather than
    // answering 404 for want of configuration.
    process.env.GOOGLE_WALLET_ISSUER_ID = TEST_ISSUER_ID
    process.env.GOOGLE_WALLET_KEY = makeServiceAccountKey('http://127.0.0.1:9/token').keyPath
    resetEnvForTests()
  })
  afterAll(() => {
    delete process.env.GOOGLE_WALLET_ISSUER_ID
    delete process.env.GOOGLE_WALLET_KEY
    resetEnvForTests()
  })

  // Reads on A's host: every route module with a loader, each of B's references.
  for (const [file, reference] of Object.entries(REFERENCES)) {
    if (ACCESS[file] === 'no-loader') continue
    test(`${file}: B's rows stay out of reach on A's host`, async () => {
      const mod = await load(file)
      for (const { by, ref } of refsOfB(reference)) {
        const { path, params } = requestOf(file, reference, ref)
        const got = await answer(() =>
          mod.loader?.({
            request: requestFor(hostA, path, { headers: { Cookie: cookieOfAFor(file) } }),
            context: contextFor(hostA),
            params,
          }),
        )
        const cell = `${file} by ${by} (${got.status})`
        if (reference === 'contact' || reference === 'sso-provider') {
          // B's contact (or SSO provider) is not found on A's host, as an unknown id is.
          expect(got.status, cell).toBe(404)
        } else if (reference === 'card' || reference === 'media') {
          // Not found, or the owner pages' "not found" redirect back to the list.
          if (got.status === 302) expect(got.location ?? '', cell).not.toContain(ref)
          else expect(got.status, cell).toBe(404)
        } else if (reference === 'reset-token') {
          // The page renders "Invalid Reset Link" for a token it does not hand back.
          expect(got.status, cell).toBeLessThan(500)
          expect(JSON.parse(got.body), cell).toEqual({ token: null })
        } else if (reference === 'confirmation-token') {
          // The page renders the refusal for a token it does not hand back.
          expect(got.status, cell).toBeLessThan(500)
          expect(JSON.parse(got.body).token, cell).toBeNull()
        } else if (reference === 'unsubscribe-token') {
          // B's genuine token is refused on A's host, the same as a forged one.
          expect(got.status, cell).toBe(400)
          expect(JSON.parse(got.body).status, cell).toBe('invalid')
        } else if (reference === 'follow-confirm-token') {
          // B's visitor's genuine link opens nothing on A's host, the same as a forged one.
          expect(got.status, cell).toBe(404)
          expect(JSON.parse(got.body).status, cell).toBe('invalid')
        } else if (reference === 'personal-card-claim-token') {
          // B's departing person's genuine link opens nothing on A's host, like a forged one.
          expect(got.status, cell).toBe(404)
          expect(JSON.parse(got.body).status, cell).toBe('invalid')
        } else if (reference === 'follow-stop-token') {
          // B's follower's genuine stop link is refused on A's host, the same as a forged one.
          expect(got.status, cell).toBe(400)
          expect(JSON.parse(got.body).status, cell).toBe('invalid')
        } else if (reference === 'lead-data-token') {
          // B's lead's genuine link opens nothing on A's host, the same as a forged one.
          expect(got.status, cell).toBe(404)
          expect(JSON.parse(got.body).status, cell).toBe('invalid')
        } else if (reference === 'team') {
          // B's team id is ignored: the page shows A's own team, as with no choice at all.
          expect(got.status, cell).toBe(200)
          expect(JSON.parse(got.body).selected?.id, cell).toBe(teamOfA.id)
        } else if (reference === 'invitation-token') {
          // B's genuine invitation is unknown on A's host, the same as a forged token.
          expect(got.status, cell).toBe(404)
          expect(JSON.parse(got.body), cell).toMatchObject({ state: 'invalid', token: null })
        } else {
          expect(got.status, cell).toBeLessThan(500)
        }
        for (const marker of markersOfB) {
          if (marker === ref) continue
          expect(got.body, `${cell} leaks ${marker}`).not.toContain(marker)
          // A redirect naming B's row (a card found by its slug, sent to its current address).
          expect(got.location ?? '', `${cell} leaks ${marker}`).not.toContain(marker)
        }
      }
    })
  }

  /** A Google Wallet save link's JWT carries its issue time: answers a second apart differ there. */
  function comparable(location: string | null) {
    const jwt = /^https:\/\/pay\.google\.com\/gp\/v\/save\/(.+)$/.exec(location ?? '')?.[1]
    if (!jwt) return location
    const { iat: _issuedAt, ...claims } = decodeJwt(jwt)
    return `save link: ${JSON.stringify(claims)}`
  }

  // Reads on B's host: A's session is not a session there, so it opens nothing a visitor
  // without any session could not.
  for (const [file, reference] of Object.entries(REFERENCES)) {
    if (ACCESS[file] === 'no-loader') continue
    test(`${file}: A's session counts for nothing on B's host`, async () => {
      const mod = await load(file)
      for (const { ref } of refsOfB(reference)) {
        const { path, params } = requestOf(file, reference, ref)
        const as = (cookie?: string) =>
          answer(() =>
            mod.loader?.({
              request: requestFor(hostB, path, { headers: cookie ? { Cookie: cookie } : {} }),
              context: contextFor(hostB),
              params,
            }),
          )
        const [withA, signedOut] = [await as(cookieOfAFor(file)), await as()]
        expect({ status: withA.status, location: comparable(withA.location) }, file).toEqual({
          status: signedOut.status,
          location: comparable(signedOut.location),
        })
      }
    })
  }

  test('every route module with an action has write attempts here', async () => {
    const withAction: string[] = []
    for (const file of Object.keys(REFERENCES)) {
      if ((await load(file)).action) withAction.push(file)
    }
    expect(withAction.sort()).toEqual([...ACTION_ROUTES].sort())
    expect(Object.keys(writeAttempts()).sort()).toEqual(withAction)
  })

  test("writes naming B's rows, from A on A's host and on B's host, change nothing of B's", async () => {
    // The reads above counted saves of B's cards on B's host (ADR 082), written by the event
    // batcher a moment later: written now, so none lands between the two checksums.
    await flushCardEvents()
    const before = await databaseChecksum({ organizationId: tenantB.organization.id })
    let tried = 0
    for (const host of [hostA, hostB]) {
      for (const [file, attempts] of Object.entries(writeAttempts())) {
        const mod = await load(file)
        for (const { path, fields, params, onlyOnA, cookie } of attempts) {
          if (onlyOnA && host === hostB) continue
          const request = formRequest(host, path, fields, cookie ?? cookieOfAFor(file))
          const got = await answer(() =>
            mod.action?.({ request, context: contextFor(host, '192.0.2.77'), params }),
          )
          tried++
          expect(got.status, `${file} ${JSON.stringify(fields)} on ${host}`).toBeLessThan(500)
        }
      }
    }
    expect(tried).toBeGreaterThan(30)
    // Rate-limit counters are keyed by address and account, not owned by a tenant.
    expect(await databaseChecksum({ organizationId: tenantB.organization.id })).toEqual(before)
    expect(await rowsOfAMentioningB()).toEqual([])
  })
})

type WriteAttempt = {
  path: string
  fields: Record<string, string>
  params: Record<string, string>
  // Public forms of B's own site (sign-in, leads): on B's host they are B's visitors' forms.
  onlyOnA?: boolean
  /** The session sent, when not the one `cookieOfAFor` gives. */
  cookie?: string
}

/** For every route with an action: submissions that name B's rows in every field that can. */
function writeAttempts(): Record<string, WriteAttempt[]> {
  const b = {
    cardId: cardB.id,
    organizationId: tenantB.organization.id,
    mediaId: tenantB.logo.id,
    email: `owner-${MARK}@example.test`,
  }
  const injected = { organizationId: b.organizationId, userId: cardB.id, teamId: b.organizationId }
  const list = (area: string): WriteAttempt[] => [
    { path: area, fields: { intent: 'set-default', cardId: b.cardId }, params: {} },
    { path: area, fields: { intent: 'delete', cardId: b.cardId }, params: {} },
    { path: area, fields: { intent: 'create', method: 'duplicate', cardId: b.cardId }, params: {} },
  ]
  const edit = (area: string): WriteAttempt[] => [
    {
      path: `${area}/edit/${b.cardId}`,
      fields: {
        intent: 'details',
        title: 'x',
        firstName: 'x',
        lastName: 'x',
        videoUrl: 'https://youtu.be/dQw4w9WgXcQ',
        ...injected,
      },
      params: { cardId: b.cardId },
    },
    {
      path: `${area}/edit/${b.cardId}`,
      fields: {
        intent: 'background',
        kind: 'image',
        backgroundMediaId: b.mediaId,
        mediaId: b.mediaId,
      },
      params: { cardId: b.cardId },
    },
    {
      path: `${area}/edit/${b.cardId}`,
      fields: {
        intent: 'visuals',
        logoMediaId: b.mediaId,
        profilePictureMediaId: b.mediaId,
        coverMediaId: b.mediaId,
      },
      params: { cardId: b.cardId },
    },
    // B's card's slug, or a new one for B's card: the card is not found for A.
    {
      path: `${area}/edit/${b.cardId}`,
      fields: { intent: 'short-link', slug: 'bea-bee' },
      params: { cardId: b.cardId },
    },
    {
      path: `${area}/edit/${b.cardId}`,
      fields: { intent: 'short-link', slug: 'taken-from-b' },
      params: { cardId: b.cardId },
    },
  ]
  const profile = (path: string): WriteAttempt[] => [
    {
      path,
      fields: {
        intent: 'profile',
        firstName: 'x',
        lastName: 'y',
        email: b.email,
        logoMediaId: b.mediaId,
        profilePictureMediaId: b.mediaId,
        ...injected,
      },
      params: {},
    },
    {
      path,
      fields: {
        intent: 'password',
        currentPassword: 'x',
        newPassword: 'new-secret-1',
        ...injected,
      },
      params: {},
    },
    // No card details form any more (issue 41 point 11): a card's details are the editor's,
    // whose attempts on B's card are above.
  ]
  const cards = '/dashboard/end-user/digital-cards'
  const agencyFormB = { name: 'Taken', ownerName: 'Taken', email: b.email, subscription: 'free' }
  const teamCards = '/dashboard/team-member/digital-cards'
  // Every intent of the team page, naming B's team, member and invitation; the member and
  // invitation also under A's own team, which A's end user administers.
  const teamPage = (fields: Record<string, string>): WriteAttempt => ({
    path: `/dashboard/end-user/team?team=${teamB.id}`,
    fields: { ...injected, ...fields },
    params: {},
  })
  const team = [
    teamPage({ intent: 'create-team', name: 'Team of A too', description: 'x' }),
    teamPage({ intent: 'update-team', teamId: teamB.id, name: 'Taken over', description: 'x' }),
    teamPage({ intent: 'delete-team', teamId: teamB.id }),
    teamPage({ intent: 'add-member', teamId: teamB.id, email: intruderEmail, role: 'admin' }),
    teamPage({ intent: 'add-member', teamId: teamB.id, email: `member-${MARK}@example.test` }),
    teamPage({ intent: 'change-role', teamId: teamB.id, memberId: memberB.id, role: 'admin' }),
    teamPage({ intent: 'change-role', teamId: teamOfA.id, memberId: memberB.id, role: 'viewer' }),
    teamPage({ intent: 'remove-member', teamId: teamB.id, memberId: memberB.id }),
    teamPage({ intent: 'remove-member', teamId: teamOfA.id, memberId: memberB.id }),
    teamPage({ intent: 'cancel-invitation', teamId: teamB.id, invitationId: invitationB.id }),
    teamPage({ intent: 'cancel-invitation', teamId: teamOfA.id, invitationId: invitationB.id }),
    teamPage({ intent: 'upgrade', plan: 'team_pro', userId: memberB.id }),
    // The poster's own request only (ADR 079): B's ids injected change nothing of B's.
    teamPage({ intent: 'request-plan', plan: 'team_pro', requestId: planRequestB.id }),
    teamPage({ intent: 'withdraw-plan-request', requestId: planRequestB.id }),
  ]
  // B's invitation is addressed to A's intruder: only the tenant keeps it from them.
  const invitation = (answer: 'accept' | 'decline'): WriteAttempt[] => [
    {
      path: `/invitations/${invitationTokenB}${answer === 'decline' ? '/decline' : ''}`,
      fields: { intent: answer, ...injected },
      params: { token: invitationTokenB },
    },
  ]
  // Every settings tab, with B's ids injected: the writes go to the poster's own rows only.
  const settings = (path: string, ...intents: Record<string, string>[]): WriteAttempt[] =>
    intents.map((fields) => ({ path, fields: { ...injected, ...fields }, params: {} }))
  const privacy = { intent: 'privacy', visibility: 'private' }
  const appearance = { intent: 'appearance', theme: 'dark', fontSize: 'large' }
  const agencyTabs: Record<string, string>[] = [
    { intent: 'team', defaultTeamRole: 'admin' },
    { intent: 'billing', billingEmail: b.email },
    // The Billing tab's buttons (ADR 051): the poster's own agency's checkout and portal only.
    { intent: 'upgrade' },
    { intent: 'billing-portal' },
  ]
  const systemTabs: Record<string, string>[] = [
    {
      intent: 'general',
      platformName: `Taken ${MARK}`,
      platformUrl: 'https://b.test',
      privacyPolicyUrl: 'https://b.test/privacy',
      supportEmail: b.email,
    },
    { intent: 'security', sessionTimeoutMinutes: '5' },
  ]
  return {
    // The CRM settings are the poster's own; B's ids injected change nothing of B's, and a retry
    // naming one of B's rows finds nothing.
    'api-settings.tsx': [
      {
        path: '/api-settings',
        fields: { intent: 'save', keepStoredKey: '0', ...injected },
        params: {},
      },
      { path: '/api-settings', fields: { intent: 'retry', contactId: b.cardId }, params: {} },
      // HubSpot's and Salesforce's forms (ADR 094), removing: the poster's own row only.
      {
        path: '/api-settings',
        fields: { intent: 'save-hubspot', keepStoredHubspotToken: '0', ...injected },
        params: {},
      },
      {
        path: '/api-settings',
        fields: { intent: 'save-salesforce', keepStoredSalesforceSecret: '0', ...injected },
        params: {},
      },
    ],
    'settings.$variant.tsx': settings('/settings/role', privacy, appearance),
    'settings.end-user.tsx': settings('/settings/end-user', privacy, appearance),
    'dashboard.end-user.settings.tsx': settings('/dashboard/end-user/settings', privacy),
    'settings.team-member.tsx': settings(
      '/settings/team-member',
      privacy,
      { intent: 'notifications' },
      // Team Member Basic's checkout and the portal: the poster's own billing only (ADR 051).
      { intent: 'upgrade' },
      { intent: 'billing-portal' },
      // Its request and withdrawal (ADR 079): the poster's own only.
      { intent: 'request-plan' },
      { intent: 'withdraw-plan-request' },
    ),
    'dashboard.team-member.settings.tsx': settings('/dashboard/team-member/settings', privacy),
    'settings.agency.tsx': settings('/settings/agency', ...agencyTabs),
    'dashboard.agency.settings.tsx': settings('/dashboard/agency/settings', ...agencyTabs),
    // B's images named as A's logo and favicon are refused; the domain check reads A's only.
    'dashboard.agency.branding.tsx': settings(
      '/dashboard/agency/branding',
      {
        intent: 'save',
        companyName: 'Agency A',
        primaryColor: '#123456',
        secondaryColor: '#654321',
        logoMediaId: b.mediaId,
        faviconMediaId: b.mediaId,
        // The links land in A's settings row only, whatever B's ids beside them say.
        privacyPolicyUrl: 'https://b.test/privacy',
        supportEmail: b.email,
      },
      { intent: 'verify-domain' },
      // The sending domain forms act on the signed-in agency's own row only (ADR 026).
      { intent: 'add-sending-domain', sendingDomain: 'mail.b.test', senderLocalPart: 'b' },
      { intent: 'check-sending-domain' },
      { intent: 'remove-sending-domain' },
      // A new version of A's own consent text only (ADR 050), whatever B's ids beside it say.
      { intent: 'save-consent', consentText: 'Consent text of A' },
    ),
    'settings.super-admin.tsx': settings('/settings/super-admin', ...systemTabs),
    'dashboard.super-admin.settings.tsx': settings(
      '/dashboard/super-admin/settings',
      ...systemTabs,
    ),
    '$.tsx': [{ path: '/nothing-here', fields: { cardId: b.cardId }, params: { '*': 'x' } }],
    // A device's registration naming B's card as a serial, without B's pass token.
    // An unsigned event naming B's account: refused before anything is read (ADR 051).
    'api.stripe.webhook.ts': [
      {
        path: '/api/stripe/webhook',
        fields: { type: 'customer.subscription.deleted', email: b.email },
        params: {},
      },
    ],
    // SCIM writes naming B's card owner, with A's session and no token: refused as 401.
    'scim.v2.$.ts': [
      {
        path: `/scim/v2/Users/${b.cardId}`,
        fields: { userName: b.email, active: 'false' },
        params: { '*': `Users/${b.cardId}` },
      },
    ],
    // REST API writes naming B's card, with A's session and no key: refused as 401.
    'api.v1.$.ts': [
      {
        path: `/api/v1/cards/${b.cardId}`,
        fields: { title: 'Taken' },
        params: { '*': `cards/${b.cardId}` },
      },
    ],
    'wallet.apple.v1.$.ts': [
      {
        path: `/wallet/apple/v1/devices/device-a/registrations/pass.any/${b.cardId}`,
        fields: { pushToken: 'abc123' },
        params: { '*': `devices/device-a/registrations/pass.any/${b.cardId}` },
      },
    ],
    // B's provider's ACS on A's host: not found, whatever the body.
    'auth.sso.saml.$providerId.acs.ts': [
      {
        path: `/auth/sso/saml/${samlProviderB}/acs`,
        fields: { SAMLResponse: Buffer.from(`<x>${MARK}</x>`).toString('base64') },
        params: { providerId: samlProviderB },
      },
    ],
    'auth.forgot-password.tsx': [
      { path: '/auth/forgot-password', fields: { email: b.email }, params: {}, onlyOnA: true },
    ],
    'auth.login.tsx': [
      {
        path: '/auth/login',
        fields: { email: b.email, password: 'wrong-password' },
        params: {},
        onlyOnA: true,
      },
    ],
    // Its own session: signing out must not sign the intruder out of the attempts after it.
    'auth.logout.ts': [
      { path: '/auth/logout', fields: {}, params: {}, cookie: logoutCookie },
      {
        path: '/auth/logout',
        fields: { redirectTo: `/invitations/${invitationTokenB}` },
        params: {},
        cookie: logoutCookie,
      },
    ],
    'auth.register.tsx': [
      {
        path: '/auth/register',
        fields: {
          firstName: 'x',
          lastName: 'y',
          email: b.email,
          password: 'register-secret',
          ...injected,
        },
        params: {},
        onlyOnA: true,
      },
    ],
    'auth.reset-password.tsx': [
      {
        path: `/auth/reset-password?token=${resetTokenB}`,
        fields: { token: resetTokenB, password: 'taken-over-1', confirmPassword: 'taken-over-1' },
        params: {},
        onlyOnA: true,
      },
    ],
    // Sign-in steps and the two-factor page act on the session's own account only (ADR 045).
    'auth.two-factor.tsx': [
      {
        path: '/auth/two-factor',
        fields: { intent: 'code', code: '123456', ...injected },
        params: {},
      },
      {
        path: '/auth/two-factor',
        fields: { intent: 'passkey', credential: '{}', ...injected },
        params: {},
      },
      {
        path: '/auth/two-factor',
        fields: { intent: 'confirm-email', token: 'a'.repeat(52), ...injected },
        params: {},
      },
    ],
    'auth.new-password.tsx': [
      {
        path: '/auth/new-password',
        fields: { password: 'taken-over-1', confirmPassword: 'taken-over-1', ...injected },
        params: {},
      },
    ],
    'account.two-factor.tsx': [
      { path: '/account/two-factor', fields: { intent: 'regenerate', ...injected }, params: {} },
      {
        path: '/account/two-factor',
        fields: { intent: 'disable', code: '123456', ...injected },
        params: {},
      },
      // Passkeys (ADR 045, Passkeys): B's session names nothing of A's.
      {
        path: '/account/two-factor',
        fields: { intent: 'passkey-options', ...injected },
        params: {},
      },
      {
        path: '/account/two-factor',
        fields: { intent: 'passkey-remove', passkeyId: passkeyB.id, ...injected },
        params: {},
      },
      {
        path: '/account/two-factor',
        fields: { intent: 'passkey-rename', passkeyId: passkeyB.id, name: 'Taken', ...injected },
        params: {},
      },
    ],
    // On B's own host B's link is meant to work: only A's host must refuse it.
    'auth.confirm-email.tsx': [
      {
        path: `/auth/confirm-email?token=${confirmationTokenB}`,
        fields: { token: confirmationTokenB, ...injected },
        params: {},
        onlyOnA: true,
      },
    ],
    // "Delete my account" acts on the session's own account only; B's ids are ignored (and the
    // password is not A's, so A's session stays for the attempts after this one).
    'account.delete.ts': [
      {
        path: '/account/delete',
        fields: { password: 'not-the-password', email: b.email, ...injected },
        params: {},
      },
    ],
    // Keep my account (ADR 081): B's ids injected; only the poster's own deletion is kept.
    'account.keep.ts': [
      { path: '/account/keep', fields: { redirectTo: '/contacts', ...injected }, params: {} },
    ],
    'resources.email-confirmation.ts': [
      {
        path: '/resources/email-confirmation',
        fields: { intent: 'resend', ...injected },
        params: {},
      },
      {
        path: '/resources/email-confirmation',
        fields: { intent: 'dismiss', ...injected },
        params: {},
      },
    ],
    'card.$ref.tsx': [
      { path: `/card/${b.cardId}`, fields: { intent: 'connect' }, params: { ref: b.cardId } },
      { path: `/card/${b.cardId}`, fields: { intent: 'save' }, params: { ref: b.cardId } },
      {
        path: '/card/bea-bee',
        fields: { intent: 'lead', fullName: 'Sneaky', email: 'sneaky@example.test' },
        params: { ref: 'bea-bee' },
        onlyOnA: true,
      },
    ],
    // A short link is the card page under another path: B's slug is not found on A's host.
    'c.$slug.tsx': [
      { path: '/c/bea-bee', fields: { intent: 'connect' }, params: { slug: 'bea-bee' } },
      { path: '/c/bea-bee', fields: { intent: 'save' }, params: { slug: 'bea-bee' } },
      {
        path: '/c/bea-bee',
        fields: { intent: 'lead', fullName: 'Sneaky', email: 'sneaky@example.test' },
        params: { slug: 'bea-bee' },
        onlyOnA: true,
      },
    ],
    // The contact page is the card page under another path (the same module's action).
    // The Personal switch of Contacts (ADR 049), naming B's contact: not found.
    'contacts._index.tsx': [true, false].map((personal) => ({
      path: '/contacts?index',
      fields: { intent: 'set-personal', contactId: contactIdB, personal: String(personal) },
      params: {},
    })),
    // The same switch on a contact's page, naming B's contact in the path and in the form.
    'contacts.$contactId.tsx': [true, false].map((personal) => ({
      path: `/contacts/${contactIdB}`,
      fields: { intent: 'set-personal', contactId: contactIdB, personal: String(personal) },
      params: { contactId: contactIdB },
    })),
    // A scanned contact is A's own: B's contact's id alongside changes nothing of B's.
    'contacts.scan.tsx': [
      {
        path: '/contacts/scan',
        fields: { intent: 'save', fullName: 'Sneaky Scan', contactId: contactIdB },
        params: {},
      },
    ],
    // A lead captured offline is A's own: B's contact's id and organization alongside change
    // nothing of B's, and its key is A's alone.
    'offline_.leads.ts': [
      {
        path: '/offline/leads',
        fields: {
          idempotencyKey: '6f1c2a1e-8a4b-4c36-9d1e-1f2a3b4c5d6e',
          fullName: 'Sneaky Lead',
          contactId: contactIdB,
          ...injected,
        },
        params: {},
      },
    ],
    'contact.$ref.tsx': [
      { path: `/contact/${b.cardId}`, fields: { intent: 'connect' }, params: { ref: b.cardId } },
      { path: `/contact/${b.cardId}`, fields: { intent: 'save' }, params: { ref: b.cardId } },
    ],
    'dashboard.end-user.digital-cards._index.tsx': list(cards),
    'dashboard.end-user.digital-cards.edit.$cardId.tsx': edit(cards),
    'dashboard.end-user.team.tsx': team,
    'dashboard.super-admin.agencies.tsx': ['update', 'delete', 'deactivate', 'reject'].map(
      (intent) => ({
        path: '/dashboard/super-admin/agencies',
        fields: { ...agencyFormB, intent, agencyId: b.organizationId },
        params: {},
      }),
    ),
    // A super admin of A, on an agency host, naming B's account and organization: 403.
    'dashboard.super-admin.users._index.tsx': [
      [
        'set-status',
        'delete-user',
        'edit-user',
        'change-role',
        'set-plan',
        'decide-plan-request',
      ].map((intent) => ({
        path: '/dashboard/super-admin/users',
        fields: {
          intent,
          requestId: planRequestB.id,
          decision: 'granted',
          userId: memberUserIdB,
          organizationId: b.organizationId,
          status: 'inactive',
          role: 'end_user',
          plan: 'team_pro',
          name: 'Taken',
          email: b.email,
        },
        params: {},
      })),
      {
        path: '/dashboard/super-admin/users',
        fields: {
          intent: 'add-user',
          name: 'Sneaky',
          email: `x-${MARK}@example.test`,
          organizationId: b.organizationId,
          active: 'on',
        },
        params: {},
      },
    ].flat(),
    'dashboard.super-admin.team.tsx': ['delete-member', 'change-role', 'edit-member'].map(
      (intent) => ({
        path: '/dashboard/super-admin/team',
        fields: {
          intent,
          userId: memberUserIdB,
          role: 'super_admin',
          access: 'super_admin',
          staffTitle: 'team_lead',
          name: 'Taken',
          email: b.email,
          password: 'taken-over-1',
        },
        params: {},
      }),
    ),
    // A's agency admin naming B's accounts by id (and B's organization): nothing of B changes.
    'dashboard.agency.users._index.tsx': [
      'edit-user',
      'assign-user',
      'set-status',
      'delete-user',
      'change-role',
      'add-user',
      'set-plan',
      'hand-over',
      'set-forwarding',
      'clear-successor',
      'decide-plan-request',
    ].map((intent) => ({
      path: '/dashboard/agency/users?index',
      fields: {
        intent,
        requestId: planRequestB.id,
        decision: 'granted',
        userId: memberUserIdB,
        successorId: memberUserIdB,
        kind: 'message',
        message: 'Gone',
        assignedToUserId: memberUserIdB,
        organizationId: b.organizationId,
        status: 'inactive',
        role: 'team_admin',
        plan: 'team_pro',
        name: 'Taken',
        email: b.email,
        active: 'on',
      },
      params: {},
    })),
    // A's agency admin naming B's accounts, its team member (team_admin) among them: 404.
    'dashboard.agency.team.tsx': [memberUserIdB, teamAdminIdB].flatMap((userId) =>
      ['delete-member', 'change-role', 'edit-member', 'add-member', 'set-member-plan'].map(
        (intent) => ({
          path: '/dashboard/agency/team',
          fields: {
            ...injected,
            intent,
            userId,
            role: userId === teamAdminIdB ? 'end_user' : 'agency_admin',
            access: 'agency_admin',
            staffTitle: 'designer',
            name: 'Taken',
            email: b.email,
            password: 'taken-over-1',
            // A team member's plan (ADR 051): B's team member's, refused.
            plan: 'team_member_basic',
          },
          params: {},
        }),
      ),
    ),
    'invitations.$token.tsx': invitation('accept'),
    'invitations.$token_.decline.tsx': invitation('decline'),
    'dashboard.team-member.digital-cards._index.tsx': list(teamCards),
    // Add User with B's owner's address and B's ids injected: at most an account of A is made.
    'dashboard.team-member.users.tsx': [
      {
        path: '/dashboard/team-member/users',
        fields: { intent: 'add-user', name: 'Bea Bee', email: b.email, active: 'on', ...injected },
        params: {},
      },
    ],
    'dashboard.team-member.digital-cards.edit.$cardId.tsx': edit(teamCards),
    'onboarding.tsx': [1, 2, 3, 4, 5].map((step) => ({
      path: `/onboarding?step=${step}`,
      fields: {
        firstName: 'x',
        lastName: 'y',
        workEmail: b.email,
        backgroundChoice: 'image',
        backgroundMediaId: b.mediaId,
        logoMediaId: b.mediaId,
        profilePictureMediaId: b.mediaId,
        ...injected,
      },
      params: {},
    })),
    'profile._index.tsx': profile('/profile'),
    'profile.$variant.tsx': profile('/profile/role'),
    'profile.agency.tsx': profile('/profile/agency'),
    'profile.end-user.tsx': profile('/profile/end-user'),
    'profile.super-admin.tsx': profile('/profile/super-admin'),
    'profile.team-member.tsx': profile('/profile/team-member'),
    'resources.upload.ts': [
      { path: '/resources/upload', fields: { purpose: 'logo', ...injected }, params: {} },
    ],
    // On B's host B's own token is B's owner's to use, like B's reset token.
    // B's lead's receipt link deletes nothing on A's host (on B's, it is the lead's own).
    // B's owner's ready export, named by its id: a 404 on either host, nothing written.
    'account.data-export[.]zip.ts': [
      {
        path: '/account/data-export.zip',
        fields: { exportId: dataExportB.id, ...injected },
        params: {},
      },
    ],
    // A request names nobody: it is always the signed-in person's own export.
    'account.data-export.tsx': [
      {
        path: '/account/data-export',
        fields: { intent: 'request', exportId: dataExportB.id, ...injected },
        params: {},
      },
    ],
    'lead-data.tsx': [
      {
        path: `/lead-data?token=${leadDataTokenB}`,
        fields: { intent: 'delete', token: leadDataTokenB, ...injected },
        params: {},
        onlyOnA: true,
      },
    ],
    'follow.confirm.tsx': [
      {
        path: `/follow/confirm?token=${followConfirmTokenB}`,
        fields: { intent: 'confirm', token: followConfirmTokenB, ...injected },
        params: {},
        onlyOnA: true,
      },
    ],
    // A personal card is the platform's (ADR 106): an agency's host answers 404 whatever is sent.
    'p.$slug_.manage.tsx': [
      {
        path: '/p/nobody-here/manage',
        fields: { email: b.email, ...injected },
        params: { slug: 'nobody-here' },
        onlyOnA: true,
      },
    ],
    'personal-card.manage.tsx': [
      {
        path: `/personal-card/manage?token=${claimTokenB}`,
        fields: { intent: 'remove', token: claimTokenB, ...injected },
        params: {},
        onlyOnA: true,
      },
    ],
    'personal-card.claim.tsx': [
      {
        path: `/personal-card/claim?token=${claimTokenB}`,
        fields: {
          intent: 'claim',
          firstName: 'Mallory',
          lastName: 'Taker',
          phone: '+1 555 0199',
          token: claimTokenB,
          ...injected,
        },
        params: {},
        onlyOnA: true,
      },
    ],
    'follow.unsubscribe.tsx': [
      {
        path: `/follow/unsubscribe?token=${followStopTokenB}`,
        fields: { 'List-Unsubscribe': 'One-Click', token: followStopTokenB, ...injected },
        params: {},
        onlyOnA: true,
      },
    ],
    'email.unsubscribe.tsx': [
      {
        path: `/email/unsubscribe?token=${unsubscribeTokenB}`,
        fields: { 'List-Unsubscribe': 'One-Click', token: unsubscribeTokenB, ...injected },
        params: {},
        onlyOnA: true,
      },
      {
        path: `/email/unsubscribe?token=${marketingTokenB}`,
        fields: { 'List-Unsubscribe': 'One-Click', token: marketingTokenB, ...injected },
        params: {},
        onlyOnA: true,
      },
    ],
    // A's agency admin names B's API key: not found, B's key works on.
    'dashboard.agency.api.tsx': [
      {
        path: '/dashboard/agency/api',
        fields: { ...injected, intent: 'revoke-key', keyId: apiKeyIdB },
        params: {},
      },
    ],
    // A's agency admin names B's SCIM token: not found, B's token works on.
    'dashboard.agency.scim.tsx': [
      {
        path: '/dashboard/agency/scim',
        fields: { ...injected, intent: 'revoke-token', tokenId: scimTokenIdB },
        params: {},
      },
      {
        path: '/dashboard/agency/scim',
        fields: { ...injected, intent: 'rotate-token', tokenId: scimTokenIdB, graceHours: '0' },
        params: {},
      },
      {
        path: '/dashboard/agency/scim',
        fields: { ...injected, intent: 'set-role', role: 'agency_admin' },
        params: {},
      },
    ],
    // A's agency admin names B's webhook endpoint and delivery: not found, nothing of B's changes.
    'dashboard.agency.webhooks.tsx': [
      ...(['delete-endpoint', 'enable-endpoint'] as const).map((intent) => ({
        path: '/dashboard/agency/webhooks',
        fields: { ...injected, intent, endpointId: webhookB.endpointId },
        params: {},
      })),
      {
        path: '/dashboard/agency/webhooks',
        fields: {
          ...injected,
          intent: 'edit-endpoint',
          endpointId: webhookB.endpointId,
          url: 'https://a.example.com/',
          eventTypes: 'lead.created',
        },
        params: {},
      },
      {
        path: '/dashboard/agency/webhooks',
        fields: {
          ...injected,
          intent: 'rotate-secret',
          endpointId: webhookB.endpointId,
          overlapHours: '0',
        },
        params: {},
      },
      {
        path: '/dashboard/agency/webhooks',
        fields: { ...injected, intent: 'resend', deliveryId: webhookB.deliveryId },
        params: {},
      },
    ],
    // A's agency admin names B's template, team and card in every intent: nothing of B's changes.
    'dashboard.agency.templates.tsx': [
      {
        path: '/dashboard/agency/templates',
        fields: {
          ...injected,
          intent: 'save',
          templateId: templateB.id,
          name: `Taken ${MARK}`,
          teamId: teamB.id,
          company: 'Taken over',
        },
        params: {},
      },
      {
        path: '/dashboard/agency/templates',
        fields: { ...injected, intent: 'save', name: 'Mine', teamId: teamB.id },
        params: {},
      },
      ...(['delete', 'apply', 'reset'] as const).map((intent) => ({
        path: '/dashboard/agency/templates',
        fields: { intent, templateId: templateB.id, cardId: b.cardId },
        params: {},
      })),
    ],
    // B's provider and domain named in every intent: not found for A, nothing of B's changes.
    'dashboard.agency.sso.tsx': [
      ...(['remove-provider', 'test-provider'] as const).map((intent) => ({
        path: '/dashboard/agency/sso',
        fields: { intent, providerId: ssoProviderB.id },
        params: {},
      })),
      {
        path: '/dashboard/agency/sso',
        fields: {
          intent: 'edit-provider',
          providerId: ssoProviderB.id,
          displayName: 'Taken over',
          issuerUrl: 'https://idp.b.test',
          clientId: 'taken',
          clientSecret: 'taken',
          jitRole: 'agency_member',
          enabled: 'on',
        },
        params: {},
      },
      {
        path: '/dashboard/agency/sso',
        fields: {
          intent: 'claim-domain',
          providerId: ssoProviderB.id,
          domain: 'taken.example.com',
        },
        params: {},
      },
      ...(['verify-domain', 'remove-domain'] as const).map((intent) => ({
        path: '/dashboard/agency/sso',
        fields: { intent, domainId: ssoDomainB.id },
        params: {},
      })),
      {
        path: '/dashboard/agency/sso',
        fields: { intent: 'enforce-domain', domainId: ssoDomainB.id, enforced: 'on' },
        params: {},
      },
    ],
    // On A's host, B's owner's address has no provider: the field says so, nothing starts.
    'auth.sso._index.tsx': [
      { path: '/auth/sso', fields: { email: b.email }, params: {}, onlyOnA: true },
    ],
    // A's agency admin sends with B's ids injected: at most A's own announcement, never B's users.
    'dashboard.agency.announcements.tsx': [
      {
        path: '/dashboard/agency/announcements',
        fields: { subject: `To ${MARK}`, body: 'Taken over', ...injected },
        params: {},
      },
    ],
  }
}
