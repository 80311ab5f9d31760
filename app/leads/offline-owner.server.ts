// Whose things the offline worker and the lead queue keep on a device (ADR 104): a keyed hash of
// the account, stable across an email change (a queued lead must still send after one) and
// naming no one in the browser's storage.
import { createHmac } from 'node:crypto'
import { getEnv } from '#app/env.server'

export function offlineOwnerKey(organizationId: string, userId: string) {
  return createHmac('sha256', getEnv().APP_SECRET)
    .update(`offline-owner:${organizationId}:${userId}`)
    .digest('base64url')
    .slice(0, 22)
}
