// The CRMs new contacts are forwarded to (ADR 094): GoHighLevel, HubSpot and Salesforce behind
// one shape. A user connects one at a time (api_settings.crm_provider); each CRM keeps its own
// sealed credentials, so a contact is deleted in the CRM that holds it even after a switch.
// What each CRM is sent is built here from the same contact: its details, where it was met and
// the lead's consent (ADR 050).
import type { ApiSettingsRow } from '#app/models/api-settings.server'
import type { CrmProvider } from '#app/models/crm-syncs.server'
import { openAtRest } from '#app/utils/secret-box.server'
import {
  type CrmAccount,
  type CrmContact,
  checkApiKey,
  deleteContact,
  upsertContact,
} from './gohighlevel.server'
import {
  addHubspotNote,
  checkHubspotToken,
  deleteHubspotContact,
  hasHubspotNote,
  upsertHubspotContact,
} from './hubspot.server'
import {
  checkSalesforceConnection,
  deleteSalesforceLead,
  type SalesforceAccount,
  saveSalesforceLead,
} from './salesforce.server'

export type CrmConnection =
  | { provider: 'gohighlevel'; account: CrmAccount }
  | { provider: 'hubspot'; token: string }
  | { provider: 'salesforce'; account: SalesforceAccount }

/** The credentials stored for `provider`, opened; null when there are none for it. */
export function connectionOf(
  settings: ApiSettingsRow,
  provider: CrmProvider = settings.crmProvider,
): CrmConnection | null {
  if (provider === 'hubspot') {
    return settings.hubspotTokenEncrypted
      ? { provider, token: openAtRest(settings.hubspotTokenEncrypted) }
      : null
  }
  if (provider === 'salesforce') {
    const { salesforceInstanceUrl, salesforceClientId, salesforceClientSecretEncrypted } = settings
    return salesforceInstanceUrl && salesforceClientId && salesforceClientSecretEncrypted
      ? {
          provider,
          account: {
            instanceUrl: salesforceInstanceUrl,
            clientId: salesforceClientId,
            clientSecret: openAtRest(salesforceClientSecretEncrypted),
          },
        }
      : null
  }
  return settings.gohighlevelApiKeyEncrypted
    ? {
        provider: 'gohighlevel',
        account: {
          apiKey: openAtRest(settings.gohighlevelApiKeyEncrypted),
          locationId: settings.gohighlevelLocationId,
        },
      }
    : null
}

/** Whether the user's chosen CRM has what forwarding needs (credentials and the switch on). */
export function isForwardingOn(settings: ApiSettingsRow | undefined) {
  if (!settings?.enabled) return false
  if (settings.crmProvider === 'hubspot') return Boolean(settings.hubspotTokenEncrypted)
  if (settings.crmProvider === 'salesforce') {
    return Boolean(
      settings.salesforceInstanceUrl &&
        settings.salesforceClientId &&
        settings.salesforceClientSecretEncrypted,
    )
  }
  return Boolean(settings.gohighlevelApiKeyEncrypted)
}

/** The contact as the forwarding reads it (models/crm-syncs findContactForSync). */
export type ContactForCrm = {
  fullName: string
  email: string
  phoneNumber: string
  company: string
  jobTitle: string
  source: 'connect' | 'lead' | 'saved' | 'manual' | 'scan'
  createdAt: Date
  cardTitle: string | null
  consentGivenAt: Date | null
  consentPage: string | null
  consentVersion: number | null
}

/** The tag and custom field key a lead's consent reaches GoHighLevel with (ADR 050). */
export const CRM_CONSENT_TAG = 'consent-given'
export const CRM_CONSENT_FIELD = 'lead_consent'
/** HubSpot's custom contact property for the consent (single-line text, ADR 094). */
export const HUBSPOT_CONSENT_PROPERTY = 'lead_consent'
/** Salesforce's custom Lead field for the consent (Text(255), ADR 094). */
export const SALESFORCE_CONSENT_FIELD = 'Lead_Consent__c'
/** Where the CRM's contact came from, as each CRM is told (never the platform's name). */
export const CRM_LEAD_SOURCE = 'Digital business card'

const SOURCE_WORDS: Record<ContactForCrm['source'], string> = {
  lead: 'left their details on the lead form',
  connect: 'connected back',
  saved: 'saved the card',
  manual: 'added by hand',
  scan: 'read from a paper card',
}

/** Which words, when and where: what the CRM needs to prove the consent; null without one. */
export function consentRecord(contact: ContactForCrm) {
  if (!contact.consentGivenAt || contact.consentVersion === null) return null
  return `Version ${contact.consentVersion}, ${contact.consentGivenAt.toISOString()}, ${contact.consentPage ?? ''}`.trim()
}

function splitName(fullName: string) {
  const [firstName = '', ...rest] = fullName.trim().split(/\s+/)
  return { firstName, lastName: rest.join(' ') }
}

