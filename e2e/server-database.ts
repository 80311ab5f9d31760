// The database an e2e server starts on, by target (e2e/start-server.ts):
// - embedded: a fresh PGlite data directory in tests/.tmp, the default configuration, loaded from
//   the migrated snapshot (tests/pglite-snapshots.ts);
// - production: a fresh database on the Postgres server named by TEST_DATABASE_URL, migrated and
//   seeded through the owner's login (DATABASE_URL), then served the way production is: APP_SECRET
//   set and no DATABASE_APP_URL, so the server itself gives the role brandcard_app its login
//   and every request runs as it (not the owner, no superuser, no BYPASSRLS: RLS applies).
import { rmSync } from 'node:fs'
import path from 'node:path'
import { type DatabaseHandle, openPostgres } from '#drizzle/db.server'
import { openMigratedPglite } from '#tests/pglite-snapshots'
import { E2E_PORT, E2E_PRODUCTION_PORT } from './fixtures'
import { createFreshPostgresDatabase, productionServerEnv } from './postgres-database'

export type E2eTarget = 'embedded' | 'production'

export type ServerDatabase = {
  /** The owner's handle: migrate and seed through it, then close it before the server starts. */
  handle: DatabaseHandle
  port: number
  /** What the server's environment adds (an undefined value removes a variable). */
  serverEnv: Record<string, string | undefined>
  /** Called once the server has exited. */
  drop(): Promise<void>
}

export function parseTarget(value: string | undefined): E2eTarget {
  if (value === undefined || value === 'embedded') return 'embedded'
  if (value === 'production') return 'production'
  throw new Error(`Unknown e2e target ${value} (embedded or production)`)
}

export function openServerDatabase(target: E2eTarget): Promise<ServerDatabase> {
  return target === 'production' ? openProductionDatabase() : openEmbeddedDatabase()
}

async function openEmbeddedDatabase(): Promise<ServerDatabase> {
  const dataDir = path.resolve(`tests/.tmp/e2e-${E2E_PORT}`)
  rmSync(dataDir, { recursive: true, force: true })
  // From the migrated snapshot that vitest's global setup kept (or made now): not initdb and every
  // migration again while the specs wait for this server.
  return {
    handle: await openMigratedPglite(path.join(dataDir, 'pglite')),
    port: E2E_PORT,
    serverEnv: { DATA_DIR: dataDir, DATABASE_URL: undefined },
    drop: async () => {},
  }
}

async function openProductionDatabase(): Promise<ServerDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (!serverUrl) throw new Error('The production e2e server needs TEST_DATABASE_URL')
  const port = E2E_PRODUCTION_PORT
  // One name per port: a run that was killed before it could drop its database leaves at most
  // this one behind, and the next run on the port replaces it.
  const database = await createFreshPostgresDatabase(serverUrl, `brandcard_e2e_${port}`)
  const dataDir = path.resolve(`tests/.tmp/e2e-${port}`)
  rmSync(dataDir, { recursive: true, force: true })
  return {
    handle: openPostgres(database.url),
    port,
    serverEnv: {
      ...productionServerEnv(database.url),
      // Nothing is written there with DATABASE_URL set; kept out of ./data all the same.
      DATA_DIR: dataDir,
    },
    drop: database.drop,
  }
}
