// A fresh Postgres database for a server the tests start, and the environment that runs that
// server as in production. Apart from e2e/server-database.ts, which opens databases itself: the
// specs that start their own servers import this, and load none of the app's server modules with
// it (Playwright's runner loads every spec to list the tests).
import postgres from 'postgres'
import { TEST_APP_SECRET } from '#tests/app-secret'

/**
 * An empty database `name` on the Postgres server at serverUrl (one left behind by a killed run
 * is replaced): its URL, for the owner's handle and the server, and how to drop it afterwards.
 * Also used by `npm run bench` (bench/database.ts).
 */
export async function createFreshPostgresDatabase(serverUrl: string, name: string) {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`drop database if exists "${name}" with (force)`)
  await admin.unsafe(`create database "${name}"`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`)
      await admin.end()
    },
  }
}

/**
 * What a server on that database adds to its environment to run as in production: APP_SECRET
 * set and no DATABASE_APP_URL, so the server gives brandcard_app its login and every request
 * runs as it (RLS applies). The secret is the test one: the role is cluster-wide (tests/app-secret.ts).
 */
export function productionServerEnv(databaseUrl: string): Record<string, string | undefined> {
  return { DATABASE_URL: databaseUrl, DATABASE_APP_URL: undefined, APP_SECRET: TEST_APP_SECRET }
}
