// /api-settings: validating, saving and switching a user's CRM key, and the list of how their
// new contacts were forwarded (accounts-cards-sharing.md §4, §5, §8). The key is sealed before
// it is stored and never leaves the server again; the page sees its last four characters.
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import type { SignedIn } from '#app/auth/guards.server'
import { readPlainForm } from '#app/media/uploads.server'
import { findApiSettings, saveApiSettings, setCrmEnabled } from '#app/models/api-settings.server'
import { recordAudit } from '#app/models/audit.server'
import { listCrmSyncs } from '#app/models/crm-syncs.server'
import { open, seal } from '#app/utils/secret-box.server'
import { redirectWithToast } from '#app/utils/toast.server'
import {
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

function fieldError(intent: string, message: string, status = 400) {
  return data(
    { intent, keyStatus: 'invalid' as KeyStatus, error: message, fieldError: message },
    { status },
  )
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

export async function apiSettingsAction(request: Request, signedIn: SignedIn) {
  const submission = parseWithZod(await readPlainForm(request), { schema: ApiSettingsSchema })
  if (submission.status !== 'success') {
    const message = Object.values(submission.error ?? {}).flat()[0] ?? MESSAGES.updateFailed
    const intent = submission.payload.intent
    return data(
      { intent: typeof intent === 'string' ? intent : null, error: message, fieldError: message },
      { status: 400 },
    )
  }
  const value = submission.value
  const { tenant, user } = signedIn

  if (value.intent === 'retry') {
    const queued = await retryCrmForward(tenant.id, user.id, value.contactId)
    if (!queued) return data({ intent: 'retry', error: 'Nothing to retry for that contact' }, 404)
    return redirectWithToast('/api-settings', { type: 'success', title: 'Sync queued again' })
  }

  const typedKey = value.apiKey
  const locationId = value.locationId || null
  const stored = await storedSettings(signedIn)
  const storedKey =
    value.keepStoredKey === '1' && !typedKey && stored?.gohighlevelApiKeyEncrypted
      ? open(stored.gohighlevelApiKeyEncrypted)
      : null
  const apiKey = typedKey || storedKey

  if (value.intent === 'validate') {
    if (!apiKey) {
      return data(
        {
          intent: 'validate',
          keyStatus: 'unknown' as KeyStatus,
          error: MESSAGES.keyRequired,
          fieldError: MESSAGES.keyRequired,
        },
        { status: 400 },
      )
    }
    const result = await validateKey({ apiKey, locationId })
    if (result === 'failed') {
      return data(
        { intent: 'validate', keyStatus: 'unknown' as KeyStatus, error: MESSAGES.validationFailed },
        502,
      )
    }
    if (result === 'invalid') return fieldError('validate', MESSAGES.keyInvalid)
    return { intent: 'validate', keyStatus: 'valid' as KeyStatus, error: null }
  }

  if (!apiKey) {
    await disable(signedIn, 'empty')
    return redirectWithToast('/api-settings', { type: 'info', title: MESSAGES.disabled })
  }
  // The stored key for the same location: only the switch changes.
  if (storedKey && locationId === (stored?.gohighlevelLocationId ?? null)) {
    await withTenant(tenant.id, async (tx) => {
      await setCrmEnabled(tx, tenant.id, user.id, value.enabled)
      await audit(tx, signedIn, { enabled: value.enabled, key: 'unchanged' })
    })
    return redirectWithToast('/api-settings', { type: 'success', title: MESSAGES.updated })
  }
  // A new key, or the stored one for another location, is validated first.
  const result = await validateKey({ apiKey, locationId })
  if (result === 'failed') {
    return data(
      { intent: 'save', keyStatus: 'unknown' as KeyStatus, error: MESSAGES.validationFailed },
      502,
    )
  }
  if (result === 'invalid') {
    await disable(signedIn, 'invalid')
    return data(
      {
        intent: 'save',
        keyStatus: 'invalid' as KeyStatus,
        error: MESSAGES.disabled,
        fieldError: MESSAGES.keyInvalid,
      },
      // The save did what the spec asks of it (the key is gone, the integration off): not a
      // refusal, though the field says why.
      200,
    )
  }
  await withTenant(tenant.id, async (tx) => {
    await saveApiSettings(tx, tenant.id, user.id, {
      sealedKey: seal(apiKey),
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
  return redirectWithToast('/api-settings', { type: 'success', title: MESSAGES.updated })
}
