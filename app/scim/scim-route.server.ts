// The SCIM 2.0 endpoint, {agency origin}/scim/v2/… (issue 42 point 2, ADR 089). The host says
// the agency as for every route; the bearer token must be one of that agency's (a token of
// another agency is not found: 401). No session and no CSRF check: server.ts lets these paths
// through without an Origin, because the token is the only credential and a browser cannot be
// made to send it. Every call, refused ones included, goes in the agency's provisioning log.
import type { AppLoadContext } from '@remix-run/node'
import SCIMMY from 'scimmy'
import { recordScimEvent } from '#app/models/scim.server'
import {
  addressLimitKey,
  assertNotLimited,
  hitOrRefuseIn,
  limitKey,
  recordHits,
} from '#app/rate-limits/rate-limit.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { isRefusal } from '#app/utils/action-error'
import { pathSegments } from '#app/utils/request-target'
import { SCIM_CORE_USER, SCIM_ENTERPRISE_USER, SCIM_GROUP } from '#app/validation/scim'
import { withDatabase, withTenant } from '#drizzle/db.server'
import {
  createGroup,
  createUserFromScim,
  deleteGroup,
  deleteUserFromScim,
  getGroup,
  getUser,
  listGroups,
  listUsers,
  patchGroup,
  patchUser,
  replaceGroup,
  replaceUser,
  type ScimCall,
  type ScimOutcome,
} from './directory-sync.server'
import { MAX_COUNT, ScimRefusal, type ScimType, scimErrorBody, scimResponse } from './protocol'
import { authenticateScimToken } from './scim-tokens.server'

export const SCIM_BASE_PATH = '/scim/v2'
/** The largest body a SCIM call may send: a group PATCH of a few thousand members fits. */
const MAX_BODY_CHARS = 1_000_000

export const scimBaseUrl = (tenant: Tenant) => `${tenantOrigin(tenant)}${SCIM_BASE_PATH}`

/** The request body with every secret-looking attribute replaced, for the provisioning log. */
export function redactScimBody(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[…]'
  if (Array.isArray(value)) return value.slice(0, 50).map((item) => redactScimBody(item, depth + 1))
  if (typeof value !== 'object' || value === null) {
    return typeof value === 'string' && value.length > 500 ? `${value.slice(0, 500)}…` : value
  }
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    out[key] = /password|secret|token/i.test(key) ? '[redacted]' : redactScimBody(item, depth + 1)
  }
  // Okta and Entra may send a password as a PATCH value ({"op":"replace","path":"password",…}).
  if (typeof out.path === 'string' && /password/i.test(out.path) && 'value' in out) {
    out.value = '[redacted]'
  }
  return out
}

function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    documentationUri: `${baseUrl.replace(/\/scim\/v2$/, '')}/docs/scim`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_COUNT },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: 'A token an agency admin makes under Agency → Directory sync (SCIM)',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  }
}

function resourceTypes(baseUrl: string) {
  return [
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'A person of the agency',
      schema: SCIM_CORE_USER,
      schemaExtensions: [{ schema: SCIM_ENTERPRISE_USER, required: false }],
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/User` },
    },
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'A team of the agency',
      schema: SCIM_GROUP,
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/Group` },
    },
  ]
}

/** The schema definitions of RFC 7643 §8.7.1, as scimmy carries them. */
function schemaDefinitions(baseUrl: string) {
  return [SCIMMY.Schemas.User, SCIMMY.Schemas.EnterpriseUser, SCIMMY.Schemas.Group].map(
    (schema) => schema.definition.describe(`${baseUrl}/Schemas`) as Record<string, unknown>,
  )
}

const listOf = (resources: unknown[]) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
  totalResults: resources.length,
  startIndex: 1,
  itemsPerPage: resources.length,
  Resources: resources,
})

function findById<T extends { id?: unknown }>(list: T[], id: string) {
  const found = list.find((item) => item.id === id)
  if (!found) throw new ScimRefusal('not_found', `Resource ${id} not found`)
  return found
}

