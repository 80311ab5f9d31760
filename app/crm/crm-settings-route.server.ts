// /api-settings: validating, saving and switching a user's CRM key, and the list of how their
// new contacts were forwarded (accounts-cards-sharing.md §4, §5, §8). The key is sealed before
// it is stored and never leaves the server again; the page sees its last four characters.
import type { AppLoadContext } from '@remix-run/node'
import { type IntentDone, intentAction } from '#app/actions/intent-action.server'
import { getOptionalUser, requireUser, type SignedIn } from '#app/auth/guards.server'
import {
  findApiSettings,
  saveApiSettings,
  saveHubspotSettings,
  saveSalesforceSettings,
  setCrmEnabled,
} from '#app/models/api-settings.server'
import { recordAudit } from '#app/models/audit.server'
import { listCrmSyncs } from '#app/models/crm-syncs.server'
import { Refusal } from '#app/utils/action-error'
import { openAtRest, sealAtRest } from '#app/utils/secret-box.server'
import { redirectWithToast } from '#app/utils/toast.server'
import {
  type ApiSettingsForm,
  ApiSettingsSchema,
  CRM_MESSAGES,
  crmProviderOf,
  type KeyStatus,
  API_SETTINGS_MESSAGES as MESSAGES,
} from '#app/validation/api-settings'
import { type Transaction, withTenant } from '#drizzle/db.server'
import { retryCrmForward } from './forwarding.server'
import { CrmKeyRejectedError } from './gohighlevel.server'
import { type CrmConnection, checkConnection, isForwardingOn } from './providers.server'
import { isReachableSalesforceUrl } from './salesforce.server'

/** The page's data; `shown` is the CRM whose form the page shows (`?crm=`, else the chosen one). */
export async function loadApiSettings({ tenant, user }: SignedIn, request?: Request) {
  return withTenant(tenant.id, async (tx) => {
    const settings = await findApiSettings(tx, tenant.id, user.id)
    const syncs = await listCrmSyncs(tx, tenant.id, user.id)
    const provider = settings?.crmProvider ?? 'gohighlevel'
    const asked = request ? crmProviderOf(new URL(request.url).searchParams.get('crm')) : null
    const on = Boolean(settings && isForwardingOn(settings))
    const hasKey = Boolean(settings?.gohighlevelApiKeyEncrypted)
    const hasToken = Boolean(settings?.hubspotTokenEncrypted)
    const hasSecret = Boolean(settings?.salesforceClientSecretEncrypted)
    return {
      /** The CRM new contacts go to, and whether they do. */
      provider,
      shown: asked ?? provider,
      forwarding: on,
      hasKey,
      keyLast4: hasKey ? (settings?.gohighlevelApiKeyLast4 ?? '') : null,
      locationId: settings?.gohighlevelLocationId ?? '',
      // GoHighLevel's switch: on when it is the chosen CRM and forwarding is on.
      enabled: hasKey && on && provider === 'gohighlevel',
      hubspot: {
        hasToken,
        tokenLast4: hasToken ? (settings?.hubspotTokenLast4 ?? '') : null,
        enabled: hasToken && on && provider === 'hubspot',
      },
      salesforce: {
        instanceUrl: settings?.salesforceInstanceUrl ?? '',
        clientId: settings?.salesforceClientId ?? '',
        hasSecret,
        secretLast4: hasSecret ? (settings?.salesforceClientSecretLast4 ?? '') : null,
        enabled: hasSecret && on && provider === 'salesforce',
      },
      // A stored key passed validation when it was saved (an invalid one is never kept).
      keyStatus: (hasKey ? 'valid' : 'unknown') satisfies KeyStatus as KeyStatus,
      syncs: syncs.map((sync) => ({
        ...sync,
        syncedAt: sync.syncedAt?.toISOString() ?? null,
        updatedAt: sync.updatedAt.toISOString(),
      })),
    }
  })
}

type Validation = 'valid' | 'invalid' | 'failed'

/** Checks credentials with one cheap call: 'invalid' when refused, 'failed' when unreachable. */
async function check(connection: CrmConnection): Promise<Validation> {
  try {
    await checkConnection(connection)
    return 'valid'
  } catch (error) {
    return error instanceof CrmKeyRejectedError ? 'invalid' : 'failed'
  }
}

async function storedSettings({ tenant, user }: SignedIn) {
  return withTenant(tenant.id, (tx) => findApiSettings(tx, tenant.id, user.id))
}

