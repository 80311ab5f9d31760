// The agency's SCIM bearer tokens (issue 42 point 2, ADR 089): made by an agency admin, shown
// once, kept as SHA-256 only. Rotation makes a new token and lets the old one work for the
// grace the admin chose, so the identity provider can be switched over without a gap.
import { randomBytes } from 'node:crypto'
import { sha256 } from '@oslojs/crypto/sha2'
import { encodeHexLowerCase } from '@oslojs/encoding'
import type { Actor } from '#app/auth/guards.server'
import { recordOrganizationAudit } from '#app/models/audit.server'
import {
  endScimToken,
  findScimToken,
  findUsableScimToken,
  insertScimToken,
  markScimTokenUsed,
  type ScimToken,
} from '#app/models/scim.server'
import { Refusal } from '#app/utils/action-error'
import { type Transaction, withTenant } from '#drizzle/db.server'

/** Tokens start with this, so secret scanners and people can tell what they hold. */
export const SCIM_TOKEN_PREFIX = 'bcscim_'
export const TOKEN_NOT_FOUND = 'This token no longer exists or was revoked'

export function hashScimToken(token: string) {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)))
}

function newToken() {
  const token = `${SCIM_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`
  return { token, tokenHash: hashScimToken(token), lastFour: token.slice(-4) }
}

/** How a token is shown in the list: never the token, its last four characters. */
export function describeToken(row: ScimToken, now = new Date()) {
  const state = row.revokedAt
    ? 'revoked'
    : row.expiresAt && row.expiresAt < now
      ? 'expired'
      : row.expiresAt
        ? 'expiring'
        : 'active'
  return {
    id: row.id,
    name: row.name,
    lastFour: row.lastFour,
    state,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  } as const
}
export type ScimTokenView = ReturnType<typeof describeToken>

async function createIn(tx: Transaction, admin: Actor, name: string) {
  const { token, ...stored } = newToken()
  const row = await insertScimToken(tx, admin.tenant.id, {
    name,
    ...stored,
    createdByUserId: admin.user.id,
  })
  return { token, row }
}

/** A new token; the token itself is returned once, for the screen to show. */
export async function createScimToken(admin: Actor, name: string) {
  return withTenant(admin.tenant.id, async (tx) => {
    const { token, row } = await createIn(tx, admin, name)
    await recordOrganizationAudit(tx, admin.tenant.id, admin.user.id, 'scim.token_created', {
      tokenId: row.id,
      name,
      lastFour: row.lastFour,
    })
    return { token, name: row.name }
  })
}

/**
 * A new token under the same name; the old one keeps working for `graceHours` (0: it stops now).
 * 404 for a token that is not this agency's or was revoked.
 */
export async function rotateScimToken(admin: Actor, tokenId: string, graceHours: number) {
  return withTenant(admin.tenant.id, async (tx) => {
    const old = await findScimToken(tx, admin.tenant.id, tokenId)
    if (!old || old.revokedAt) throw new Refusal('not_found', TOKEN_NOT_FOUND)
    const until = new Date(Date.now() + graceHours * 3_600_000)
    const end = graceHours === 0 ? { revokedAt: until } : { expiresAt: until }
    // An old token already due to expire sooner keeps its earlier end.
    if (!('expiresAt' in end) || !old.expiresAt || old.expiresAt > until) {
      await endScimToken(tx, admin.tenant.id, old.id, end)
    }
    const { token, row } = await createIn(tx, admin, old.name)
    await recordOrganizationAudit(tx, admin.tenant.id, admin.user.id, 'scim.token_rotated', {
      tokenId: row.id,
      replacedTokenId: old.id,
      graceHours,
      lastFour: row.lastFour,
    })
    return { token, name: row.name }
  })
}

export async function revokeScimToken(admin: Actor, tokenId: string) {
  await withTenant(admin.tenant.id, async (tx) => {
    const row = await endScimToken(tx, admin.tenant.id, tokenId, { revokedAt: new Date() })
    if (!row) throw new Refusal('not_found', TOKEN_NOT_FOUND)
    await recordOrganizationAudit(tx, admin.tenant.id, admin.user.id, 'scim.token_revoked', {
      tokenId: row.id,
      name: row.name,
      lastFour: row.lastFour,
    })
  })
  return 'Token revoked'
}

/** The token an `Authorization: Bearer` header names, if it is this organization's and usable. */
export async function authenticateScimToken(
  tx: Transaction,
  organizationId: string,
  authorization: string | null,
) {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')
  if (!match?.[1]) return null
  const row = await findUsableScimToken(tx, organizationId, hashScimToken(match[1]))
  if (!row) return null
  await markScimTokenUsed(tx, organizationId, row.id)
  return row
}
