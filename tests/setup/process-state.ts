// Most test files share their process with the files before them (`isolate: false` in
// vitest.config.ts, ADR 034): the app's modules stay loaded, and with them whatever they keep
// in memory. This setup file runs again for each file and gives it what a new process would
// have: the environment vitest started the process with, and no cache, queue or background
// work left from another file's database. A new cache or timer in the app belongs here.
import { afterAll, vi } from 'vitest'
import { discardCardEventsForTests } from '#app/cards/event-batcher.server'
import { discardCardViewsForTests } from '#app/cards/view-batcher.server'
import { stopDomainRecheck } from '#app/domains/recheck-schedule.server'
import { resetEnvForTests } from '#app/env.server'
import { forgetUnwrittenJobOutcomesForTests, stopJobWorker } from '#app/jobs/worker.server'
import { forgetGoogleWalletTokensForTests } from '#app/services/google-wallet-api.server'
import { forgetDiskSpaceReading } from '#app/storage/disk-space.server'
import { stopChangeFeed } from '#app/tenancy/change-feed.server'
import { invalidatePlatformSettings } from '#app/tenancy/platform-settings-cache.server'
import { clearTenantCache } from '#app/tenancy/tenant.server'
import { setApnsTlsForTests } from '#app/wallet/apns.server'
import { resetSlowQueryReportForTests, setDatabaseWorkTimeBoundForTests } from '#drizzle/db.server'
import { removeServiceAccountKeys } from '#tests/fake-google-wallet'

// Kept on globalThis: this module is evaluated anew for each file, the process is not.
const processStart = globalThis as {
  __brandcardStartEnv?: { object: NodeJS.ProcessEnv; values: Record<string, string | undefined> }
}

/** The environment as the process started: tests set, delete and even replace process.env. */
function restoreEnvironment() {
  processStart.__brandcardStartEnv ??= { object: process.env, values: { ...process.env } }
  const start = processStart.__brandcardStartEnv
  process.env = start.object
  for (const name of Object.keys(process.env)) {
    if (!(name in start.values)) delete process.env[name]
  }
  Object.assign(process.env, start.values)
}

/** What a new process would start with; runs before the file's own code. */
export function resetProcessState() {
  restoreEnvironment()
  resetEnvForTests()
  // Both are keyed by ids and hosts that every fresh database repeats (the platform row, the
  // factories' hosts); clearing the tenants drops the cached pages too.
  invalidatePlatformSettings()
  clearTenantCache()
  discardCardViewsForTests()
  discardCardEventsForTests()
  forgetDiskSpaceReading()
  forgetUnwrittenJobOutcomesForTests()
  forgetGoogleWalletTokensForTests()
  setDatabaseWorkTimeBoundForTests()
  resetSlowQueryReportForTests()
  setApnsTlsForTests({})
}

resetProcessState()

// Listed after tests/setup/db.ts, so this runs before it closes the file's database (after-hooks
// run in reverse): background work stops while the database it was started on still answers,
// instead of waking in the next file, or between files with no database at all.
afterAll(async () => {
  await stopJobWorker()
  await stopChangeFeed()
  stopDomainRecheck()
  discardCardViewsForTests()
  discardCardEventsForTests()
  // The Google Wallet keys the file wrote to the temporary directory.
  removeServiceAccountKeys()
  // The file's spies on the app's modules (a file spies rather than vi.mock-s, whose mock would
  // outlive it in this process): the next file gets the real functions.
  vi.restoreAllMocks()
})
