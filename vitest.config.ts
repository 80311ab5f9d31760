import { defineConfig } from 'vitest/config'
import { TEST_APP_SECRET } from './tests/app-secret'

// Integration tests run once on PGlite and, when TEST_DATABASE_URL is set, once more on
// a real Postgres server (which also runs the *.postgres.test.ts files); every test file gets its own fresh, migrated database.
const integration = (driver: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name: `integration-${driver}`,
    include: ['tests/integration/**/*.test.ts'],
    // Files named *.postgres.test.ts need a real server's pool and backends.
    exclude: driver === 'pglite' ? ['tests/integration/**/*.postgres.test.ts'] : [],
    env: { TEST_DB_DRIVER: driver },
    globalSetup: ['tests/setup/global-db.ts'],
    setupFiles: ['tests/setup/console.ts', 'tests/setup/db.ts', 'tests/setup/custom-matchers.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})

const WORKERS = '100%'

export default defineConfig({
  test: {
    environment: 'node',
    // Vitest's default is one worker fewer than the cores: a single worker on CI's two, while a
    // test file spends much of its time waiting for its database. Each file has its own database
    // and its own process (the forks pool), so files run side by side safely (ADR 034).
    maxWorkers: WORKERS,
    env: {
      NODE_ENV: 'test',
      // One secret for every test process (tests/app-secret.ts says why); tests of the generated
      // secret remove it themselves.
      APP_SECRET: TEST_APP_SECRET,
      ROOT_DOMAIN: 'localhost',
      DATA_DIR: 'tests/.tmp/data',
      // No test asks the internet's DNS: a closed local port answers at once; the custom
      // domain tests start their own server (tests/fake-dns.ts).
      DNS_RESOLVER: '127.0.0.1:9',
      // Retries of queued jobs come due at once, so one run of the queue plays them all out;
      // no test talks to GoHighLevel itself (tests/fake-crm.ts stands in for it).
      JOB_RETRY_BASE_MS: '0',
      GOHIGHLEVEL_API_URL: 'http://127.0.0.1:9',
      CRM_TIMEOUT_MS: '2000',
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'app/**/*.test.ts'],
          setupFiles: ['tests/setup/console.ts'],
        },
      },
      integration('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [integration('postgres')] : []),
    ],
  },
})
