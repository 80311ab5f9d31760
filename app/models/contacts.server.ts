import { and, desc, eq, getTableColumns, ilike, notExists, or, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { ContactFilters } from '#app/validation/contact-filters'
import type { Queryable } from '#drizzle/db.server'
import { consentTexts, contacts, digitalCards, users } from '#drizzle/schema'
import { type KeysetPage, keyset } from './keyset.server'
import { containsPattern } from './search.server'
import { tenantJoin } from './tenant-join.server'

export type Contact = typeof contacts.$inferSelect
export type NewContact = Pick<typeof contacts.$inferInsert, 'fullName'> &
  Partial<
    Pick<
      Contact,
      | 'email'
      | 'phoneNumber'
      | 'company'
      | 'jobTitle'
      | 'note'
      | 'source'
      | 'sourceCardId'
      | 'consentTextId'
      | 'consentGivenAt'
      | 'consentPage'
      | 'dataTokenHash'
    >
  >

const owned = (organizationId: string, userId: string) =>
  and(eq(contacts.organizationId, organizationId), eq(contacts.userId, userId))

export async function findContactByEmail(
  db: Queryable,
  organizationId: string,
  userId: string,
  email: string,
) {
  if (!email.trim()) return undefined
  const [row] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(
      and(
        owned(organizationId, userId),
        sql`lower(${contacts.email}) = ${email.trim().toLowerCase()}`,
      ),
    )
    .limit(1)
  return row
}

/**
 * Adds a contact to a user's list; a contact whose email is already in the list is not saved
 * again (spec: 'This contact is already in your list').
 */
export async function addContact(
  db: Queryable,
  organizationId: string,
  userId: string,
  input: NewContact,
): Promise<{ status: 'created'; contact: Contact } | { status: 'duplicate' }> {
  if (input.email && (await findContactByEmail(db, organizationId, userId, input.email))) {
    return { status: 'duplicate' }
  }
  const [contact] = await db
    .insert(contacts)
    .values({ ...input, email: input.email?.trim() ?? '', organizationId, userId })
    .returning()
  if (!contact) throw new Error('contact insert returned nothing')
  return { status: 'created', contact }
}

/** Joins a contact to the consent text it agreed to (none for a contact without consent). */
export const consentTextOfContact = tenantJoin(
  consentTexts,
  contacts,
  consentTexts.id,
  contacts.consentTextId,
)

/** The consent a lead gave (ADR 050): when, on which page, and to which version of the text. */
export const consentOfContact = {
  consentGivenAt: contacts.consentGivenAt,
  consentPage: contacts.consentPage,
  consentVersion: consentTexts.version,
}

// What the owner's list and exports show of a contact: every column but the lead's link-token
// hash (ADR 050), and the version of the consent text a lead agreed to (null without consent).
const { dataTokenHash: _tokenHash, ...listedColumns } = getTableColumns(contacts)

/** What a list of contacts is narrowed to: the search box's text and the list's filters. */
export type ContactQuery = ContactFilters & { search?: string }

/**
 * A user's contacts, newest first, optionally narrowed by name, email or company, by how they
 * came (source) and by personal or company (ADR 049), each with the version of the consent text
 * it agreed to (a lead's, ADR 050), so the owner sees the consent.
 */
export async function listContacts(
  db: Queryable,
  organizationId: string,
  userId: string,
  { search = '', source, kind }: ContactQuery = {},
  limit = 500,
) {
  const term = search.trim()
  const pattern = containsPattern(term)
  return db
    .select({ ...listedColumns, consentVersion: consentTexts.version })
    .from(contacts)
    .leftJoin(consentTexts, consentTextOfContact)
    .where(
      and(
        owned(organizationId, userId),
        term
          ? or(
              ilike(contacts.fullName, pattern),
              ilike(contacts.email, pattern),
              ilike(contacts.company, pattern),
            )
          : undefined,
        source ? eq(contacts.source, source) : undefined,
        kind ? eq(contacts.personal, kind === 'personal') : undefined,
      ),
    )
    .orderBy(desc(contacts.createdAt), desc(contacts.id))
    .limit(limit)
}

/** Joins a contact to the card it was met on (none for one added by hand or whose card is gone). */
const cardOfContact = tenantJoin(digitalCards, contacts, digitalCards.id, contacts.sourceCardId)

/**
 * One of a user's contacts for its page, with its consent and the card it was met on: the
 * owner's own card (a lead, a connection) or the other person's (a card they saved or connected
 * from), with that card's title and whose it is. Another user's contact is not found.
 */
export async function findContactForOwner(
  db: Queryable,
  organizationId: string,
  userId: string,
  contactId: string,
) {
  const [row] = await db
    .select({
      ...listedColumns,
      consentVersion: consentTexts.version,
      card: {
        id: digitalCards.id,
        title: digitalCards.title,
        userId: digitalCards.userId,
        firstName: digitalCards.firstName,
        lastName: digitalCards.lastName,
      },
    })
    .from(contacts)
    .leftJoin(consentTexts, consentTextOfContact)
    .leftJoin(digitalCards, cardOfContact)
    .where(and(owned(organizationId, userId), eq(contacts.id, contactId)))
  return row
}

/**
 * What a lead's receipt link shows them (ADR 050): the details they left, whose list they are
 * in, and the consent they gave, found by the link token's hash.
 */
export async function findLeadByDataToken(
  db: Queryable,
  organizationId: string,
  tokenHash: string,
) {
  const [row] = await db
    .select({
      id: contacts.id,
      fullName: contacts.fullName,
      email: contacts.email,
      phoneNumber: contacts.phoneNumber,
      company: contacts.company,
      note: contacts.note,
      createdAt: contacts.createdAt,
      ownerFirstName: users.firstName,
      ownerLastName: users.lastName,
      ...consentOfContact,
      consentText: consentTexts.body,
    })
    .from(contacts)
    .innerJoin(users, tenantJoin(users, contacts, users.id, contacts.userId))
    .leftJoin(consentTexts, consentTextOfContact)
    .where(and(eq(contacts.organizationId, organizationId), eq(contacts.dataTokenHash, tokenHash)))
  return row
}

/** The lead's own deletion through its receipt link; what was deleted, or undefined. */
export async function deleteLeadByDataToken(
  db: Queryable,
  organizationId: string,
  tokenHash: string,
) {
  const [row] = await db
    .delete(contacts)
    .where(and(eq(contacts.organizationId, organizationId), eq(contacts.dataTokenHash, tokenHash)))
    .returning({ id: contacts.id, userId: contacts.userId })
  return row
}

/** Marks one of a user's contacts as personal (kept on a hand-over) or the company's. */
export async function setContactPersonal(
  db: Queryable,
  organizationId: string,
  userId: string,
  contactId: string,
  personal: boolean,
) {
  const updated = await db
    .update(contacts)
    .set({ personal })
    .where(and(owned(organizationId, userId), eq(contacts.id, contactId)))
    .returning({ id: contacts.id })
  return updated.length > 0
}

/**
 * Hands a departing user's company contacts (every one not marked personal) to a successor in
 * one statement. A contact whose email the successor already has stays where it is: the
 * successor's list keeps one row per email, as adding a contact does. Returns how many moved.
 */
export async function moveCompanyContacts(
  db: Queryable,
  organizationId: string,
  fromUserId: string,
  toUserId: string,
) {
  const theirs = alias(contacts, 'successor_contact')
  const moved = await db
    .update(contacts)
    .set({ userId: toUserId })
    .where(
      and(
        owned(organizationId, fromUserId),
        eq(contacts.personal, false),
        or(
          eq(contacts.email, ''),
          notExists(
            db
              .select({ id: theirs.id })
              .from(theirs)
              .where(
                and(
                  eq(theirs.organizationId, organizationId),
                  eq(theirs.userId, toUserId),
                  sql`lower(${theirs.email}) = lower(${contacts.email})`,
                ),
              ),
          ),
        ),
      ),
    )
    .returning({ id: contacts.id })
  return moved.length
}

/**
 * The organization's contacts for the REST API (ADR 092), every owner's, in (updated at, id)
 * order from a keyset page, optionally of one source (leads: 'lead'); never the lead's link-token
 * hash.
 */
export function listOrganizationContacts(
  db: Queryable,
  organizationId: string,
  page: KeysetPage & { source?: Contact['source'] | null },
) {
  const set = keyset(contacts.updatedAt, contacts.id, page)
  return db
    .select({ ...listedColumns, consentVersion: consentTexts.version, position: set.position })
    .from(contacts)
    .leftJoin(consentTexts, consentTextOfContact)
    .where(
      and(
        eq(contacts.organizationId, organizationId),
        page.source ? eq(contacts.source, page.source) : undefined,
        set.where,
      ),
    )
    .orderBy(...set.orderBy)
    .limit(set.limit)
}

/** One contact of the organization, whoever's list it is in (the REST API). */
export async function findOrganizationContact(
  db: Queryable,
  organizationId: string,
  contactId: string,
) {
  const [row] = await db
    .select({ ...listedColumns, consentVersion: consentTexts.version })
    .from(contacts)
    .leftJoin(consentTexts, consentTextOfContact)
    .where(and(eq(contacts.organizationId, organizationId), eq(contacts.id, contactId)))
  return row
}

/** Deletes one contact of the organization; what was deleted (for the lead's rules), or undefined. */
export async function deleteOrganizationContact(
  db: Queryable,
  organizationId: string,
  contactId: string,
) {
  const [row] = await db
    .delete(contacts)
    .where(and(eq(contacts.organizationId, organizationId), eq(contacts.id, contactId)))
    .returning({
      id: contacts.id,
      userId: contacts.userId,
      source: contacts.source,
      email: contacts.email,
      dataTokenHash: contacts.dataTokenHash,
    })
  return row
}
