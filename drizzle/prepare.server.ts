// Start-up work: apply migrations, then seed the demo when the database is empty and
// the demo is wanted (always on the embedded database, on Postgres only with SEED_DEMO=1).

import { getEnv } from '#app/env.server'
import { hasPlatformOrganization } from '#app/models/organizations.server'
import { getDatabaseHandle } from './db.server'
import { seedDemo } from './seed.server'

export async function prepareDatabase(options: { log?: (message: string) => void } = {}) {
  const log = options.log ?? (() => {})
  // Fail at boot, not on the first request, when the environment is wrong.
  getEnv()
  const handle = getDatabaseHandle()
  await handle.migrate()
  log(`database migrated (${handle.driver})`)
  const wantDemo =
    process.env.SEED_DEMO === '1' || (process.env.SEED_DEMO !== '0' && handle.driver === 'pglite')
  if (!wantDemo) return
  if (await hasPlatformOrganization(handle.db)) return
  await seedDemo(handle.db)
  log('demo data seeded (see README for the accounts)')
}
