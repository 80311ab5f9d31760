// An agency's consent texts for its lead forms (ADR 050): versions only ever added.
import { and, desc, eq, sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { consentTexts } from '#drizzle/schema'

export type ConsentText = typeof consentTexts.$inferSelect

/**
 * The next version of the agency's text; null when a concurrent save took the same number (the
 * unique key waited for it), so the caller asks again.
 */
export async function insertConsentText(db: Queryable, organizationId: string, body: string) {
  const [row] = await db
    .insert(consentTexts)
    .values({
      organizationId,
      body,
      version: sql`(select coalesce(max(${consentTexts.version}), 0) + 1 from ${consentTexts} where ${consentTexts.organizationId} = ${organizationId})`,
    })
    .onConflictDoNothing()
    .returning()
  return row ?? null
}

/** The version the lead forms show now (its body may be empty: no consent asked). */
export async function findCurrentConsentText(db: Queryable, organizationId: string) {
  const [row] = await db
    .select({ id: consentTexts.id, version: consentTexts.version, body: consentTexts.body })
    .from(consentTexts)
    .where(eq(consentTexts.organizationId, organizationId))
    .orderBy(desc(consentTexts.version))
    .limit(1)
  return row
}

/** The agency's versions, newest first (the Branding screen's history). */
export async function listConsentTexts(db: Queryable, organizationId: string, limit = 20) {
  return db
    .select()
    .from(consentTexts)
    .where(eq(consentTexts.organizationId, organizationId))
    .orderBy(desc(consentTexts.version))
    .limit(limit)
}

/** One version of the agency's text, as a lead's data page quotes it. */
export async function findConsentText(db: Queryable, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(consentTexts)
    .where(and(eq(consentTexts.organizationId, organizationId), eq(consentTexts.id, id)))
  return row
}
