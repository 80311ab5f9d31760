// Starts the built production server for the end-to-end tests on a fresh database holding
// only the e2e fixtures (never the demo seed): `tsx e2e/start-server.ts [embedded|production]`
// (see e2e/server-database.ts for what each target's database is).
import { spawn } from 'node:child_process'
import { eq } from 'drizzle-orm'
import { hashToken } from '#app/auth/accounts.server'
import { savePlatformSettings } from '#app/models/platform-settings.server'
import { saveLegalLinks } from '#app/tenancy/legal.server'
import { NO_LEGAL_LINKS } from '#app/validation/legal'
import { getDb, setDatabaseHandle, withTenant } from '#drizzle/db.server'
import { passwordResetTokens, users } from '#drizzle/schema'
import {
  makeTestCertificates,
  removeTestCertificates,
  TEST_PASS_TYPE_ID,
  TEST_TEAM_ID,
} from '#tests/apple-wallet'
import { makeBrandedOrganization, makeCard, makeUser } from '#tests/factories'
import { startFakeCrm } from '#tests/fake-crm'
import {
  makeServiceAccountKey,
  removeServiceAccountKeys,
  TEST_ISSUER_ID,
} from '#tests/fake-google-wallet'
import { startFakeHubspot } from '#tests/fake-hubspot'
import { startFakeResend } from '#tests/fake-resend'
import { type FakeStripe, startFakeStripe, stripeEnvFor } from '#tests/fake-stripe'
import { serverEnv as productionServerEnv, SERVER_ARGS } from '../scripts/server-command'
import {
  CARD_OWNER,
  E2E_RESEND_KEY,
  EXPIRED_RESET,
  HOSTS,
  OLD_PASSWORD_USER,
  PLATFORM_ACCESSIBILITY_EMAIL,
  PROFILE_ONLY,
  SUPER_ADMIN,
  TENANTS,
} from './fixtures'
import { seedRoleUsers, seedRoster } from './seed-fixtures'
import { seedSpecAccounts, writeSessionStates } from './seed-sessions'
import { openServerDatabase, parseTarget } from './server-database'

const target = parseTarget(process.argv[2])
const { handle, port, serverEnv, drop } = await openServerDatabase(target)
setDatabaseHandle(handle)
await handle.migrate()
const { organization: platform } = await makeBrandedOrganization({
  ...TENANTS.platform,
  kind: 'platform',
})
await makeUser(platform.id, {
  ...SUPER_ADMIN,
  role: 'super_admin',
  firstName: 'Root',
  lastName: 'Admin',
})
// Enterprise: Alpha holds the specs' many staff accounts, more than a Free agency's five (ADR 051).
const { organization: alpha } = await makeBrandedOrganization({
  ...TENANTS.alpha,
  subscriptionTier: 'enterprise',
})
const expiredUser = await makeUser(alpha.id, { email: EXPIRED_RESET.email })
const { password: _ownerPassword, ...ownerCard } = CARD_OWNER
const owner = await makeUser(alpha.id, { ...CARD_OWNER, role: 'end_user' })
await makeCard(alpha.id, owner.id, {
  ...ownerCard,
  email: CARD_OWNER.email,
  title: 'Olivia at work',
})
const { slug: _profileSlug, ...profileOnly } = PROFILE_ONLY
const profileUser = await makeUser(alpha.id, { ...profileOnly, role: 'end_user' })
await getDb()
  .update(users)
  .set({ onboardingCompletedAt: new Date() })
  .where(eq(users.id, profileUser.id))
await getDb()
  .insert(passwordResetTokens)
  .values({
    organizationId: alpha.id,
    userId: expiredUser.id,
    tokenHash: hashToken(EXPIRED_RESET.token),
    expiresAt: new Date(Date.now() - 60_000),
  })
const oldPassword = await makeUser(alpha.id, { ...OLD_PASSWORD_USER, role: 'end_user' })
await getDb()
  .update(users)
  .set({ passwordChangedAt: new Date(Date.now() - 100 * 86_400_000) })
  .where(eq(users.id, oldPassword.id))
await seedRoleUsers({ platformId: platform.id, alphaId: alpha.id })
const { organization: beta } = await makeBrandedOrganization({
  ...TENANTS.beta,
  customDomainVerifiedAt: new Date(),
})
await seedRoster({ alphaId: alpha.id, betaId: beta.id })
await makeBrandedOrganization({ slug: 'dormant', name: 'Dormant', status: 'inactive' })
// Two-factor sign-in for admins (the platform's default) is off on the e2e servers: specs in
// parallel workers sign admins in through the form, and a platform-wide switch cannot be flipped
// for one spec without racing them. e2e/two-factor.spec.ts proves enforcement through its own
// agency's staff requirement; the platform switch is proved in tests/integration/two-factor.test.ts.
await savePlatformSettings(getDb(), { requireTwoFactorForAdmins: false })
// The platform's address for accessibility requests (ADR 100): its statement names it
// (e2e/accessibility-statement.spec.ts).
await withTenant(platform.id, (tx) =>
  saveLegalLinks(tx, platform.id, {
    ...NO_LEGAL_LINKS,
    accessibilityEmail: PLATFORM_ACCESSIBILITY_EMAIL,
  }),
)
// Specs not about signing in start from these sessions (e2e/sessions.ts).
const specAgencies = await seedSpecAccounts({
  [HOSTS.alpha]: alpha.id,
  [HOSTS.betaSubdomain]: beta.id,
})
await writeSessionStates(port, {
  [HOSTS.platform]: platform.id,
  [HOSTS.alpha]: alpha.id,
  [HOSTS.betaSubdomain]: beta.id,
  ...specAgencies,
})
await handle.close()

