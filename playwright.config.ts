import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/chromium'
import { E2E_DOMAIN_SUFFIX, E2E_PORT, E2E_PRODUCTION_PORT, TENANTS } from './e2e/fixtures'

const chromium = { ...devices['Desktop Chrome'], channel: undefined }

// Two servers, both the built server in NODE_ENV=production (e2e/start-server.ts):
// - production: only with TEST_DATABASE_URL: real Postgres, requests logged in as brandcard_app
//   as in production, so row-level security refuses what PGlite lets through. It runs the specs
//   whose pages read and write tenant rows;
// - embedded: PGlite (a superuser), the `npm start` default. Without TEST_DATABASE_URL it runs
//   every spec; with it, the specs the production server does not run (faults, lifecycle, raw
//   HTTP checks of the server itself, the README's own server, the accessibility crawl). Each
//   spec runs once: twice cost CI about twenty minutes on two cores, and the page code is the
//   same on both drivers; the integration tests still run every model function on both
//   (ADR 020).
const productionDatabase = Boolean(process.env.TEST_DATABASE_URL)
const productionSpecs = [
  'tenants.spec.ts',
  'super-admin-agencies.spec.ts',
  'accounts.spec.ts',
  'sharing.spec.ts',
  'cards.spec.ts',
  'dead-ends.spec.ts',
  'auth-guard.spec.ts',
  'notifications.spec.ts',
  'qr-screen.spec.ts',
  'user-accounts.spec.ts',
  'sidebar.spec.ts',
  'dashboards.spec.ts',
  'teams.spec.ts',
  'my-end-users.spec.ts',
  'audit-log.spec.ts',
  'super-admin-people.spec.ts',
  'agency-people.spec.ts',
  'settings.spec.ts',
  'agency-branding.spec.ts',
  'sending-domains.spec.ts',
  'role-areas.spec.ts',
  'crm.spec.ts',
  'page-cache.spec.ts',
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
  reporter: process.env.CI ? 'list' : [['list'], ['html', { open: 'never' }]],
  use: {
    trace: 'retain-on-failure',
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
      timeout: 120_000,
      stdout: 'pipe',
    },
    ...(productionDatabase
      ? [
          {
            command: 'tsx e2e/start-server.ts production',
            url: healthCheck(E2E_PRODUCTION_PORT),
            reuseExistingServer: false,
            timeout: 120_000,
            stdout: 'pipe' as const,
            // SIGTERM (not the default SIGKILL), so start-server.ts drops its database.
            gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 15_000 },
          },
        ]
      : []),
  ],
})
