// Start-up work: apply migrations, seed the demo when the database is empty and the demo is
// wanted (always on the embedded database, on Postgres only with SEED_DEMO=1), then on
// Postgres hand requests to a connection that logs in as the non-owner role brandcard_app.

import { createHmac } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { getEnv } from '#app/env.server'
import { hasPlatformOrganization } from '#app/models/organizations.server'
import { secureDataDir } from '#app/utils/private-files.server'
import {
  type DatabaseHandle,
  getDatabaseHandle,
  openPostgres,
  setDatabaseHandle,
} from './db.server'
import { seedDemo } from './seed.server'

type Log = (message: string) => void

export async function prepareDatabase(options: { log?: Log } = {}) {
  const log = options.log ?? (() => {})
  // Before anything is written: DATA_DIR holds password hashes and the generated secret.
  secureDataDir(process.env.DATA_DIR ?? './data')
  // Fail at boot, not on the first request, when the environment is wrong.
  getEnv()
  const owner = getDatabaseHandle()
  await owner.migrate()
  log(`database migrated (${owner.driver})`)
  const wantDemo =
    process.env.SEED_DEMO === '1' || (process.env.SEED_DEMO !== '0' && owner.driver === 'pglite')
  if (wantDemo && !(await hasPlatformOrganization(owner.db))) {
    await seedDemo(owner.db)
    log('demo data seeded (see README for the accounts)')
  }
  if (owner.driver === 'postgres') await connectAsAppRole(owner, log)
  // PGlite has no autovacuum: the planner would otherwise never see how large the tables have
  // grown (a data directory filled by an import, a restore or months of use).
  else await owner.db.execute(sql`analyze`)
}

/**
 * Requests run as brandcard_app: not the tables' owner, not a superuser, no BYPASSRLS, so
 * row-level security holds even for a query that never switches role. DATABASE_APP_URL names
 * that login; without it the owner enables the role's login with a password derived from
 * APP_SECRET (the same on every instance that shares the secret).
 */
async function connectAsAppRole(owner: DatabaseHandle, log: Log) {
  const env = getEnv()
  let appUrl = env.DATABASE_APP_URL
  if (!appUrl) {
    const password = createHmac('sha256', env.APP_SECRET)
      .update('brandcard_app database login')
      .digest('hex')
    try {
      // A hex digest: safe to inline (ALTER ROLE takes no bind parameters).
      await owner.db.execute(sql.raw(`alter role brandcard_app with login password '${password}'`))
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      log(
        `requests stay on the owner's connection with a per-transaction role switch (could not enable the brandcard_app login: ${reason}); set DATABASE_APP_URL`,
      )
      return
    }
    const url = new URL(env.DATABASE_URL ?? '')
    url.username = 'brandcard_app'
    url.password = password
    appUrl = url.toString()
  }
  const app = openPostgres(appUrl)
  try {
    await assertUnprivileged(app)
  } catch (error) {
    await app.close()
    throw error
  }
  setDatabaseHandle(app)
  await owner.close()
  log('database: requests run as brandcard_app (not the owner, no superuser, no BYPASSRLS)')
}

async function assertUnprivileged(app: DatabaseHandle) {
  const rows = (await app.db.execute(sql`
    select current_user as name, r.rolsuper as superuser, r.rolbypassrls as bypassrls,
      exists (select 1 from pg_tables where schemaname = 'public' and tableowner = current_user)
        as owns_tables
    from pg_roles r where r.rolname = current_user`)) as unknown as {
    name: string
    superuser: boolean
    bypassrls: boolean
    owns_tables: boolean
  }[]
  const role = rows[0]
  if (!role || role.superuser || role.bypassrls || role.owns_tables) {
    throw new Error(
      `The request connection must not be a superuser, have BYPASSRLS or own the tables (got ${role?.name ?? 'nothing'})`,
    )
  }
}
