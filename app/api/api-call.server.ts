// What every REST API operation gets and returns (ADR 092): the key's transaction inside its
// agency, and an entry of the router table that names its method, path, scope and schemas.
import type { z } from 'zod'
import type { ApiKey } from '#app/models/api-keys.server'
import { recordAudit } from '#app/models/audit.server'
import { type KeysetPage, pageOf } from '#app/models/keyset.server'
import { findUserById } from '#app/models/users.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import type { ApiScope } from '#app/validation/api'
import type { Transaction } from '#drizzle/db.server'
import { ApiProblem } from './problem'

/** One authenticated call: the agency's transaction (withTenant) and the key that made it. */
export type ApiCall = { tx: Transaction; tenant: Tenant; key: ApiKey; clientIp: string }

export type ApiAnswer = { status: number; body?: unknown }

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined

/** An operation of the router table; `path` is the OpenAPI path below /api/v1. */
export type ApiRoute<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
> = {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  path: `/${string}`
  operationId: string
  summary: string
  tag: string
  scope: ApiScope
  params?: P
  query?: Q
  body?: B
  /** The success answer: its status and (none for 204) its schema. */
  success: { status: number; description: string; schema?: z.ZodType }
  /** A create: an `Idempotency-Key` header is honoured. */
  create?: boolean
  /**
   * What of the answer an `Idempotency-Key` keeps for a replay, when not all of it: a secret
   * shown once (a webhook's signing secret) is never kept at rest.
   */
  kept?: (body: unknown) => unknown
  handle: (
    call: ApiCall,
    input: { params: Parsed<P>; query: Parsed<Q>; body: Parsed<B> },
  ) => Promise<ApiAnswer>
}

/** Keeps an entry's types while the table holds them all alike. */
export const route = <
  P extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  B extends z.ZodType | undefined,
>(
  entry: ApiRoute<P, Q, B>,
) => entry as unknown as ApiRoute

/** A write made through the API, in the agency's audit log: no person, the key that did it. */
export function auditApiWrite(
  call: ApiCall,
  action: string,
  entityType: string,
  entityId: string,
  metadata: Record<string, unknown> = {},
) {
  return recordAudit(call.tx, call.tenant.id, {
    actorUserId: null,
    action,
    entityType,
    entityId,
    metadata: { via: 'api', apiKeyId: call.key.id, apiKeyName: call.key.name, ...metadata },
  })
}

/** The user of this agency a body's `owner_id` names, or a 422 problem on that field. */
export async function requireOwner(call: ApiCall, ownerId: string) {
  const owner = await findUserById(call.tx, call.tenant.id, ownerId)
  if (!owner) {
    throw new ApiProblem(422, 'owner_id names no user of this agency', {
      errors: [{ pointer: '/owner_id', detail: 'Unknown user' }],
    })
  }
  return owner
}

export const notFound = (what: string) => new ApiProblem(404, `No such ${what} in this agency`)

/** A page's cursor: opaque to callers (base64url of the position). */
function encodeCursor(next: { at: string; id: string } | null) {
  return next ? Buffer.from(JSON.stringify([next.at, next.id])).toString('base64url') : null
}

/** A timestamp as Postgres writes it (`2026-12-01 09:30:00.123456+00`). */
const POSITION = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:\d{2})?|Z)$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

type ListQuery = { limit: number; cursor?: string; updated_since?: string }

function keysetPageOf(query: ListQuery): KeysetPage {
  let after: KeysetPage['after'] = null
  if (query.cursor) {
    try {
      const [at, id] = JSON.parse(Buffer.from(query.cursor, 'base64url').toString()) as unknown[]
      if (typeof at !== 'string' || typeof id !== 'string' || !UUID.test(id)) throw new Error()
      if (!POSITION.test(at)) throw new Error()
      after = { at, id }
    } catch {
      throw new ApiProblem(400, 'The cursor is not one this API gave', {
        errors: [{ pointer: '/cursor', detail: 'Unknown cursor' }],
      })
    }
  }
  return {
    limit: query.limit,
    after,
    updatedSince: query.updated_since ? new Date(query.updated_since) : null,
  }
}

/**
 * A list operation's answer: the page the query's cursor asks for, each row as the API shows it
 * (one after another: they share the call's transaction), and the cursor of the page after.
 */
export async function answerPage<Row extends { id: string; position: string }>(
  query: ListQuery,
  list: (page: KeysetPage) => PromiseLike<Row[]>,
  toApi: (row: Row) => unknown,
): Promise<ApiAnswer> {
  const page = keysetPageOf(query)
  const { items, next } = pageOf(await list(page), page.limit)
  const data = []
  for (const item of items) data.push(await toApi(item))
  return { status: 200, body: { data, next_cursor: encodeCursor(next) } }
}

export const iso = (date: Date | null) => date?.toISOString() ?? null

/** When a row was made and last changed, as every resource of the API answers them. */
export const timestamps = (row: { createdAt: Date; updatedAt: Date }) => ({
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
})