/** The body as JSON, or the outcome that refuses it (too large: 413; not JSON: invalidSyntax). */
async function readBody(request: Request): Promise<{ body: unknown } | { refused: ScimOutcome }> {
  const text = await request.text()
  if (text.length > MAX_BODY_CHARS) {
    return { refused: failure(413, 'The request body is too large', 'tooMany') }
  }
  try {
    return { body: JSON.parse(text) as unknown }
  } catch {
    throw new ScimRefusal('invalid', 'The request body is not JSON', 'invalidSyntax')
  }
}

/** An answer that is no refusal of the rules: a method or a size the protocol does not take. */
const failure = (status: number, detail: string, scimType?: ScimType): ScimOutcome => ({
  status,
  body: scimErrorBody(status, detail, scimType),
  error: detail,
})

const notAllowed = (method: string, where: string) =>
  failure(405, `${method} is not supported on ${where}`)

/** The discovery endpoints: the same for every agency, still behind the token. */
function discovery(segments: string[], baseUrl: string): ScimOutcome | null {
  const [first, id] = segments
  if (first === 'ServiceProviderConfig' && segments.length === 1) {
    return { status: 200, body: serviceProviderConfig(baseUrl) }
  }
  if (first === 'ResourceTypes') {
    const list = resourceTypes(baseUrl)
    if (segments.length === 1) return { status: 200, body: listOf(list) }
    if (segments.length === 2 && id) return { status: 200, body: findById(list, id) }
  }
  if (first === 'Schemas') {
    const list = schemaDefinitions(baseUrl)
    if (segments.length === 1) return { status: 200, body: listOf(list) }
    if (segments.length === 2 && id) return { status: 200, body: findById(list, id) }
  }
  return null
}

async function dispatch(
  call: ScimCall,
  method: string,
  segments: string[],
  url: URL,
  body: unknown,
): Promise<ScimOutcome> {
  const known = discovery(segments, call.baseUrl)
  if (known) {
    return method === 'GET' ? known : notAllowed(method, url.pathname)
  }
  const [collection, id, ...rest] = segments
  if (rest.length > 0 || (collection !== 'Users' && collection !== 'Groups')) {
    throw new ScimRefusal('not_found', `No SCIM endpoint at ${url.pathname}`)
  }
  const users = collection === 'Users'
  if (!id) {
    if (method === 'GET') return users ? listUsers(call, url) : listGroups(call, url)
    if (method === 'POST') return users ? createUserFromScim(call, body) : createGroup(call, body)
    return notAllowed(method, `/${collection}`)
  }
  switch (method) {
    case 'GET':
      return users ? getUser(call, id) : getGroup(call, id, url)
    case 'PUT':
      return users ? replaceUser(call, id, body) : replaceGroup(call, id, body, url)
    case 'PATCH':
      return users ? patchUser(call, id, body) : patchGroup(call, id, body, url)
    case 'DELETE':
      return users ? deleteUserFromScim(call, id) : deleteGroup(call, id)
    default:
      return notAllowed(method, `/${collection}/{id}`)
  }
}

/**
 * A thrown refusal as SCIM's error: a ScimRefusal with its own scimType, or a Refusal of the
 * product's rules (a plan's seat limit) with the scimType its code suggests.
 */
function asScimFailure(error: unknown): ScimOutcome | null {
  if (!isRefusal(error)) return null
  const scimType =
    error instanceof ScimRefusal
      ? error.scimType
      : error.code === 'conflict'
        ? 'uniqueness'
        : error.code === 'invalid'
          ? 'invalidValue'
          : undefined
  return failure(error.status, error.message, scimType)
}

/** GET of /scim/v2/…: lists, resources and discovery. */
export function scimLoader(request: Request, context: AppLoadContext) {
  return handleScim(request, context)
}

/** POST, PUT, PATCH and DELETE of /scim/v2/…. */
export function scimAction(request: Request, context: AppLoadContext) {
  return handleScim(request, context)
}

