// The GoHighLevel REST API (v2, services.leadconnectorhq.com): a bearer key, the API's Version
// header, JSON. Base URL and time limit come from GOHIGHLEVEL_API_URL and CRM_TIMEOUT_MS, so
// tests point it at a local fake. Only the calls the product makes are here.
import { getEnv } from '#app/env.server'
import {
  CrmKeyRejectedError,
  CrmNotFoundError,
  CrmUnavailableError,
  savedId,
  unlessGone,
  withinCrmDeadline,
} from './crm-call.server'

const API_VERSION = '2021-07-28'

export type CrmContact = {
  firstName: string
  lastName: string
  email?: string
  phone?: string
  companyName?: string
  source: string
  tags: string[]
  /** Custom field values by the field's key (the lead's consent, ADR 050). */
  customFields?: { key: string; field_value: string }[]
}

// The failures every CRM client shares (ADR 094), still importable from here.
export { CrmKeyRejectedError, CrmNotFoundError, CrmUnavailableError }

/** One call, answer read in full, within CRM_TIMEOUT_MS and cancelled at shutdown. */
function call(apiKey: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) {
  return withinCrmDeadline('The CRM', (signal) => exchange(signal, apiKey, method, path, body))
}

async function exchange(
  signal: AbortSignal,
  apiKey: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
) {
  const env = getEnv()
  const url = new URL(
    path,
    env.GOHIGHLEVEL_API_URL.endsWith('/') ? env.GOHIGHLEVEL_API_URL : `${env.GOHIGHLEVEL_API_URL}/`,
  )
  let response: Response
  try {
    response = await fetch(url, {
      method,
      headers: {
        Authorization: `Bearer ${apiKey}`,
        Version: API_VERSION,
        Accept: 'application/json',
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      signal,
      redirect: 'error',
    })
  } catch {
    if (signal.aborted) throw signal.reason
    throw new CrmUnavailableError('could not reach the CRM')
  }
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel()
    throw new CrmKeyRejectedError(`the CRM refused the API key (${response.status})`)
  }
  if (response.status === 404 && method === 'DELETE') {
    await response.body?.cancel()
    throw new CrmNotFoundError('the CRM has no such contact')
  }
  if (!response.ok) {
    await response.body?.cancel()
    throw new CrmUnavailableError(`the CRM answered ${response.status}`)
  }
  try {
    return (await response.json()) as unknown
  } catch {
    if (signal.aborted) throw signal.reason
    throw new CrmUnavailableError('the CRM answered something that is not JSON')
  }
}

/** Where the contacts go: the key, and the sub-account (location) when the user named one. */
export type CrmAccount = { apiKey: string; locationId?: string | null }

/** One cheap authenticated request: resolves when the key (for that location) is accepted. */
export async function checkApiKey({ apiKey, locationId }: CrmAccount): Promise<void> {
  const query = new URLSearchParams({ limit: '1', ...(locationId ? { locationId } : {}) })
  await call(apiKey, 'GET', `contacts/?${query}`)
}

/**
 * Creates the contact, or updates the one the CRM already has with this email or phone (the
 * upsert endpoint): forwarding the same contact twice leaves one contact in the CRM.
 */
export async function upsertContact(
  { apiKey, locationId }: CrmAccount,
  contact: CrmContact,
): Promise<string> {
  const body = locationId ? { ...contact, locationId } : contact
  const answer = (await call(apiKey, 'POST', 'contacts/upsert', body)) as {
    contact?: { id?: unknown }
  }
  return savedId(answer?.contact?.id, 'the CRM', 'contact')
}

/**
 * Deletes the contact the CRM saved for us (a lead that deleted their data, ADR 050); a contact
 * the CRM no longer has is as good as deleted.
 */
export async function deleteContact({ apiKey }: CrmAccount, crmContactId: string) {
  await unlessGone(() => call(apiKey, 'DELETE', `contacts/${encodeURIComponent(crmContactId)}`))
}
