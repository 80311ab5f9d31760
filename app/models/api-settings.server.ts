// A user's CRM settings (spec: api_settings, scoped to the user). The key is stored sealed
// (app/utils/secret-box.server.ts); only its last four characters are ever read back out.
import { and, eq } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { apiSettings } from '#drizzle/schema'

export type ApiSettingsRow = typeof apiSettings.$inferSelect

const owned = (organizationId: string, userId: string) =>
  and(eq(apiSettings.organizationId, organizationId), eq(apiSettings.userId, userId))

export async function findApiSettings(db: Queryable, organizationId: string, userId: string) {
  const [row] = await db.select().from(apiSettings).where(owned(organizationId, userId))
  return row
}

export type ApiSettingsChange = {
  sealedKey: string | null
  keyLast4: string | null
  locationId: string | null
  enabled: boolean
  validatedAt: Date | null
  /** The CRM new contacts go to from now on (ADR 094); unchanged when left out. */
  provider?: ApiSettingsRow['crmProvider']
}

export async function saveApiSettings(
  db: Queryable,
  organizationId: string,
  userId: string,
  change: ApiSettingsChange,
) {
  await upsertCrmSettings(db, organizationId, userId, change, {
    gohighlevelApiKeyEncrypted: change.sealedKey,
    gohighlevelApiKeyLast4: change.keyLast4,
    gohighlevelLocationId: change.locationId,
  })
}

/** One CRM's columns with the switch, written into the person's row (made if missing). */
async function upsertCrmSettings(
  db: Queryable,
  organizationId: string,
  userId: string,
  change: Pick<HubspotChange, 'enabled' | 'validatedAt' | 'provider'>,
  columns: Partial<ApiSettingsRow>,
) {
  const values = {
    ...columns,
    enabled: change.enabled,
    validatedAt: change.validatedAt,
    ...(change.provider ? { crmProvider: change.provider } : {}),
    updatedAt: new Date(),
  }
  await db
    .insert(apiSettings)
    .values({ organizationId, userId, ...values })
    .onConflictDoUpdate({ target: [apiSettings.organizationId, apiSettings.userId], set: values })
}

/** Only the switch (and which CRM it is for): the stored credentials stay as they are. */
export async function setCrmEnabled(
  db: Queryable,
  organizationId: string,
  userId: string,
  enabled: boolean,
  provider?: ApiSettingsRow['crmProvider'],
) {
  await db
    .update(apiSettings)
    .set({ enabled, ...(provider ? { crmProvider: provider } : {}), updatedAt: new Date() })
    .where(owned(organizationId, userId))
}

/** HubSpot's private app token, sealed (null removes it), and whether forwarding is on. */
export type HubspotChange = {
  sealedToken: string | null
  tokenLast4: string | null
  enabled: boolean
  validatedAt: Date | null
  provider?: ApiSettingsRow['crmProvider']
}

export async function saveHubspotSettings(
  db: Queryable,
  organizationId: string,
  userId: string,
  change: HubspotChange,
) {
  await upsertCrmSettings(db, organizationId, userId, change, {
    hubspotTokenEncrypted: change.sealedToken,
    hubspotTokenLast4: change.tokenLast4,
  })
}

/** A Salesforce connected app: the org's URL, the client id, the sealed client secret. */
export type SalesforceChange = {
  instanceUrl: string | null
  clientId: string | null
  sealedSecret: string | null
  secretLast4: string | null
  enabled: boolean
  validatedAt: Date | null
  provider?: ApiSettingsRow['crmProvider']
}

export async function saveSalesforceSettings(
  db: Queryable,
  organizationId: string,
  userId: string,
  change: SalesforceChange,
) {
  await upsertCrmSettings(db, organizationId, userId, change, {
    salesforceInstanceUrl: change.instanceUrl,
    salesforceClientId: change.clientId,
    salesforceClientSecretEncrypted: change.sealedSecret,
    salesforceClientSecretLast4: change.secretLast4,
  })
}

/** The sealed secrets again, sealed under the current APP_SECRET; only the ones given change. */
export async function resealCrmSecrets(
  db: Queryable,
  organizationId: string,
  userId: string,
  sealed: Partial<
    Pick<
      ApiSettingsRow,
      'gohighlevelApiKeyEncrypted' | 'hubspotTokenEncrypted' | 'salesforceClientSecretEncrypted'
    >
  >,
) {
  if (Object.keys(sealed).length === 0) return
  await db
    .update(apiSettings)
    .set({ ...sealed, updatedAt: new Date() })
    .where(owned(organizationId, userId))
}
