import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/chromium'
import { E2E_DOMAIN_SUFFIX, E2E_PORT, E2E_PRODUCTION_PORT, TENANTS } from './e2e/fixtures'
import { typeScriptArgs } from './scripts/server-command'

const chromium = { ...devices['Desktop Chrome'], channel: undefined }

// Two servers, both the built server in NODE_ENV=production (e2e/start-server.ts):
// - embedded: PGlite, the `npm start` default. It runs every spec but those below;
// - production: only with TEST_DATABASE_URL: real Postgres, logged in as brandcard_app as in
//   production. It runs the specs whose outcome the database driver can change (ADR 034).
//   Row-level security is not one of those: every query of the app runs in withTenant,
//   withDatabase or withPlatformScope, which switch to brandcard_app on both drivers, so PGlite
//   refuses the same rows (tests/integration/rls.test.ts runs on both). What differs is what
//   runs on the connection itself: the page cache's change feed (LISTEN on the app login's own
//   connection, NOTIFY from the tables' triggers) and the job worker claiming across a pool.
// Each spec runs once (ADR 020); the integration tests run every model function and route on
// both drivers.
const productionDatabase = Boolean(process.env.TEST_DATABASE_URL)
const productionSpecs = [
  // Issue 45 point 5 (ADR 105): the card page in the browser's language, its page cache keyed by
  // it, and the agency's languages saved by the app login under RLS and honoured at once.
  'visitor-language.spec.ts',
  // Issue 45 point 3 (ADR 101): a photo of a paper card read on the server (tesseract.js, no
  // network) into a contact with the source "scan", written by the app login under RLS.
  'scan-card.spec.ts',
  // Issue 45 point 4 (ADR 104): a lead captured offline, sent again under its key and written
  // once by the app login under RLS; the service worker's cache on a built server.
  'offline.spec.ts',
  // Issue 45 point 1 (ADR 102): a follower's confirmation and the card's digest through the
  // queue, the digest queued by the database's trigger on the owner's edit under RLS.
  'card-followers.spec.ts',
  // Issue 45 point 2 (ADR 103): a personal card claimed on the agency's host and written on the
  // platform's under RLS, and the followers' "has moved" through the queue.
  'personal-cards.spec.ts',
  // Issue 43 point 3 (ADR 093): a lead's webhook written in its transaction by the app login
  // under RLS, delivered and retried by the job worker claiming across the pool.
  'webhooks.spec.ts',
  // Cached pages dropped by the change feed, views written by the batcher.
  'page-cache.spec.ts',
  // A visitor's card from the page cache, its views, and the lead written to the owner's contacts.
  'sharing.spec.ts',
  // Sign-up, confirmation and reset emails through the queue; sessions of the app login.
  'accounts.spec.ts',
  // Issue 28 in one journey: a card's links and short links, a short link's cached page dropped
  // by the change feed when it changes, a view written by the batcher with its source.
  'card-journey.spec.ts',
  // Every role's pages audited by axe and measured at three widths (issue 30, ADR 110): each
  // page's loader read by the app login from Postgres, the configuration customers get, with a
  // screenshot of each kept in the output.
  'accessibility.spec.ts',
  // Issue 31 point 2: a departed user's links forward once the change feed drops the cached
  // page, and the hand-over moves contacts in one transaction as the app login.
  'seat-forwarding.spec.ts',
  // An announcement fanned out by the job worker claiming across the pool, its emails through
  // the queue, and the one-click unsubscribe writing under the app login (ADR 046).
  'announcements.spec.ts',
  // Two-factor sign-in and rotation (ADR 045): sessions, users and settings of the app login
  // under RLS.
  'two-factor.spec.ts',
  // Billing through the fake Stripe (ADR 051): Checkout, the signed webhook applied by the job
  // worker under the app login, a failed renewal's grace period ending in Free.
  'billing.spec.ts',
  // Consent that follows the lead (ADR 050): the receipt through the queue, the CRM told of the
  // consent and the deletion by the worker, contacts and consent texts under RLS.
  'lead-consent.spec.ts',
  // A card template's locked company kept against the owner's edit, and its change reaching the
  // card in place: written as the app login, the card's cached page dropped by the change feed.
  'card-templates.spec.ts',
  // Contacts on a phone (issue 41 point 12): a lead and its consent written by the app login,
  // the list, its filters and a contact's page read under RLS, at 375 px in both themes.
  'contacts.spec.ts',
  // Delete my account (ADR 053): sessions ended and the deletion cancelled by a sign-in, then the
  // job worker deleting the account under the app login, its short link forwarding afterwards.
  'account-deletion.spec.ts',
  // Download my data (ADR 052): the export built by the job worker claiming across the pool, its
  // zip kept in data_exports under RLS and streamed from there to its owner as the app login.
  'data-export.spec.ts',
  // Analytics (issue 41 point 8, ADR 082): a save and a lead counted by the event batcher and
  // read back from the hourly rollups by the app login under RLS, at 375 px, with its CSV.
  'analytics.spec.ts',
  // Pricing and the privacy notice from the home pages (issue 41 point 17): cached public pages
  // built from the tenant's branding as the app login reads it.
  'public-pages.spec.ts',
  // The team admin's and the super admin team's first dashboards (issue 41 point 15, ADR 085):
  // figures read by the app login under RLS, each tile's list as long as the tile says, at 375 px.
  'first-dashboards.spec.ts',
  // Single sign-on (issue 42 point 1, ADR 088): providers, domains and the just-in-time account
  // written by the app login under RLS, the flow cookie and session of the production server.
  'sso.spec.ts',
  // SAML sign-in (ADR 090): the ACS's answer and the sign-in written by the app login under RLS,
  // on the subdomain and the custom domain.
  'sso-saml.spec.ts',
  // The REST API (issue 43, ADR 092): a key made in the screen, its lookup and the agency's
  // cards read by the app login under RLS; another agency's key sees none of them.
  'api.spec.ts',
  // The accessibility statement on two tenants (issue 45 point 6, ADR 100): each host's contact
  // read by the app login under RLS from organization_settings, Alpha's written by its admin's
  // Branding save as the app login, the statement reached from a cached card page's footer.
  'accessibility-statement.spec.ts',
]