const audit = (tx: Transaction, { tenant, user }: SignedIn, metadata: Record<string, unknown>) =>
  recordAudit(tx, tenant.id, {
    actorUserId: user.id,
    action: 'crm.settings_updated',
    entityType: 'api_settings',
    entityId: user.id,
    metadata,
  })

type StoredSettings = Awaited<ReturnType<typeof storedSettings>>

/**
 * HubSpot's or Salesforce's credentials emptied: `clear` stores them as none, with forwarding
 * stopped if that CRM was the chosen one (another chosen CRM keeps its switch and validation).
 */
async function removeCredentials(
  signedIn: SignedIn,
  stored: StoredSettings,
  provider: 'hubspot' | 'salesforce',
  clear: (tx: Transaction, kept: { enabled: boolean; validatedAt: Date | null }) => Promise<void>,
): Promise<IntentDone> {
  const wasChosen = stored?.crmProvider === provider
  await withTenant(signedIn.tenant.id, async (tx) => {
    await clear(tx, {
      enabled: wasChosen ? false : Boolean(stored?.enabled),
      validatedAt: stored?.validatedAt ?? null,
    })
    await audit(tx, signedIn, { provider, enabled: false, key: 'removed' })
  })
  return { toast: MESSAGES.disabled, type: 'info' }
}

/** HubSpot's or Salesforce's stored credentials kept: only the switch changes, and it is chosen. */
async function switchStoredCredentials(
  signedIn: SignedIn,
  provider: 'hubspot' | 'salesforce',
  enabled: boolean,
): Promise<IntentDone> {
  const { tenant, user } = signedIn
  await withTenant(tenant.id, async (tx) => {
    await setCrmEnabled(tx, tenant.id, user.id, enabled, provider)
    await audit(tx, signedIn, { provider, enabled, key: 'unchanged' })
  })
  return MESSAGES.updated
}

/** The key's status a refusal tells the page (the key field's badge), by its message. */
const KEY_STATUS_OF: Partial<Record<string, KeyStatus>> = {
  [MESSAGES.keyRequired]: 'unknown',
  [MESSAGES.validationFailed]: 'unknown',
  [MESSAGES.keyInvalid]: 'invalid',
}

/**
 * Saving with an empty or invalid key: the key goes, the integration is off (while GoHighLevel
 * is the chosen CRM; another chosen CRM keeps forwarding, ADR 094).
 */
async function disable(signedIn: SignedIn, reason: 'empty' | 'invalid') {
  const { tenant, user } = signedIn
  await withTenant(tenant.id, async (tx) => {
    const stored = await findApiSettings(tx, tenant.id, user.id)
    const otherOn = stored && stored.crmProvider !== 'gohighlevel' && stored.enabled
    await saveApiSettings(tx, tenant.id, user.id, {
      sealedKey: null,
      keyLast4: null,
      locationId: null,
      enabled: Boolean(otherOn),
      validatedAt: otherOn ? stored.validatedAt : null,
    })
    await audit(tx, signedIn, { enabled: false, key: 'removed', reason })
  })
}

/**
 * The page's action. A save from a page whose session has ended says so on the sign-in page
 * (spec §8) rather than with the guard's bare redirect.
 */
export async function apiSettingsAction(request: Request, context: AppLoadContext) {
  return intentAction(request, {
    guard: async () => {
      const { user, pendingStep } = await getOptionalUser(request, context)
      // A session owing a sign-in step goes to that step (requireUser), like everywhere else.
      if (!user && !pendingStep) {
        throw await redirectWithToast(
          `/auth/login?redirectTo=${encodeURIComponent(API_SETTINGS_PATH)}`,
          { type: 'error', title: MESSAGES.signedOut },
        )
      }
      return requireUser(request, context)
    },
    schema: ApiSettingsSchema,
    // A typed key is not echoed into the page (conform's lastResult would render it back).
    hideFields: ['apiKey', 'hubspotToken', 'salesforceClientSecret'],
    redirectTo: API_SETTINGS_PATH,
    refused: (refusal) => {
      const keyStatus = KEY_STATUS_OF[refusal.message]
      return keyStatus ? { keyStatus } : {}
    },
    intents: {
      retry: async ({ contactId }, { tenant, user }) => {
        const queued = await retryCrmForward(tenant.id, user.id, contactId)
        if (!queued) throw new Refusal('not_found', 'Nothing to retry for that contact')
        return 'Sync queued again'
      },
      validate: async (value, signedIn) => {
        const { apiKey } = await keyOf(value, signedIn)
        if (!apiKey) throw new Refusal('invalid', MESSAGES.keyRequired, { field: 'apiKey' })
        const result = await check({
          provider: 'gohighlevel',
          account: { apiKey, locationId: value.locationId || null },
        })
        if (result === 'failed') throw new Refusal('provider_failed', MESSAGES.validationFailed)
        if (result === 'invalid')
          throw new Refusal('invalid', MESSAGES.keyInvalid, { field: 'apiKey' })
        return { reply: { keyStatus: 'valid' satisfies KeyStatus } }
      },
      save: async (value, signedIn) => saveSettings(value, signedIn),
      'save-hubspot': async (value, signedIn) => saveHubspot(value, signedIn),
      'save-salesforce': async (value, signedIn) => saveSalesforce(value, signedIn),
    },
  })
}

