import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/chromium'
import { E2E_DOMAIN_SUFFIX, E2E_PORT, E2E_PRODUCTION_PORT, TENANTS } from './e2e/fixtures'

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
  // Cached pages dropped by the change feed, views written by the batcher.
  'page-cache.spec.ts',
  // A visitor's card from the page cache, its views, and the lead written to the owner's contacts.
  'sharing.spec.ts',
  // Sign-up, confirmation and reset emails through the queue; sessions of the app login.
  'accounts.spec.ts',
  // Issue 28 in one journey: a card's links and short links, a short link's cached page dropped
  // by the change feed when it changes, a view written by the batcher with its source.
  'card-journey.spec.ts',
  // Every role's pages at three widths (issue 30): each page's loader read by the app login from
  // Postgres, the configuration customers get, with a screenshot of each kept in the output.
  'no-sideways-scroll.spec.ts',
  // An announcement fanned out by the job worker claiming across the pool, its emails through
  // the queue, and the one-click unsubscribe writing under the app login (ADR 046).
  'announcements.spec.ts',
  // Two-factor sign-in and rotation (ADR 045): sessions, users and settings of the app login
  // under RLS.
  'two-factor.spec.ts',
  // A card template's locked company kept against the owner's edit, and its change reaching the
  // card in place: written as the app login, the card's cached page dropped by the change feed.
  'card-templates.spec.ts',
]

const healthCheck = (port: number) => `http://localhost:${port}/api/health-check`

export default defineConfig({
  testDir: 'e2e',
  // CI's machine is two shared cores: under host contention a sign-in (argon2) or an axe pass can
  // take several times its usual time. Generous limits cost nothing when things are fast.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
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
  projects: [
    {
      name: 'embedded',
      testIgnore: productionDatabase ? productionSpecs : [],
      use: { ...chromium, baseURL: `http://localhost:${E2E_PORT}` },
    },
    ...(productionDatabase
      ? [
          {
            name: 'production',
            testMatch: productionSpecs,
            use: { ...chromium, baseURL: `http://localhost:${E2E_PRODUCTION_PORT}` },
          },
        ]
      : []),
  ],
  webServer: [
    {
      command: 'tsx e2e/start-server.ts embedded',
      url: healthCheck(E2E_PORT),
      reuseExistingServer: false,
      // Migrating, seeding and writing the sessions took over two minutes on a loaded machine.
      timeout: 300_000,
      stdout: 'pipe',
    },
    ...(productionDatabase
      ? [
          {
            command: 'tsx e2e/start-server.ts production',
            url: healthCheck(E2E_PRODUCTION_PORT),
            reuseExistingServer: false,
            timeout: 300_000,
            stdout: 'pipe' as const,
            // SIGTERM (not the default SIGKILL), so start-server.ts drops its database.
            gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 15_000 },
          },
        ]
      : []),
  ],
})
