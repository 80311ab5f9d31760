// Seeds the accounts of e2e/spec-accounts.ts, and writes the storage states of e2e/sessions.ts:
// one session per seeded account, created as a sign-in creates it (token in the cookie, its hash
// in the database, "Last Active" set), on the database e2e/start-server.ts has just seeded,
// before the server starts.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { and, eq } from 'drizzle-orm'
import { createSession } from '#app/auth/session.server'
import { insertAgency } from '#app/models/agencies.server'
import { insertConsentText } from '#app/models/consent-texts.server'
import { addContact } from '#app/models/contacts.server'
import { getDb, withTenant } from '#drizzle/db.server'
import { users } from '#drizzle/schema'
import { makeCard, makeUser } from '#tests/factories'
import {
  SESSION_USERS,
  sessionStorageState,
  storageStateFile,
  storageStateFolder,
} from './sessions'
import { SPEC_ACCOUNTS, SPEC_AGENCIES, type SpecAccount, type SpecAgency } from './spec-accounts'

// Nobody signs in to these with a password: skipping argon2 keeps the server's start quick.
const NO_PASSWORD = { password: '', passwordHash: 'not-a-password-hash' }

/**
 * Seeds e2e/spec-accounts.ts: the accounts on their hosts' organizations, and each agency with its owner. Returns the
 * agencies' hosts and ids, for writeSessionStates.
 */
export async function seedSpecAccounts(
  organizationOf: Record<string, string>,
): Promise<Record<string, string>> {
  for (const account of Object.values(SPEC_ACCOUNTS) as SpecAccount[]) {
    const { email, firstName, lastName, emailConfirmed, plan } = account
    const organizationId = organizationOf[account.host]
    if (!organizationId) throw new Error(`No organization given for ${account.host} (${email})`)
    const user = await makeUser(organizationId, {
      email,
      firstName,
      lastName,
      role: 'end_user',
      plan: plan ?? 'free',
      emailConfirmedAt: emailConfirmed ? new Date() : null,
      ...NO_PASSWORD,
    })
    if (account.card) await makeCard(organizationId, user.id, { firstName, lastName, email })
  }
  const hosts: Record<string, string> = {}
  for (const agencySpec of Object.values(SPEC_AGENCIES) as SpecAgency[]) {
    const { name, slug, host, owner } = agencySpec
    // As app/agencies/manage-agencies.server.ts createAgency inserts it.
    const agency = await insertAgency(getDb(), {
      name,
      slug,
      ownerName: `${owner.firstName} ${owner.lastName}`,
      contactEmail: owner.email,
      subscriptionTier: 'starter',
      status: 'active',
    })
    // Setting a password from the emailed link does not confirm the address.
    await makeUser(agency.id, {
      ...owner,
      role: 'agency_admin',
      emailConfirmedAt: null,
      ...NO_PASSWORD,
    })
    if (agencySpec.consentText) {
      await withTenant(agency.id, (tx) =>
        insertConsentText(tx, agency.id, agencySpec.consentText as string),
      )
    }
    for (const endUser of agencySpec.endUsers ?? []) {
      const { card, contacts, password, ...account } = endUser
      const user = await makeUser(agency.id, {
        ...account,
        role: 'end_user',
        ...(password ? { password } : NO_PASSWORD),
      })
      if (card) {
        const { firstName, lastName, email } = account
        await makeCard(agency.id, user.id, { firstName, lastName, email })
      }
      for (const contact of contacts ?? []) {
        await withTenant(agency.id, (tx) => addContact(tx, agency.id, user.id, contact))
      }
    }
    hosts[host] = agency.id
  }
  return hosts
}

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
