// Forwarding new contacts to the user's CRM through the job queue (ADR 019): the contact's save
// only adds a sync row and a job in its own transaction; the worker makes the call, with
// retries and backoff, so a slow or failing CRM never slows or fails the save. The sync row
// holds the CRM's contact id once it is known, so a job that runs twice creates nothing more.
import { type JobHandler, PermanentJobError } from '#app/jobs/worker.server'
import {
  type ApiSettingsRow,
  findApiSettings,
  resealCrmSecrets,
} from '#app/models/api-settings.server'
import { addContact, type NewContact } from '#app/models/contacts.server'
import {
  type CrmProvider,
  findContactForSync,
  findCrmSync,
  insertCrmSync,
  markCrmSynced,
  recordCrmContactId,
  recordCrmSyncFailure,
  resetFailedCrmSync,
} from '#app/models/crm-syncs.server'
import { insertJob, requeueJobByKey } from '#app/models/jobs.server'
import { needsReseal, openAtRest, sealAtRest } from '#app/utils/secret-box.server'
import { API_SETTINGS_MESSAGES, CRM_MESSAGES } from '#app/validation/api-settings'
import { emitContactCreated } from '#app/webhooks/webhook-events.server'
import { type Queryable, withTenant } from '#drizzle/db.server'
import { CrmKeyRejectedError, CrmRecordRefusedError } from './crm-call.server'
import { connectionOf, isForwardingOn, removeContact, sendContact } from './providers.server'

const jobKey = (contactId: string) => `crm.forward:${contactId}`
export const CRM_MAX_ATTEMPTS = 6

/**
 * Adds a contact to a user's list and, when it is new, queues it for the user's CRM and the
 * agency's webhooks in the same transaction: every new contact, however it came (saved,
 * connected, lead form), reaches them.
 */
export async function addContactAndForward(
  db: Queryable,
  organizationId: string,
  userId: string,
  input: NewContact,
) {
  const added = await addContact(db, organizationId, userId, input)
  if (added.status === 'created') {
    await queueCrmForward(db, organizationId, userId, added.contact.id)
    // contact.created (and lead.created for a lead) for the agency's webhooks (ADR 093).
    await emitContactCreated(db, organizationId, added.contact)
  }
  return added
}

/** Called in the transaction that saved a new contact: queues it when the user's CRM is on. */
export async function queueCrmForward(
  db: Queryable,
  organizationId: string,
  userId: string,
  contactId: string,
) {
  const settings = await findApiSettings(db, organizationId, userId)
  if (!settings || !isForwardingOn(settings)) return
  await insertCrmSync(db, organizationId, userId, contactId, settings.crmProvider)
  await insertJob(db, {
    name: 'crm.forward',
    organizationId,
    payload: { contactId },
    idempotencyKey: jobKey(contactId),
    maxAttempts: CRM_MAX_ATTEMPTS,
  })
}

/** The user's 'Retry' on a failed forwarding; false when there is nothing of theirs to retry. */
export async function retryCrmForward(organizationId: string, userId: string, contactId: string) {
  return withTenant(organizationId, async (tx) => {
    if (!(await resetFailedCrmSync(tx, organizationId, userId, contactId))) return false
    if (!(await requeueJobByKey(tx, jobKey(contactId)))) {
      // Its job was cleared away meanwhile: a new one.
      await insertJob(tx, {
        name: 'crm.forward',
        organizationId,
        payload: { contactId },
        idempotencyKey: jobKey(contactId),
        maxAttempts: CRM_MAX_ATTEMPTS,
      })
    }
    return true
  })
}

// Where they are defined now; still importable from here (ADR 050's tests).
export { CRM_CONSENT_FIELD, CRM_CONSENT_TAG } from './providers.server'

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error))

