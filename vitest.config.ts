import { defineConfig } from 'vitest/config'
import { accessibilityCheckedOn } from './scripts/accessibility-checked-on'
import { TEST_V8_FLAGS } from './scripts/server-command'
import { TEST_APP_SECRET } from './tests/app-secret'
import { ISOLATED_FILES } from './tests/setup/isolated-files'
import { SlowFirstSequencer } from './tests/setup/slow-first-sequencer'

const isolatedFiles = Object.keys(ISOLATED_FILES)

// Test files whose checks end before the database driver matters, each with its reason: with
// TEST_DATABASE_URL set they run on Postgres only (production's server), without it on PGlite.
// Every other integration file runs on both drivers (ADR 034).
const ONE_DRIVER_FILES: Record<string, string> = {
  'tests/integration/fuzz.test.ts':
    'bad input is refused by zod schemas and body limits, which no driver changes; the saves it reaches run model functions that every other file runs on both drivers',
  'tests/integration/route-matrix.test.ts':
    'each cell is decided by the guards (role, tenant, plan, the intent naming another tenant’s row) before the driver matters; what an allowed loader or action reads and writes, its screen’s own file runs on both drivers, and row-level security is proved on both by rls.test.ts',
}
const oneDriverFiles = Object.keys(ONE_DRIVER_FILES)
const withPostgres = Boolean(process.env.TEST_DATABASE_URL)

// Integration tests run once on PGlite and, when TEST_DATABASE_URL is set, once more on
// a real Postgres server (which also runs the *.postgres.test.ts files); every test file gets its
// own fresh, migrated database. Each driver has a project, `integration-<driver>`, for the files
// that share processes, and `integration-<driver>-isolated` for ISOLATED_FILES when the list has
// any, so `--project 'integration-*'` selects them all.
const integration = (driver: 'pglite' | 'postgres', isolate: boolean) => ({
  extends: true as const,
  test: {
    name: `integration-${driver}${isolate ? '-isolated' : ''}`,
    include: isolate ? isolatedFiles : ['tests/integration/**/*.test.ts'],
    exclude: [
      // Files named *.postgres.test.ts need a real server's pool and backends.
      ...(driver === 'pglite' ? ['tests/integration/**/*.postgres.test.ts'] : []),
      ...(driver === 'pglite' && withPostgres ? oneDriverFiles : []),
      ...(isolate ? [] : isolatedFiles),
    ],
    isolate,
    env: { TEST_DB_DRIVER: driver },
    globalSetup: ['tests/setup/global-db.ts'],
    setupFiles: [
      'tests/setup/console.ts',
      'tests/setup/db.ts',
      // After db.ts: its after-hook must run before db.ts closes the database.
      ...(isolate ? [] : ['tests/setup/process-state.ts']),
      'tests/setup/custom-matchers.ts',
    ],
    // Hang watchdogs, not speed checks (ADR 059): a whole-database restore that takes 15 s on a
    // quiet machine took 45-60 s at a load average of 15, and a busy day is three times slower.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
})

const WORKERS = '100%'

export default defineConfig({
  // As the build defines it (vite.config.ts, ADR 100): the checked-out commit's date.
  define: { __ACCESSIBILITY_CHECKED_ON__: JSON.stringify(accessibilityCheckedOn()) },
  test: {
    environment: 'node',
    // Vitest's default is one worker fewer than the cores: a single worker on CI's two, while a
    // test file spends much of its time waiting for its database. Each file has its own database,
    // and each worker its own process (the forks pool), so files run side by side safely (ADR 034).
    maxWorkers: WORKERS,
    // WebAssembly on V8's baseline compiler alone (ADR 118): six PGlite-heavy files took 147 s of
    // CPU against 152 s, the card scan's file 22-24 s against 27-29 s.
    execArgv: [...TEST_V8_FLAGS],
    sequence: { sequencer: SlowFirstSequencer },
    // Each project (unit, and each driver's two) transforms the app's modules for itself: the
    // same 900-odd files, up to five times in one run. Kept on disk (node_modules/.experimental-
    // vitest-cache), a module one project transformed is read by the next, and by the next run;
    // the key holds the file's text, the resolved config and vitest's version, and a changed
    // lockfile clears it (ADR 122). Transform time 41 s → 20-22 s in a run from a cold cache.
    experimental: { fsModuleCache: true },
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
      // A busy machine's slow transactions are no test's subject: the slow-query log's own test
      // sets its threshold (ADR 097), and no other test's console is read with its lines in.
      SLOW_QUERY_MS: 'off',
      // The same for webhook deliveries' own schedule (ADR 093): each retry is due at once.
      WEBHOOK_RETRY_BASE_MS: '0',
      GOHIGHLEVEL_API_URL: 'http://127.0.0.1:9',
      CRM_TIMEOUT_MS: '2000',
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'app/**/*.test.ts'],
          isolate: false,
          setupFiles: ['tests/setup/console.ts', 'tests/setup/process-state.ts'],
          // vitest's 5 s default is a tenth of that for an image resize on a loaded machine.
          testTimeout: 60_000,
        },
      },
      integration('pglite', false),
      ...(isolatedFiles.length ? [integration('pglite', true)] : []),
      ...(withPostgres ? [integration('postgres', false)] : []),
      ...(withPostgres && isolatedFiles.length ? [integration('postgres', true)] : []),
    ],
  },
})