export const API_SETTINGS_PATH = '/api-settings'

type KeyForm = Extract<ApiSettingsForm, { intent: 'validate' | 'save' }>

/** The key the form means: the typed one, else the stored one when the field was left alone. */
async function keyOf(value: KeyForm, signedIn: SignedIn) {
  const stored = await storedSettings(signedIn)
  const storedKey =
    value.keepStoredKey === '1' && !value.apiKey && stored?.gohighlevelApiKeyEncrypted
      ? openAtRest(stored.gohighlevelApiKeyEncrypted)
      : null
  return { apiKey: value.apiKey || storedKey, storedKey, stored }
}

async function saveSettings(
  value: Extract<ApiSettingsForm, { intent: 'save' }>,
  signedIn: SignedIn,
): Promise<IntentDone> {
  const { tenant, user } = signedIn
  const typedKey = value.apiKey
  const locationId = value.locationId || null
  const { apiKey, storedKey, stored } = await keyOf(value, signedIn)
  if (!apiKey) {
    await disable(signedIn, 'empty')
    return { toast: MESSAGES.disabled, type: 'info' }
  }
  // The stored key for the same location: only the switch changes (and GoHighLevel is chosen).
  if (storedKey && locationId === (stored?.gohighlevelLocationId ?? null)) {
    await withTenant(tenant.id, async (tx) => {
      await setCrmEnabled(tx, tenant.id, user.id, value.enabled, 'gohighlevel')
      await audit(tx, signedIn, { enabled: value.enabled, key: 'unchanged' })
    })
    return MESSAGES.updated
  }
  // A new key, or the stored one for another location, is validated first.
  const result = await check({ provider: 'gohighlevel', account: { apiKey, locationId } })
  if (result === 'failed') throw new Refusal('provider_failed', MESSAGES.validationFailed)
  if (result === 'invalid') {
    await disable(signedIn, 'invalid')
    // The save did what the spec asks of it (the key is gone, the integration off): not a
    // refusal, though the field says why.
    return {
      reply: { keyStatus: 'invalid' satisfies KeyStatus },
      error: MESSAGES.disabled,
      result: { fieldErrors: { apiKey: [MESSAGES.keyInvalid] } },
    }
  }
  await withTenant(tenant.id, async (tx) => {
    await saveApiSettings(tx, tenant.id, user.id, {
      sealedKey: sealAtRest(apiKey),
      keyLast4: apiKey.slice(-4),
      locationId,
      // A valid new key turns the integration on (§4); a kept one keeps the switch's word.
      enabled: typedKey ? true : value.enabled,
      validatedAt: new Date(),
      provider: 'gohighlevel',
    })
    await audit(tx, signedIn, {
      enabled: typedKey ? true : value.enabled,
      key: typedKey ? 'replaced' : 'unchanged',
      location: locationId ? 'set' : 'none',
    })
  })
  return MESSAGES.updated
}

/**
 * HubSpot (ADR 094): a typed token is checked with one read of contacts and, when HubSpot takes
 * it, sealed and stored, HubSpot becomes the chosen CRM and forwarding is on; a refused one is
 * said at the field and changes nothing. The field left alone keeps the stored token (only the
 * switch changes); emptied, the token goes (and forwarding stops if HubSpot was the chosen CRM).
 */