// The server's GoHighLevel: a local fake that e2e/crm.spec.ts drives over HTTP (POST
// /__fake/state, fixtures.ts crmPort). It knows no valid key until a spec names one.
const fakeCrm = await startFakeCrm({ port: port + 2000 })
// The server's HubSpot (ADR 094): e2e/crm-hubspot.spec.ts drives it (fixtures.ts hubspotPort).
const fakeHubspot = await startFakeHubspot({ port: port + 5000 })
// The server's Resend: every email goes through it (and stays in the outbox the super admin reads,
// OUTBOX_PAGE=1); agencies' sending domains are registered with it (e2e/sending-domains.spec.ts).
const fakeResend = await startFakeResend({ port: port + 3000, apiKey: E2E_RESEND_KEY })

// Stripe on the production-configuration server only (e2e/billing.spec.ts): its API, hosted
// Checkout and signed webhooks from a local fake that posts events to this server. The embedded
// server keeps no payment provider, as its specs of admin-granted plans expect.
let fakeStripe: FakeStripe | undefined
if (target === 'production') {
  fakeStripe = await startFakeStripe({ port: port + 4000 })
  fakeStripe.setDelivery(`http://localhost:${port}/api/stripe/webhook`)
}

// Google Wallet's throwaway key and Apple Wallet's throwaway certificates (below), removed when
// the server ends.
const walletKey = makeServiceAccountKey('http://127.0.0.1:9/token').keyPath
const passCertificates = makeTestCertificates()

const server = spawn(process.execPath, SERVER_ARGS, {
  stdio: 'inherit',
  env: {
    ...productionServerEnv(),
    NODE_ENV: 'production',
    PORT: String(port),
    ROOT_DOMAIN: 'localhost',
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    // Super admins read the outbox; delivery goes to the fake Resend above.
    OUTBOX_PAGE: '1',
    RESEND_API_KEY: E2E_RESEND_KEY,
    RESEND_BASE_URL: fakeResend.url,
    // Custom domains are verified against the DNS server a spec starts on this port
    // (e2e/fixtures.ts dnsPort); the background re-check stays out of the specs' way.
    DNS_RESOLVER: `127.0.0.1:${port + 1000}`,
    DOMAIN_RECHECK_SECONDS: '0',
    // The specs' identity providers (oidc-provider, the SAML IdP) listen on plain http on
    // 127.0.0.1; production refuses that by default (ADR 090).
    SSO_ALLOW_HTTP_LOOPBACK: '1',
    // e2e/webhooks.spec.ts's receiver listens on 127.0.0.1 (production refuses private and
    // loopback targets by default, ADR 093), and its retries come after a third of a second,
    // not 30 seconds, so the spec sees a failed delivery retried and succeed.
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_RETRY_BASE_MS: '300',
    // New contacts of users with the CRM on are forwarded to the fake; a spec scripting a slow
    // answer waits at most this long.
    GOHIGHLEVEL_API_URL: fakeCrm.url,
    HUBSPOT_API_URL: fakeHubspot.url,
    CRM_TIMEOUT_MS: '3000',
    // Views of cached card pages reach the dashboards within a fifth of a second, not a second
    // (ADR 021): a spec that opens a card and then a dashboard need not wait on the batch.
    VIEW_FLUSH_MS: '200',
    // Google Wallet on with a throwaway key (made now, nothing real committed), so the QR screen
    // shows its badge (e2e/signature.spec.ts). Its save link is signed locally; nothing calls
    // Google, and no spec saves a card, so no patch job runs.
    GOOGLE_WALLET_ISSUER_ID: TEST_ISSUER_ID,
    GOOGLE_WALLET_KEY: walletKey,
    // Apple Wallet on with throwaway certificates, so the QR screen shows its badge and the pass
    // downloads signed (e2e/signature.spec.ts). No device registers, so nothing is pushed: APNs
    // points nowhere.
    APPLE_PASS_TYPE_ID: TEST_PASS_TYPE_ID,
    APPLE_TEAM_ID: TEST_TEAM_ID,
    APPLE_PASS_CERT: passCertificates.certPath,
    APPLE_PASS_KEY: passCertificates.keyPath,
    APPLE_WWDR_CERT: passCertificates.wwdrPath,
    APPLE_APNS_URL: 'https://127.0.0.1:9',
    ...(fakeStripe ? stripeEnvFor(fakeStripe) : {}),
    ...serverEnv,
  },
})
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => server.kill(signal))
}
server.on('exit', (code) => {
  removeServiceAccountKeys()
  removeTestCertificates(passCertificates)
  Promise.all([
    fakeCrm.close(),
    fakeHubspot.close(),
    fakeResend.close(),
    fakeStripe?.close(),
    drop(),
  ]).then(
    () => process.exit(code ?? 0),
    (error) => {
      console.error('could not drop the e2e database or close the fakes', error)
      process.exit(1)
    },
  )
})
