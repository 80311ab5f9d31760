// Forwarding new contacts to the user's CRM through the job queue (ADR 019): the contact's save
// only adds a sync row and a job in its own transaction; the worker makes the call, with
// retries and backoff, so a slow or failing CRM never slows or fails the save. The sync row
// holds the CRM's contact id once it is known, so a job that runs twice creates nothing more.
import { type JobHandler, PermanentJobError } from '#app/jobs/worker.server'
import { findApiSettings, saveApiSettings } from '#app/models/api-settings.server'
import { addContact, type NewContact } from '#app/models/contacts.server'
import {
  findContactForSync,
  findCrmSync,
  insertCrmSync,
  markCrmSynced,
  recordCrmSyncFailure,
  resetFailedCrmSync,
} from '#app/models/crm-syncs.server'
import { insertJob, requeueJobByKey } from '#app/models/jobs.server'
import { needsReseal, openAtRest, sealAtRest } from '#app/utils/secret-box.server'
import { type Queryable, withTenant } from '#drizzle/db.server'
import {
  type CrmContact,
  CrmKeyRejectedError,
  deleteContact,
  upsertContact,
} from './gohighlevel.server'

const jobKey = (contactId: string) => `crm.forward:${contactId}`
export const CRM_MAX_ATTEMPTS = 6

/**
 * Adds a contact to a user's list and, when it is new, queues it for the user's CRM in the same
 * transaction: every new contact, however it came (saved, connected, lead form), reaches it.
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
  if (!settings?.enabled || !settings.gohighlevelApiKeyEncrypted) return
  await insertCrmSync(db, organizationId, userId, contactId)
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

/** The tag and custom field key a lead's consent reaches the CRM with (ADR 050). */
export const CRM_CONSENT_TAG = 'consent-given'
export const CRM_CONSENT_FIELD = 'lead_consent'

function toCrmContact(contact: {
  fullName: string
  email: string
  phoneNumber: string
  company: string
  source: string
  consentGivenAt: Date | null
  consentPage: string | null
  consentVersion: number | null
}): CrmContact {
  const consented = contact.consentGivenAt && contact.consentVersion !== null
  const [firstName = '', ...rest] = contact.fullName.trim().split(/\s+/)
  return {
    firstName,
    lastName: rest.join(' '),
    ...(contact.email ? { email: contact.email } : {}),
    ...(contact.phoneNumber ? { phone: contact.phoneNumber } : {}),
    ...(contact.company ? { companyName: contact.company } : {}),
    // The card owner's CRM is theirs: the contact's source names the channel, never the
    // platform behind the agency (issue 17, no trace of the platform).
    source: 'Digital business card',
    tags: [
      'digital-card',
      `digital-card-${contact.source}`,
      ...(consented ? [CRM_CONSENT_TAG] : []),
    ],
    // Which words, when and where: what the agency's CRM needs to prove the consent.
    ...(consented
      ? {
          customFields: [
            {
              key: CRM_CONSENT_FIELD,
              field_value:
                `Version ${contact.consentVersion}, ${contact.consentGivenAt?.toISOString()}, ${contact.consentPage ?? ''}`.trim(),
            },
          ],
        }
      : {}),
  }
}

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
      return contact ? { contact, settings } : null
    })
    // Deleted since, or already in the CRM (an earlier run whose end went unrecorded).
    if (!found) return
    const { contact, settings } = found
    const fail = async (message: string, final: boolean) => {
      await withTenant(organizationId, (tx) =>
        recordCrmSyncFailure(tx, organizationId, contactId, message, final),
      )
    }
    if (!settings?.enabled || !settings.gohighlevelApiKeyEncrypted) {
      await fail('CRM integration disabled', true)
      throw new PermanentJobError('CRM integration disabled')
    }
    const apiKey = openAtRest(settings.gohighlevelApiKeyEncrypted)
    if (needsReseal(settings.gohighlevelApiKeyEncrypted)) {
      // Sealed under APP_SECRET_PREVIOUS: sealed again under the current secret, so the old
      // one can be retired once every stored key has been used.
      await withTenant(organizationId, (tx) =>
        saveApiSettings(tx, organizationId, settings.userId, {
          sealedKey: sealAtRest(apiKey),
          keyLast4: settings.gohighlevelApiKeyLast4,
          locationId: settings.gohighlevelLocationId,
          enabled: settings.enabled,
          validatedAt: settings.validatedAt,
        }),
      )
    }
    try {
      const crmContactId = await upsertContact(
        { apiKey, locationId: settings.gohighlevelLocationId },
        toCrmContact(contact),
      )
      await withTenant(organizationId, (tx) =>
        markCrmSynced(tx, organizationId, contactId, crmContactId),
      )
    } catch (error) {
      if (error instanceof CrmKeyRejectedError) {
        await fail('Invalid API key. Please check and try again.', true)
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
    // The CRM's id and whose CRM it is: the contact and its sync row are gone when this runs.
    payload: { userId: sync.userId, crmContactId: sync.crmContactId },
    idempotencyKey: `crm.delete:${contactId}`,
    maxAttempts: CRM_MAX_ATTEMPTS,
  })
  return true
}

export const deleteContactFromCrm: JobHandler = {
  async run(job) {
    const organizationId = job.organizationId
    const { userId, crmContactId } = job.payload
    if (!organizationId || !userId || !crmContactId) return
    const settings = await withTenant(organizationId, (tx) =>
      findApiSettings(tx, organizationId, userId),
    )
    // The owner turned the CRM off or removed the key since: nothing here can reach it.
    if (!settings?.enabled || !settings.gohighlevelApiKeyEncrypted) {
      throw new PermanentJobError('CRM integration disabled')
    }
    try {
      await deleteContact(
        {
          apiKey: openAtRest(settings.gohighlevelApiKeyEncrypted),
          locationId: settings.gohighlevelLocationId,
        },
        crmContactId,
      )
    } catch (error) {
      if (error instanceof CrmKeyRejectedError) throw new PermanentJobError(error.message)
      throw error
    }
  },
}
