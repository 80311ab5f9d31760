// /api-settings: validating, saving and switching a user's CRM key, and the list of how their
// new contacts were forwarded (accounts-cards-sharing.md §4, §5, §8). The key is sealed before
// it is stored and never leaves the server again; the page sees its last four characters.
import type { AppLoadContext } from '@remix-run/node'
import { type IntentDone, intentAction } from '#app/actions/intent-action.server'
import { getOptionalUser, requireUser, type SignedIn } from '#app/auth/guards.server'
import { findApiSettings, saveApiSettings, setCrmEnabled } from '#app/models/api-settings.server'
import { recordAudit } from '#app/models/audit.server'
import { listCrmSyncs } from '#app/models/crm-syncs.server'
import { Refusal } from '#app/utils/action-error'
import { openAtRest, sealAtRest } from '#app/utils/secret-box.server'
import { redirectWithToast } from '#app/utils/toast.server'
import {
  type ApiSettingsForm,
  ApiSettingsSchema,
  type KeyStatus,
  API_SETTINGS_MESSAGES as MESSAGES,
} from '#app/validation/api-settings'
import { type Transaction, withTenant } from '#drizzle/db.server'
import { retryCrmForward } from './forwarding.server'
import { type CrmAccount, CrmKeyRejectedError, checkApiKey } from './gohighlevel.server'

export async function loadApiSettings({ tenant, user }: SignedIn) {
  return withTenant(tenant.id, async (tx) => {
    const settings = await findApiSettings(tx, tenant.id, user.id)
    const syncs = await listCrmSyncs(tx, tenant.id, user.id)
    const hasKey = Boolean(settings?.gohighlevelApiKeyEncrypted)
    return {
      hasKey,
      keyLast4: hasKey ? (settings?.gohighlevelApiKeyLast4 ?? '') : null,
      locationId: settings?.gohighlevelLocationId ?? '',
      enabled: hasKey && Boolean(settings?.enabled),
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

async function validateKey(account: CrmAccount): Promise<Validation> {
  try {
    await checkApiKey(account)
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

/** The key's status a refusal tells the page (the key field's badge), by its message. */
const KEY_STATUS_OF: Partial<Record<string, KeyStatus>> = {
  [MESSAGES.keyRequired]: 'unknown',
  [MESSAGES.validationFailed]: 'unknown',
  [MESSAGES.keyInvalid]: 'invalid',
}

/** Saving with an empty or invalid key: the key goes, the integration is off. */
async function disable(signedIn: SignedIn, reason: 'empty' | 'invalid') {
  const { tenant, user } = signedIn
  await withTenant(tenant.id, async (tx) => {
    await saveApiSettings(tx, tenant.id, user.id, {
      sealedKey: null,
      keyLast4: null,
      locationId: null,
      enabled: false,
      validatedAt: null,
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
    hideFields: ['apiKey'],
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
        const result = await validateKey({ apiKey, locationId: value.locationId || null })
        if (result === 'failed') throw new Refusal('provider_failed', MESSAGES.validationFailed)
        if (result === 'invalid')
          throw new Refusal('invalid', MESSAGES.keyInvalid, { field: 'apiKey' })
        return { reply: { keyStatus: 'valid' satisfies KeyStatus } }
      },
      save: async (value, signedIn) => saveSettings(value, signedIn),
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
  // The stored key for the same location: only the switch changes.
  if (storedKey && locationId === (stored?.gohighlevelLocationId ?? null)) {
    await withTenant(tenant.id, async (tx) => {
      await setCrmEnabled(tx, tenant.id, user.id, value.enabled)
      await audit(tx, signedIn, { enabled: value.enabled, key: 'unchanged' })
    })
    return MESSAGES.updated
  }
  // A new key, or the stored one for another location, is validated first.
  const result = await validateKey({ apiKey, locationId })
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
    })
    await audit(tx, signedIn, {
      enabled: typedKey ? true : value.enabled,
      key: typedKey ? 'replaced' : 'unchanged',
      location: locationId ? 'set' : 'none',
    })
  })
  return MESSAGES.updated
}
