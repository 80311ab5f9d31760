// The REST API, {agency origin}/api/v1/… (issue 43 point 2, ADR 092). The host says the agency
// as for every route; the bearer key must be one of that agency's, looked up inside its tenant
// transaction (RLS), so another agency's key is unknown here: 401. No session and no CSRF check:
// server.ts lets these paths through without an Origin, the key being the only credential.
// Every answer is JSON; every refusal an RFC 9457 problem; reads are recorded as the key's last
// use, writes in the audit log; creates honour Idempotency-Key; each key has its rate limit.
import { hash } from 'node:crypto'
import type { AppLoadContext } from '@remix-run/node'
import type { z } from 'zod'
import {
  deleteIdempotentAnswersBefore,
  findIdempotentAnswer,
  IDEMPOTENT_ANSWER_KEPT_MS,
  saveIdempotentAnswer,
} from '#app/models/api-keys.server'
import {
  addressLimitKey,
  assertNotLimited,
  countHitIn,
  limitKey,
  recordHits,
} from '#app/rate-limits/rate-limit.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { isRefusal } from '#app/utils/action-error'
import { pathSegments } from '#app/utils/request-target'
import { withTenant } from '#drizzle/db.server'
import { findApiRoute } from './api-router.server'
import { authenticateApiKey } from './manage-api-keys.server'
import { API_BASE_PATH, openApiDocument } from './openapi.server'
import { ApiProblem, invalidProblem, problemResponse } from './problem'

/** The largest JSON body a call may send. */
const MAX_BODY_CHARS = 100_000
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/

const json = (body: unknown, status: number, headers: Record<string, string> = {}) =>
  status === 204
    ? new Response(null, { status, headers: { 'Cache-Control': 'no-store', ...headers } })
    : new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers },
      })

function segmentsOf(url: URL) {
  return pathSegments(url.pathname.slice(API_BASE_PATH.length))
}

async function readJson(request: Request) {
  const type = request.headers.get('content-type') ?? ''
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new ApiProblem(415, 'Send the body as application/json')
  }
  const text = await request.text()
  if (text.length > MAX_BODY_CHARS) throw new ApiProblem(413, 'The request body is too large')
  try {
    return { text, body: JSON.parse(text) as unknown }
  } catch {
    throw new ApiProblem(400, 'The request body is not JSON')
  }
}

function parse(schema: z.ZodType | undefined, value: unknown, where: 'body' | 'query' | 'path') {
  if (!schema) return undefined
  const result = schema.safeParse(value)
  if (!result.success) throw invalidProblem(where, result.error)
  return result.data
}

/** GET of /api/v1/…: reads, and the OpenAPI document. */
export function apiLoader(request: Request, context: AppLoadContext) {
  return handleApi(request, context)
}

/** POST, PATCH and DELETE of /api/v1/…. */
export function apiAction(request: Request, context: AppLoadContext) {
  return handleApi(request, context)
}

async function handleApi(request: Request, context: AppLoadContext): Promise<Response> {
  try {
    return await answer(request, context)
  } catch (error) {
    if (error instanceof ApiProblem) return problemResponse(error)
    if (isRefusal(error)) {
      // A rule of the product refused (a template's required field, a plan's limit).
      const status = error.status === 400 ? 422 : error.status
      // A rule about one field names it as the body does (snake_case), by JSON pointer.
      const field = error.field?.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)
      const extra = field ? { errors: [{ pointer: `/${field}`, detail: error.message }] } : {}
      return problemResponse(new ApiProblem(status, error.message, extra))
    }
    throw error
  }
}

