// Writes the storage states of e2e/sessions.ts: one session per seeded account, created as a
// sign-in creates it (token in the cookie, its hash in the database, "Last Active" set), on the
// database e2e/start-server.ts has just seeded, before the server starts.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { and, eq } from 'drizzle-orm'
import { createSession } from '#app/auth/session.server'
import { getDb } from '#drizzle/db.server'
import { users } from '#drizzle/schema'
import {
  SESSION_USERS,
  sessionStorageState,
  storageStateFile,
  storageStateFolder,
} from './sessions'

/** `organizations` maps each host of SESSION_USERS to its organization's id. */
export async function writeSessionStates(port: number, organizations: Record<string, string>) {
  // A previous run's files name sessions of a database that is gone.
  rmSync(storageStateFolder(port), { recursive: true, force: true })
  mkdirSync(storageStateFolder(port), { recursive: true })
  for (const { email, host } of SESSION_USERS) {
    const organizationId = organizations[host]
    if (!organizationId) throw new Error(`No organization given for ${host} (${email})`)
    const [user] = await getDb()
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.organizationId, organizationId), eq(users.email, email)))
    if (!user) throw new Error(`${email} is not seeded on ${host}`)
    const { token } = await createSession(organizationId, user.id)
    writeFileSync(
      storageStateFile(port, email),
      JSON.stringify(sessionStorageState(host, token), null, 2),
    )
  }
}
