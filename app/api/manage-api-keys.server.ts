// The agency's REST API keys (issue 43 point 1, ADR 092): named, scoped, shown once, kept as
// SHA-256 only, revoked at once, optionally expiring. A key is `bck_` with 30 random base62
// characters and a 6-character base62 CRC32 of them, as GitHub's tokens are made, so a secret
// scanner can tell a real key from a string that merely looks like one.
import { randomInt } from 'node:crypto'
import { crc32 } from 'node:zlib'
import type { Actor } from '#app/auth/guards.server'
import {
  type ApiKey,
  findUsableApiKey,
  insertApiKey,
  markApiKeyUsed,
  revokeApiKeyRow,
} from '#app/models/api-keys.server'
import { recordOrganizationAudit } from '#app/models/audit.server'
import { hashScimToken } from '#app/scim/scim-tokens.server'
import { Refusal } from '#app/utils/action-error'
import { API_KEY_PATTERN, API_KEY_PREFIX, type ApiScope } from '#app/validation/api'
import { type Transaction, withTenant } from '#drizzle/db.server'

export const KEY_NOT_FOUND = 'This key no longer exists or was already revoked'
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

function base62(value: number, width: number) {
  let out = ''
  for (let rest = value; out.length < width; rest = Math.floor(rest / 62)) {
    out = BASE62[rest % 62] + out
  }
  return out
}

const checksumOf = (random: string) => base62(crc32(random), 6)

/** Whether a string has a key's shape and its checksum holds (no database needed). */
export function isWellFormedApiKey(key: string) {
  const match = API_KEY_PATTERN.exec(key)
  return Boolean(match?.[1] && match[2] === checksumOf(match[1]))
}

/** A key's SHA-256, as stored: the same hash the SCIM tokens use. */
export const hashApiKey = hashScimToken

export function newApiKey() {
  const random = Array.from({ length: 30 }, () => BASE62[randomInt(62)]).join('')
  const key = `${API_KEY_PREFIX}${random}${checksumOf(random)}`
  return { key, keyHash: hashApiKey(key), lastFour: key.slice(-4) }
}

/** How a key is shown in the list: never the key, its last four characters. */
export function describeApiKey(row: ApiKey, now = new Date()) {
  const state = row.revokedAt
    ? 'revoked'
    : row.expiresAt && row.expiresAt < now
      ? 'expired'
      : 'active'
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    lastFour: row.lastFour,
    state,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    lastUsedIp: row.lastUsedIp,
  } as const
}
export type ApiKeyView = ReturnType<typeof describeApiKey>

/** The end of the UTC day `YYYY-MM-DD`; refused when that is already past. */
function expiryOf(expiresOn: string | undefined, now = new Date()) {
  if (!expiresOn) return null
  const end = new Date(`${expiresOn}T23:59:59.999Z`)
  if (Number.isNaN(end.getTime()) || end < now) {
    throw new Refusal('invalid', 'Please choose a date after today, or none', {
      field: 'expiresOn',
    })
  }
  return end
}

/** A new key; the key itself is returned once, for the screen to show. */
export async function createApiKey(
  admin: Actor,
  input: { name: string; scopes: ApiScope[]; expiresOn?: string },
) {
  const expiresAt = expiryOf(input.expiresOn)
  const { key, ...stored } = newApiKey()
  const scopes = [...new Set(input.scopes)].sort()
  return withTenant(admin.tenant.id, async (tx) => {
    const row = await insertApiKey(tx, admin.tenant.id, {
      name: input.name,
      scopes,
      expiresAt,
      ...stored,
      createdByUserId: admin.user.id,
    })
    await recordOrganizationAudit(tx, admin.tenant.id, admin.user.id, 'api.key_created', {
      keyId: row.id,
      name: row.name,
      scopes,
      lastFour: row.lastFour,
      expiresAt: expiresAt?.toISOString() ?? null,
    })
    return { key, name: row.name }
  })
}

export async function revokeApiKey(admin: Actor, keyId: string) {
  await withTenant(admin.tenant.id, async (tx) => {
    const row = await revokeApiKeyRow(tx, admin.tenant.id, keyId)
    if (!row) throw new Refusal('not_found', KEY_NOT_FOUND)
    await recordOrganizationAudit(tx, admin.tenant.id, admin.user.id, 'api.key_revoked', {
      keyId: row.id,
      name: row.name,
      lastFour: row.lastFour,
    })
  })
  return 'Key revoked'
}

/**
 * The key an `Authorization: Bearer` header names, if it is this organization's, well formed
 * and usable; its last use (time and address) is recorded on its row.
 */
export async function authenticateApiKey(
  tx: Transaction,
  organizationId: string,
  authorization: string | null,
  address: string,
) {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')
  const key = match?.[1]
  if (!key || !isWellFormedApiKey(key)) return null
  const row = await findUsableApiKey(tx, organizationId, hashApiKey(key))
  if (!row) return null
  await markApiKeyUsed(tx, organizationId, row.id, address)
  return row
}