/** The card and the source, and the consent: a HubSpot note's and a Salesforce description's lines. */
export function aboutLines(contact: ContactForCrm) {
  const consent = consentRecord(contact)
  return [
    contact.cardTitle
      ? `Met on the digital business card "${contact.cardTitle}" (source: ${contact.source}, ${SOURCE_WORDS[contact.source]}).`
      : `Source: ${contact.source} (${SOURCE_WORDS[contact.source]}).`,
    consent ? `Consent to be contacted: ${consent}.` : 'No consent text was shown.',
  ]
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

export function toGoHighLevelContact(contact: ContactForCrm): CrmContact {
  const consent = consentRecord(contact)
  return {
    ...splitName(contact.fullName),
    ...(contact.email ? { email: contact.email } : {}),
    ...(contact.phoneNumber ? { phone: contact.phoneNumber } : {}),
    ...(contact.company ? { companyName: contact.company } : {}),
    // The card owner's CRM is theirs: the contact's source names the channel, never the
    // platform behind the agency (issue 17, no trace of the platform).
    source: CRM_LEAD_SOURCE,
    tags: ['digital-card', `digital-card-${contact.source}`, ...(consent ? [CRM_CONSENT_TAG] : [])],
    ...(consent ? { customFields: [{ key: CRM_CONSENT_FIELD, field_value: consent }] } : {}),
  }
}

export function toHubspotProperties(contact: ContactForCrm) {
  const { firstName, lastName } = splitName(contact.fullName)
  const consent = consentRecord(contact)
  const properties: Record<string, string> = { firstname: firstName, lastname: lastName }
  if (contact.email) properties.email = contact.email
  if (contact.phoneNumber) properties.phone = contact.phoneNumber
  if (contact.company) properties.company = contact.company
  if (contact.jobTitle) properties.jobtitle = contact.jobTitle
  if (consent) properties[HUBSPOT_CONSENT_PROPERTY] = consent
  return properties
}

export function hubspotNoteBody(contact: ContactForCrm) {
  return aboutLines(contact)
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join('')
}

export function toSalesforceLead(contact: ContactForCrm) {
  const { firstName, lastName } = splitName(contact.fullName)
  const consent = consentRecord(contact)
  // LastName and Company are required on a Lead; Salesforce's own convention for a missing one.
  const lead: Record<string, string> = {
    LastName: lastName || firstName || '[not provided]',
    Company: contact.company || '[not provided]',
    LeadSource: CRM_LEAD_SOURCE,
    Description: aboutLines(contact).join('\n'),
  }
  if (lastName && firstName) lead.FirstName = firstName
  if (contact.email) lead.Email = contact.email
  if (contact.phoneNumber) lead.Phone = contact.phoneNumber
  if (contact.jobTitle) lead.Title = contact.jobTitle
  if (consent) lead[SALESFORCE_CONSENT_FIELD] = consent
  return lead
}

/** One cheap authenticated call: resolves when the CRM accepts the credentials. */
export async function checkConnection(connection: CrmConnection) {
  if (connection.provider === 'hubspot') return checkHubspotToken(connection.token)
  if (connection.provider === 'salesforce') return checkSalesforceConnection(connection.account)
  return checkApiKey(connection.account)
}

/**
 * Sends the contact to the CRM and answers the CRM's id for it. `knownId` is the id an earlier
 * run recorded (a job run again); `recordId` is told the id as soon as it is known, before any
 * further step, so a crash between steps never makes a second contact.
 */
export async function sendContact(
  connection: CrmConnection,
  contact: ContactForCrm,
  knownId: string | null,
  recordId: (id: string) => Promise<void>,
): Promise<string> {
  if (connection.provider === 'gohighlevel') {
    return upsertContact(connection.account, toGoHighLevelContact(contact))
  }
  if (connection.provider === 'salesforce') {
    return saveSalesforceLead(connection.account, toSalesforceLead(contact), knownId)
  }
  const { token } = connection
  const id = await upsertHubspotContact(token, toHubspotProperties(contact), knownId)
  const body = hubspotNoteBody(contact)
  // A first run has made no note; a later one (the id known) looks for the note first.
  if (knownId !== id) await recordId(id)
  if (knownId === id && (await hasHubspotNote(token, id, body))) return id
  await addHubspotNote(token, id, body, contact.createdAt)
  return id
}

/** Deletes the contact from the CRM that holds it (a lead that deleted their data, ADR 050). */
export async function removeContact(connection: CrmConnection, crmContactId: string) {
  if (connection.provider === 'hubspot') return deleteHubspotContact(connection.token, crmContactId)
  if (connection.provider === 'salesforce') {
    return deleteSalesforceLead(connection.account, crmContactId)
  }
  return deleteContact(connection.account, crmContactId)
}
