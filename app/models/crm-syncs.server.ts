// How each new contact's forwarding to the CRM went (one row per contact).
import { and, desc, eq, sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { consentTexts, contacts, crmSyncs, digitalCards } from '#drizzle/schema'
import { consentOfContact, consentTextOfContact } from './contacts.server'
import { tenantJoin } from './tenant-join.server'

export type CrmSync = typeof crmSyncs.$inferSelect
export type CrmProvider = CrmSync['provider']

const one = (organizationId: string, contactId: string) =>
  and(eq(crmSyncs.organizationId, organizationId), eq(crmSyncs.contactId, contactId))

/** A new contact's sync row, naming the CRM it is queued for (ADR 094). */
export async function insertCrmSync(
  db: Queryable,
  organizationId: string,
  userId: string,
  contactId: string,
  provider: CrmProvider = 'gohighlevel',
) {
  await db
    .insert(crmSyncs)
    .values({ organizationId, userId, contactId, provider })
    .onConflictDoNothing({ target: [crmSyncs.organizationId, crmSyncs.contactId] })
}

export async function findCrmSync(db: Queryable, organizationId: string, contactId: string) {
  const [row] = await db.select().from(crmSyncs).where(one(organizationId, contactId))
  return row
}

export async function markCrmSynced(
  db: Queryable,
  organizationId: string,
  contactId: string,
  crmContactId: string,
  provider: CrmProvider = 'gohighlevel',
) {
  await db
    .update(crmSyncs)
    .set({
      state: 'synced',
      provider,
      crmContactId,
      lastError: null,
      attempts: sql`${crmSyncs.attempts} + 1`,
      syncedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(one(organizationId, contactId))
}

/**
 * The CRM's id for the contact, known before the sync is done (HubSpot's contact before its
 * note): a run after a crash finds it and does not create the contact again.
 */
export async function recordCrmContactId(
  db: Queryable,
  organizationId: string,
  contactId: string,
  crmContactId: string,
  provider: CrmProvider,
) {
  await db
    .update(crmSyncs)
    .set({ provider, crmContactId, updatedAt: new Date() })
    .where(one(organizationId, contactId))
}

/** One failed attempt; `failed` when no further attempt will be made. */
export async function recordCrmSyncFailure(
  db: Queryable,
  organizationId: string,
  contactId: string,
  error: string,
  final: boolean,
) {
  await db
    .update(crmSyncs)
    .set({
      lastError: error,
      ...(final ? { state: 'failed' as const } : { attempts: sql`${crmSyncs.attempts} + 1` }),
      updatedAt: new Date(),
    })
    .where(one(organizationId, contactId))
}

/** A failed forwarding of the user's own contact goes back to pending; false if there is none. */
export async function resetFailedCrmSync(
  db: Queryable,
  organizationId: string,
  userId: string,
  contactId: string,
) {
  const rows = await db
    .update(crmSyncs)
    .set({ state: 'pending', lastError: null, updatedAt: new Date() })
    .where(
      and(
        one(organizationId, contactId),
        eq(crmSyncs.userId, userId),
        eq(crmSyncs.state, 'failed'),
      ),
    )
    .returning({ contactId: crmSyncs.contactId })
  return rows.length > 0
}

/** The user's most recent forwardings with the contact each is about, newest first. */
export async function listCrmSyncs(
  db: Queryable,
  organizationId: string,
  userId: string,
  limit = 50,
) {
  return db
    .select({
      contactId: crmSyncs.contactId,
      fullName: contacts.fullName,
      email: contacts.email,
      state: crmSyncs.state,
      provider: crmSyncs.provider,
      attempts: crmSyncs.attempts,
      lastError: crmSyncs.lastError,
      syncedAt: crmSyncs.syncedAt,
      updatedAt: crmSyncs.updatedAt,
    })
    .from(crmSyncs)
    .innerJoin(contacts, tenantJoin(contacts, crmSyncs, contacts.id, crmSyncs.contactId))
    .where(and(eq(crmSyncs.organizationId, organizationId), eq(crmSyncs.userId, userId)))
    .orderBy(desc(crmSyncs.createdAt))
    .limit(limit)
}

/** The contact a sync row is about, with what the CRM is sent (its consent, ADR 050; the card it was met on, ADR 094). */
export async function findContactForSync(db: Queryable, organizationId: string, contactId: string) {
  const [row] = await db
    .select({
      fullName: contacts.fullName,
      email: contacts.email,
      phoneNumber: contacts.phoneNumber,
      company: contacts.company,
      jobTitle: contacts.jobTitle,
      source: contacts.source,
      createdAt: contacts.createdAt,
      cardTitle: digitalCards.title,
      ...consentOfContact,
    })
    .from(contacts)
    .leftJoin(consentTexts, consentTextOfContact)
    .leftJoin(
      digitalCards,
      tenantJoin(digitalCards, contacts, digitalCards.id, contacts.sourceCardId),
    )
    .where(and(eq(contacts.organizationId, organizationId), eq(contacts.id, contactId)))
  return row
}