// The e2e servers' launcher as a shell command (Playwright runs it through sh -c).
const shellWord = (word: string) => `'${word.replaceAll("'", "'\\''")}'`
const launcher = [
  process.execPath,
  ...typeScriptArgs(
    'e2e/start-servers.ts',
    'embedded',
    ...(productionDatabase ? ['production'] : []),
  ),
]
  .map(shellWord)
  .join(' ')

const healthCheck = (port: number) => `http://localhost:${port}/api/health-check`

export default defineConfig({
  testDir: 'e2e',
  // CI's machine is two shared cores: under host contention a sign-in (argon2) or an axe pass can
  // take several times its usual time. Limits are hang watchdogs, never speed checks (the benches
  // measure speed): each is at least three times what its step takes on a quiet machine, so a
  // day three times slower stays green. Generous limits cost nothing when things are fast.
  timeout: 180_000,
  expect: { timeout: 45_000 },
  fullyParallel: true,
  workers: process.env.CI ? 3 : undefined,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI
    ? [['list'], ['./e2e/reporters/failure-context.ts']]
    : [['list'], ['html', { open: 'never' }]],
  use: {
    // Locally a failed test keeps its trace: actions, DOM snapshots, network. Not a screencast:
    // with screenshots on, every test streams frames from the renderer while it runs, thrown away
    // when it passes, on a CPU-bound machine. CI keeps only the output, so it records no trace
    // (a quarter of a spec's CPU time, ADR 034); the failure-context reporter prints what the
    // page showed instead.
    trace: process.env.CI
      ? 'off'
      : { mode: 'retain-on-failure', screenshots: false, snapshots: true },
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        ...CHROMIUM_ARGS,
        // Custom domains reach the local server; *.localhost resolves to loopback by itself.
        `--host-resolver-rules=MAP ${TENANTS.beta.customDomain} 127.0.0.1, MAP *.${E2E_DOMAIN_SUFFIX} 127.0.0.1`,
      ],
    },
  },
  // Production first: Playwright hands out tests in the projects' order, and this one's are some
  // of the longest (every role's pages at three widths); started last, they ran alone at the end.
  projects: [
    ...(productionDatabase
      ? [
          {
            name: 'production',
            testMatch: productionSpecs,
            use: { ...chromium, baseURL: `http://localhost:${E2E_PRODUCTION_PORT}` },
          },
        ]
      : []),
    {
      name: 'embedded',
      testIgnore: productionDatabase ? productionSpecs : [],
      use: { ...chromium, baseURL: `http://localhost:${E2E_PORT}` },
    },
  ],
  webServer: [
    {
      // Both servers start side by side (e2e/start-servers.ts); this entry waits for the embedded
      // one, the next for the production one. `exec`: Playwright's shell would end at once on the
      // SIGTERM below, while the launcher waits for each server to stop and drop its database.
      command: `exec ${launcher}`,
      url: healthCheck(E2E_PORT),
      reuseExistingServer: false,
      // Migrating, seeding and writing the sessions took over two minutes on a loaded machine.
      timeout: 300_000,
      stdout: 'pipe',
      // SIGTERM (not the default SIGKILL), so the production server drops its database.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    },
    ...(productionDatabase
      ? [
          {
            // Started by the entry above: this one only waits until it answers. Playwright runs a
            // command for an entry whose URL does not answer yet (reuseExistingServer: true means
            // it runs none if it does), so the command is one that waits for its end.
            command: 'node -e "setInterval(() => {}, 1 << 30)"',
            url: healthCheck(E2E_PRODUCTION_PORT),
            reuseExistingServer: true,
            timeout: 300_000,
          },
        ]
      : []),
  ],
})
