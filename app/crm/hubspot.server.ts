// The HubSpot CRM API (v3 objects, api.hubapi.com) with a private app's access token (ADR 094):
// contacts upserted by email, a note on the contact, the contact deleted. Base URL from
// HUBSPOT_API_URL, so tests point it at a local fake (tests/fake-hubspot.ts). Only the calls the
// product makes are here; the token is sent as a bearer token and never logged.
import { getEnv } from '#app/env.server'
import {
  bodyOfCrmAnswer,
  CrmKeyRejectedError,
  CrmUnavailableError,
  crmMessage,
  exchangeJsonWithCrm,
  savedId,
  unlessGone,
} from './crm-call.server'

/** HubSpot's association type for a note on a contact (HUBSPOT_DEFINED, note_to_contact). */
const NOTE_TO_CONTACT = 202

/** A contact's properties by HubSpot's internal names (email, firstname, lastname, ...). */
export type HubspotProperties = Record<string, string>

/** HubSpot's error body: `{ status: 'error', message, correlationId, category }`. */
function messageOf(body: unknown) {
  return body && typeof body === 'object' && 'message' in body ? body.message : undefined
}

async function call(token: string, method: string, path: string, body?: unknown) {
  const base = getEnv().HUBSPOT_API_URL
  const url = new URL(path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`)
  const answer = await exchangeJsonWithCrm('HubSpot', url, token, method, body)
  const { status } = answer
  if (status === 401) {
    throw new CrmKeyRejectedError('HubSpot refused the access token (401)')
  }
  if (status === 403) {
    // MISSING_SCOPES: the private app lacks a scope the call needs.
    throw new CrmKeyRejectedError(
      `HubSpot refused the access token (403): ${crmMessage(messageOf(answer.body), 'a scope is missing')}`,
    )
  }
  if (status === 429) throw new CrmUnavailableError(`HubSpot answered ${status}`)
  return bodyOfCrmAnswer('HubSpot', 'contact', answer, messageOf(answer.body))
}

/** One cheap authenticated request: resolves when the token may read contacts. */
export async function checkHubspotToken(token: string) {
  await call(token, 'GET', '/crm/v3/objects/contacts?limit=1')
}

const idOf = (record: unknown) =>
  savedId(
    record && typeof record === 'object' && 'id' in record ? record.id : undefined,
    'HubSpot',
    'contact',
  )

/**
 * Creates or updates the contact. With an email, the batch upsert keyed by email (one contact
 * per email, however often it is sent); without one, the contact HubSpot already gave us an id
 * for is updated, else one is created.
 */
export async function upsertHubspotContact(
  token: string,
  properties: HubspotProperties,
  knownId: string | null,
): Promise<string> {
  const { email } = properties
  if (email) {
    const answer = (await call(token, 'POST', '/crm/v3/objects/contacts/batch/upsert', {
      inputs: [{ idProperty: 'email', id: email, properties }],
    })) as { results?: unknown[] }
    return idOf(answer?.results?.[0])
  }
  const updated = knownId
    ? await unlessGone(() =>
        call(token, 'PATCH', `/crm/v3/objects/contacts/${encodeURIComponent(knownId)}`, {
          properties,
        }),
      )
    : null
  if (updated) return idOf(updated.answer)
  return idOf(await call(token, 'POST', '/crm/v3/objects/contacts', { properties }))
}

/** Whether the contact already has a note with exactly this body (a job run a second time). */
export async function hasHubspotNote(token: string, contactId: string, body: string) {
  const answer = (await call(token, 'POST', '/crm/v3/objects/notes/search', {
    filterGroups: [
      { filters: [{ propertyName: 'associations.contact', operator: 'EQ', value: contactId }] },
    ],
    properties: ['hs_note_body'],
    limit: 100,
  })) as { results?: { properties?: { hs_note_body?: unknown } }[] }
  return (answer?.results ?? []).some((note) => note.properties?.hs_note_body === body)
}

/** A note on the contact's timeline: where and how they were met, and their consent. */
export async function addHubspotNote(token: string, contactId: string, body: string, at: Date) {
  await call(token, 'POST', '/crm/v3/objects/notes', {
    properties: { hs_timestamp: at.toISOString(), hs_note_body: body },
    associations: [
      {
        to: { id: contactId },
        types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: NOTE_TO_CONTACT }],
      },
    ],
  })
}

/** Deletes (archives) the contact; one HubSpot no longer has is as good as deleted. */
export async function deleteHubspotContact(token: string, contactId: string) {
  await unlessGone(() =>
    call(token, 'DELETE', `/crm/v3/objects/contacts/${encodeURIComponent(contactId)}`),
  )
}