export const forwardContactToCrm: JobHandler = {
  async run(job) {
    const organizationId = job.organizationId
    const contactId = job.payload.contactId
    if (!organizationId || !contactId) return
    const found = await withTenant(organizationId, async (tx) => {
      const sync = await findCrmSync(tx, organizationId, contactId)
      if (!sync || sync.state === 'synced') return null
      const contact = await findContactForSync(tx, organizationId, contactId)
      const settings = await findApiSettings(tx, organizationId, sync.userId)
      return contact ? { contact, settings, sync } : null
    })
    // Deleted since, or already in the CRM (an earlier run whose end went unrecorded).
    if (!found) return
    const { contact, settings, sync } = found
    const fail = async (message: string, final: boolean) => {
      await withTenant(organizationId, (tx) =>
        recordCrmSyncFailure(tx, organizationId, contactId, message, final),
      )
    }
    const connection = settings && isForwardingOn(settings) ? connectionOf(settings) : null
    if (!settings || !connection) {
      await fail('CRM integration disabled', true)
      throw new PermanentJobError('CRM integration disabled')
    }
    await resealIfNeeded(organizationId, settings)
    const { provider } = connection
    // An id an earlier run recorded, if it was for this CRM (the user may have switched since).
    const knownId = sync.provider === provider ? sync.crmContactId : null
    try {
      const crmContactId = await sendContact(connection, contact, knownId, (id) =>
        withTenant(organizationId, (tx) =>
          recordCrmContactId(tx, organizationId, contactId, id, provider),
        ),
      )
      await withTenant(organizationId, (tx) =>
        markCrmSynced(tx, organizationId, contactId, crmContactId, provider),
      )
    } catch (error) {
      if (error instanceof CrmKeyRejectedError) {
        await fail(REFUSED_MESSAGES[provider], true)
        throw new PermanentJobError(error.message)
      }
      if (error instanceof CrmRecordRefusedError) {
        // The CRM's own reason (a consent field not created yet, a value it does not take):
        // retrying would send the same, so the user sees it at once with Retry.
        await fail(error.message, true)
        throw new PermanentJobError(error.message)
      }
      await fail(errorText(error), false)
      throw error
    }
  },
  async onDead(job, error) {
    const organizationId = job.organizationId
    const contactId = job.payload.contactId
    if (!organizationId || !contactId) return
    await withTenant(organizationId, async (tx) => {
      const sync = await findCrmSync(tx, organizationId, contactId)
      // The handler already recorded a permanent failure in its own words.
      if (sync && sync.state === 'pending') {
        await recordCrmSyncFailure(tx, organizationId, contactId, error, true)
      }
    })
  },
}

/**
 * Called in the transaction that deletes a lead at its own request (ADR 050), before the delete
 * (the sync row goes with the contact): when the CRM holds the contact, a job deletes it there.
 * A contact not forwarded yet needs nothing: its forward job finds no contact and stops.
 */
export async function queueCrmDeletion(db: Queryable, organizationId: string, contactId: string) {
  const sync = await findCrmSync(db, organizationId, contactId)
  if (!sync?.crmContactId) return false
  await insertJob(db, {
    name: 'crm.delete',
    organizationId,
    // The CRM's id, which CRM holds it and whose CRM it is: the contact and its sync row are
    // gone when this runs (ADR 094: the CRM that holds it, whichever is connected now).
    payload: { userId: sync.userId, crmContactId: sync.crmContactId, provider: sync.provider },
    idempotencyKey: `crm.delete:${contactId}`,
    maxAttempts: CRM_MAX_ATTEMPTS,
  })
  return true
}

const PROVIDERS: readonly CrmProvider[] = ['gohighlevel', 'hubspot', 'salesforce']

export const deleteContactFromCrm: JobHandler = {
  async run(job) {
    const organizationId = job.organizationId
    const { userId, crmContactId } = job.payload
    // Jobs queued before ADR 094 name no provider: GoHighLevel was the only one.
    const provider = PROVIDERS.find((name) => name === job.payload.provider) ?? 'gohighlevel'
    if (!organizationId || !userId || !crmContactId) return
    const settings = await withTenant(organizationId, (tx) =>
      findApiSettings(tx, organizationId, userId),
    )
    // The owner turned the CRM off or removed its credentials since: nothing here can reach it.
    const connection = settings?.enabled ? connectionOf(settings, provider) : null
    if (!connection) throw new PermanentJobError('CRM integration disabled')
    try {
      await removeContact(connection, crmContactId)
    } catch (error) {
      if (error instanceof CrmKeyRejectedError) throw new PermanentJobError(error.message)
      throw error
    }
  },
}

/** Keys sealed under APP_SECRET_PREVIOUS are sealed again under the current secret when used. */
async function resealIfNeeded(organizationId: string, settings: ApiSettingsRow) {
  const columns = [
    'gohighlevelApiKeyEncrypted',
    'hubspotTokenEncrypted',
    'salesforceClientSecretEncrypted',
  ] as const
  const resealed: Partial<Record<(typeof columns)[number], string>> = {}
  for (const column of columns) {
    const sealed = settings[column]
    if (sealed && needsReseal(sealed)) resealed[column] = sealAtRest(openAtRest(sealed))
  }
  if (Object.keys(resealed).length === 0) return
  await withTenant(organizationId, (tx) =>
    resealCrmSecrets(tx, organizationId, settings.userId, resealed),
  )
}

/** What a contact's row says when the CRM refuses the credentials (GoHighLevel's: the spec's). */
const REFUSED_MESSAGES: Record<CrmProvider, string> = {
  gohighlevel: API_SETTINGS_MESSAGES.keyInvalid,
  hubspot: CRM_MESSAGES.hubspotRefusedAtSync,
  salesforce: CRM_MESSAGES.salesforceRefusedAtSync,
}