async function saveHubspot(
  value: Extract<ApiSettingsForm, { intent: 'save-hubspot' }>,
  signedIn: SignedIn,
): Promise<IntentDone> {
  const { tenant, user } = signedIn
  const stored = await storedSettings(signedIn)
  const typed = value.hubspotToken
  const kept =
    !typed && value.keepStoredHubspotToken === '1' ? (stored?.hubspotTokenEncrypted ?? null) : null
  if (!typed && !kept) {
    return removeCredentials(signedIn, stored, 'hubspot', (tx, state) =>
      saveHubspotSettings(tx, tenant.id, user.id, {
        sealedToken: null,
        tokenLast4: null,
        ...state,
      }),
    )
  }
  if (kept) return switchStoredCredentials(signedIn, 'hubspot', value.enabled)
  const result = await check({ provider: 'hubspot', token: typed })
  if (result === 'failed') throw new Refusal('provider_failed', CRM_MESSAGES.hubspotUnavailable)
  if (result === 'invalid') {
    throw new Refusal('invalid', CRM_MESSAGES.hubspotTokenInvalid, { field: 'hubspotToken' })
  }
  await withTenant(tenant.id, async (tx) => {
    await saveHubspotSettings(tx, tenant.id, user.id, {
      sealedToken: sealAtRest(typed),
      tokenLast4: typed.slice(-4),
      enabled: true,
      validatedAt: new Date(),
      provider: 'hubspot',
    })
    await audit(tx, signedIn, { provider: 'hubspot', enabled: true, key: 'replaced' })
  })
  return MESSAGES.updated
}

/**
 * Salesforce (ADR 094): the My Domain URL (https on Salesforce's own domains; the tests' fake
 * on loopback http), the connected app's consumer key and secret. New credentials, or the kept
 * secret with another URL or key, get a token by the client credentials flow and one read of the
 * Lead object before they are stored; a refusal is said at the secret's field.
 */
async function saveSalesforce(
  value: Extract<ApiSettingsForm, { intent: 'save-salesforce' }>,
  signedIn: SignedIn,
): Promise<IntentDone> {
  const { tenant, user } = signedIn
  const stored = await storedSettings(signedIn)
  const { salesforceUrl, salesforceClientId: clientId, salesforceClientSecret: typed } = value
  const keptSealed =
    !typed && value.keepStoredSalesforceSecret === '1'
      ? (stored?.salesforceClientSecretEncrypted ?? null)
      : null
  if (!salesforceUrl && !clientId && !typed && !keptSealed) {
    return removeCredentials(signedIn, stored, 'salesforce', (tx, state) =>
      saveSalesforceSettings(tx, tenant.id, user.id, {
        instanceUrl: null,
        clientId: null,
        sealedSecret: null,
        secretLast4: null,
        ...state,
      }),
    )
  }
  if (!salesforceUrl) {
    throw new Refusal('invalid', CRM_MESSAGES.salesforceUrlRequired, { field: 'salesforceUrl' })
  }
  const url = new URL(salesforceUrl)
  if (!isReachableSalesforceUrl(url)) {
    throw new Refusal('invalid', CRM_MESSAGES.salesforceUrlInvalid, { field: 'salesforceUrl' })
  }
  const instanceUrl = url.origin
  if (!clientId) {
    throw new Refusal('invalid', CRM_MESSAGES.salesforceClientIdRequired, {
      field: 'salesforceClientId',
    })
  }
  if (!typed && !keptSealed) {
    throw new Refusal('invalid', CRM_MESSAGES.salesforceSecretRequired, {
      field: 'salesforceClientSecret',
    })
  }
  const unchanged =
    keptSealed &&
    instanceUrl === stored?.salesforceInstanceUrl &&
    clientId === stored?.salesforceClientId
  if (unchanged) return switchStoredCredentials(signedIn, 'salesforce', value.enabled)
  const clientSecret = typed || openAtRest(keptSealed ?? '')
  const result = await check({
    provider: 'salesforce',
    account: { instanceUrl, clientId, clientSecret },
  })
  if (result === 'failed') throw new Refusal('provider_failed', CRM_MESSAGES.salesforceUnavailable)
  if (result === 'invalid') {
    throw new Refusal('invalid', CRM_MESSAGES.salesforceRefused, {
      field: 'salesforceClientSecret',
    })
  }
  await withTenant(tenant.id, async (tx) => {
    await saveSalesforceSettings(tx, tenant.id, user.id, {
      instanceUrl,
      clientId,
      sealedSecret: typed ? sealAtRest(typed) : keptSealed,
      secretLast4: typed ? typed.slice(-4) : (stored?.salesforceClientSecretLast4 ?? null),
      enabled: typed ? true : value.enabled,
      validatedAt: new Date(),
      provider: 'salesforce',
    })
    await audit(tx, signedIn, {
      provider: 'salesforce',
      enabled: typed ? true : value.enabled,
      key: typed ? 'replaced' : 'unchanged',
    })
  })
  return MESSAGES.updated
}