async function answer(request: Request, context: AppLoadContext): Promise<Response> {
  let tenant: Tenant
  try {
    tenant = await requireTenant(context)
  } catch {
    throw new ApiProblem(404, 'No API on this host')
  }
  if (tenant.kind !== 'agency') throw new ApiProblem(404, 'The API is offered on an agency host')
  const url = new URL(request.url)
  const method = request.method.toUpperCase()
  const segments = segmentsOf(url)
  // The document describes the API; it holds nothing of the agency, so it needs no key.
  if (segments.length === 1 && segments[0] === 'openapi.json') {
    if (method !== 'GET') throw new ApiProblem(405, 'Only GET', {}, { Allow: 'GET' })
    return json(openApiDocument(tenantOrigin(tenant), tenant.name), 200, {
      'Cache-Control': 'public, max-age=300',
    })
  }
  const organizationId = tenant.id
  const clientIp = context.clientIp ?? ''
  const refused = () =>
    new ApiProblem(
      401,
      'The API key is missing, unknown, expired or revoked',
      {},
      {
        'WWW-Authenticate': 'Bearer realm="api"',
      },
    )
  const authorization = request.headers.get('authorization')
  if (!authorization) throw refused()
  const refusedKey = addressLimitKey('apiRefusedIp', clientIp)
  const key = await withTenant(organizationId, (tx) =>
    authenticateApiKey(tx, organizationId, authorization, clientIp),
  )
  if (!key) {
    try {
      await assertNotLimited([{ name: 'apiRefusedIp', key: refusedKey }])
    } catch (error) {
      if (!isRefusal(error, 'rate_limited')) throw error
      throw new ApiProblem(
        429,
        'Too many refused requests',
        {},
        {
          'Retry-After': String(error.retryAfterSeconds),
        },
      )
    }
    await recordHits([{ name: 'apiRefusedIp', key: refusedKey }])
    throw refused()
  }

  const limit = await withTenant(organizationId, (tx) =>
    countHitIn(tx, 'apiKey', limitKey('apiKey', key.id)),
  )
  const rateHeaders = {
    'RateLimit-Policy': `"per-key";q=${limit.limit};w=${limit.windowSeconds}`,
    RateLimit: `"per-key";r=${limit.remaining};t=${limit.resetSeconds}`,
  }
  const withRate = (problem: ApiProblem) =>
    new ApiProblem(problem.answerStatus, problem.message, problem.extra, {
      ...problem.headers,
      ...rateHeaders,
    })
  try {
    if (limit.over) {
      throw new ApiProblem(
        429,
        'Too many requests for this key',
        {},
        {
          'Retry-After': String(limit.resetSeconds),
        },
      )
    }
    const found = findApiRoute(method, segments)
    if (!found.entry) {
      if (found.allowed.length) {
        throw new ApiProblem(
          405,
          `${method} is not allowed here`,
          {},
          {
            Allow: found.allowed.join(', '),
          },
        )
      }
      throw new ApiProblem(404, `No API operation at ${url.pathname}`)
    }
    const entry = found.entry
    if (!key.scopes.includes(entry.scope)) {
      throw new ApiProblem(403, `This key lacks the ${entry.scope} scope`)
    }
    const params = parse(entry.params, found.params, 'path')
    const query = parse(entry.query, Object.fromEntries(url.searchParams), 'query')
    const read = entry.body ? await readJson(request) : null
    const body = parse(entry.body, read?.body, 'body')
    const idempotencyKey = entry.create ? request.headers.get('idempotency-key') : null
    if (idempotencyKey !== null && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw new ApiProblem(400, 'The Idempotency-Key header must be 1 to 255 visible characters')
    }
    const requestHash = hash('sha256', `${method} ${url.pathname}\n${read?.text ?? ''}`, 'hex')
    const result = await withTenant(organizationId, async (tx) => {
      if (idempotencyKey) {
        const first = await findIdempotentAnswer(tx, organizationId, idempotencyKey)
        if (first) {
          if (first.requestHash !== requestHash) {
            throw new ApiProblem(
              422,
              'This Idempotency-Key was used with another request; use a new key for a new create',
            )
          }
          return { status: first.status, body: first.response, replayed: true }
        }
      }
      const done = await entry.handle({ tx, tenant, key, clientIp }, { params, query, body })
      if (idempotencyKey) {
        // Answers are kept a day: older ones of this agency go as a new one is saved.
        await deleteIdempotentAnswersBefore(
          tx,
          organizationId,
          new Date(Date.now() - IDEMPOTENT_ANSWER_KEPT_MS),
        )
        const saved = await saveIdempotentAnswer(tx, organizationId, {
          idempotencyKey,
          apiKeyId: key.id,
          method,
          path: url.pathname,
          requestHash,
          status: done.status,
          response: (entry.kept ? entry.kept(done.body) : done.body) ?? null,
        })
        // Another request with the same key saved its answer first: this create rolls back.
        if (!saved) throw new ApiProblem(409, 'A request with this Idempotency-Key is in progress')
      }
      return { ...done, replayed: false }
    })
    return json(result.body, result.status, {
      ...rateHeaders,
      ...(result.replayed ? { 'Idempotent-Replayed': 'true' } : {}),
    })
  } catch (error) {
    if (error instanceof ApiProblem) throw withRate(error)
    throw error
  }
}