/** Every method of /scim/v2/…: the loader's and the action's one body. */
async function handleScim(request: Request, context: AppLoadContext): Promise<Response> {
  let tenant: Tenant
  try {
    tenant = await requireTenant(context)
  } catch {
    return scimResponse(scimErrorBody(404, 'No SCIM service on this host'), 404)
  }
  if (tenant.kind !== 'agency') {
    return scimResponse(scimErrorBody(404, 'SCIM is offered on an agency host'), 404)
  }
  const url = new URL(request.url)
  const method = request.method.toUpperCase()
  const segments = pathSegments(
    url.pathname.slice(url.pathname.indexOf(SCIM_BASE_PATH) + SCIM_BASE_PATH.length),
  )
  const organizationId = tenant.id
  const baseUrl = scimBaseUrl(tenant)
  const clientIp = context.clientIp ?? ''
  const logPath = `${url.pathname}${url.search}`.slice(0, 1000)
  let body: unknown
  const log = (entry: {
    tokenId: string | null
    status: number
    outcome?: ScimOutcome
    error?: string
  }) =>
    withTenant(organizationId, (tx) =>
      recordScimEvent(tx, organizationId, {
        tokenId: entry.tokenId,
        method,
        path: logPath,
        resourceType:
          entry.outcome?.resourceType ??
          (segments[0] === 'Users' ? 'User' : segments[0] === 'Groups' ? 'Group' : null),
        resourceId: entry.outcome?.resourceId ?? segments[1] ?? null,
        status: entry.status,
        request: body === undefined ? null : redactScimBody(body),
        changes: entry.outcome?.changes ?? {},
        error: entry.error ?? null,
      }),
    )

  const refused = () =>
    scimResponse(
      scimErrorBody(401, 'The bearer token is missing, unknown, expired or revoked'),
      401,
      { 'WWW-Authenticate': 'Bearer realm="scim"' },
    )
  // Without any credential nothing is read, counted or logged: a scanner's or a browser's
  // request, with nothing in it for the agency to diagnose.
  const authorization = request.headers.get('authorization')
  if (!authorization) return refused()
  const refusedKey = addressLimitKey('scimRefusedIp', clientIp)
  const token = await withTenant(organizationId, (tx) =>
    authenticateScimToken(tx, organizationId, authorization),
  )
  if (!token) {
    try {
      await assertNotLimited([{ name: 'scimRefusedIp', key: refusedKey }])
    } catch (error) {
      if (!isRefusal(error, 'rate_limited')) throw error
      return scimResponse(scimErrorBody(429, 'Too many refused requests'), 429, {
        'Retry-After': String(error.retryAfterSeconds),
      })
    }
    await recordHits([{ name: 'scimRefusedIp', key: refusedKey }])
    await log({
      tokenId: null,
      status: 401,
      error: 'The bearer token is unknown, expired or revoked',
    })
    return refused()
  }

  try {
    await withDatabase((tx) => hitOrRefuseIn(tx, 'scimToken', limitKey('scimToken', token.id)))
  } catch (error) {
    if (!isRefusal(error, 'rate_limited')) throw error
    const detail = 'Too many requests for this token'
    await log({ tokenId: token.id, status: 429, error: detail })
    return scimResponse(scimErrorBody(429, detail, 'tooMany'), 429, {
      'Retry-After': String(error.retryAfterSeconds),
    })
  }

  try {
    let outcome: ScimOutcome
    const read = ['POST', 'PUT', 'PATCH'].includes(method) ? await readBody(request) : null
    if (read && 'refused' in read) {
      outcome = read.refused
    } else {
      body = read?.body
      outcome = await withTenant(organizationId, (tx) =>
        dispatch({ tx, organizationId, tokenId: token.id, baseUrl }, method, segments, url, body),
      )
    }
    await log({ tokenId: token.id, status: outcome.status, outcome, error: outcome.error })
    return scimResponse(outcome.body, outcome.status, outcome.headers)
  } catch (error) {
    const failed = asScimFailure(error)
    if (!failed) {
      await log({
        tokenId: token.id,
        status: 500,
        error: 'An unexpected error; nothing was changed',
      }).catch(() => {})
      throw error
    }
    await log({ tokenId: token.id, status: failed.status, error: failed.error })
    return scimResponse(failed.body, failed.status)
  }
}
