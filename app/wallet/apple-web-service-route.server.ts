// Apple's PassKit web service (issue 29 point 1, ADR 042), at {tenant origin}/wallet/apple/v1/…:
// devices register for a pass's updates, ask which of their passes changed since a tag, fetch
// the latest pass and send their logs. Called by devices, not browsers: no session and no
// CSRF check (server.ts lets these paths through without an Origin); a pass's own requests carry
// its token (`Authorization: ApplePass {token}`). The host says the tenant, as for every route,
// and every query takes it.
import { STATUS_CODES } from 'node:http'
import type { AppLoadContext } from '@remix-run/node'
import { z } from 'zod'
import { WALLET_WEB_SERVICE_PREFIX } from '#app/auth/origin'
import { type AppleWalletConfig, appleWalletConfig } from '#app/cards/apple-config.server'
import { isUuid } from '#app/models/cards.server'
import {
  findWalletPass,
  listDevicePassesUpdatedSince,
  registerWalletDevice,
  unregisterWalletDevice,
} from '#app/models/wallet-passes.server'
import { addressLimitKey, assertNotLimited, recordHits } from '#app/rate-limits/rate-limit.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { isRefusal } from '#app/utils/action-error'
import { clientDataLine } from '#app/utils/client-data-log'
import { withTenant } from '#drizzle/db.server'
import { buildPkpass, openPassCard, passContentOf, pkpassResponse } from './apple-pass.server'
import { hasPassAuthorization } from './pass-token.server'

const DEVICE = /^[A-Za-z0-9._-]{1,128}$/
const MAX_LOG_LINES = 50

type Endpoint =
  | { kind: 'registration'; device: string; passType: string; serial: string }
  | { kind: 'serials'; device: string; passType: string }
  | { kind: 'pass'; passType: string; serial: string }
  | { kind: 'log' }

/** The endpoint a path below /v1/ names, or null for anything else. */
export function endpointOf(path: string): Endpoint | null {
  const parts = path.split('/').map((part) => {
    try {
      return decodeURIComponent(part)
    } catch {
      return ''
    }
  })
  const [first, device = '', registrations, passType = '', serial = '', ...rest] = parts
  if (first === 'log' && parts.length === 1) return { kind: 'log' }
  if (first === 'passes' && parts.length === 3) {
    return { kind: 'pass', passType: parts[1] ?? '', serial: parts[2] ?? '' }
  }
  if (first !== 'devices' || registrations !== 'registrations' || rest.length > 0) return null
  if (!DEVICE.test(device) || !passType) return null
  if (parts.length === 4) return { kind: 'serials', device, passType }
  if (parts.length === 5 && serial) return { kind: 'registration', device, passType, serial }
  return null
}

/** A bare protocol answer; its text says what went wrong, for a person reading a device's log. */
const answer = (status: number, message = STATUS_CODES[status] ?? '') =>
  new Response(status < 300 ? null : message, {
    status,
    headers: status < 300 ? {} : { 'Content-Type': 'text/plain; charset=utf-8' },
  })

/** The service, or null (a 404) while Apple Wallet is not configured. */
async function service(request: Request, context: AppLoadContext) {
  const tenant = await requireTenant(context)
  const config = appleWalletConfig()
  // The path below /v1/ as the device sent it (still percent-encoded: endpointOf decodes).
  const { pathname } = new URL(request.url)
  const path = pathname.startsWith(WALLET_WEB_SERVICE_PREFIX)
    ? pathname.slice(WALLET_WEB_SERVICE_PREFIX.length)
    : ''
  const endpoint = endpointOf(path)
  if (!config || !endpoint) return null
  return { tenant, config, endpoint }
}

/** The pass a request names, if it carries that pass's token. */
async function authorizedPass(
  request: Request,
  tenant: Tenant,
  config: AppleWalletConfig,
  passType: string,
  serial: string,
) {
  // An unknown pass and a wrong token answer alike: nothing says which serials exist.
  if (passType !== config.passTypeId || !isUuid(serial)) return undefined
  if (!hasPassAuthorization(request.headers.get('Authorization'), tenant.id, serial)) {
    return undefined
  }
  return withTenant(tenant.id, (tx) => findWalletPass(tx, tenant.id, serial))
}

const RegistrationBody = z.object({ pushToken: z.string().regex(/^[A-Za-z0-9]{1,200}$/) })
const LogBody = z.object({ logs: z.array(z.string().max(2000)).max(MAX_LOG_LINES) })

async function jsonBody(request: Request) {
  try {
    return (await request.json()) as unknown
  } catch {
    return undefined
  }
}

/** GET: the serials updated since a tag, and the latest pass. */
export async function walletServiceLoader(request: Request, context: AppLoadContext) {
  const found = await service(request, context)
  if (!found) return answer(404)
  const { tenant, config, endpoint } = found
  if (endpoint.kind === 'serials') return updatedSerials(request, tenant, config, endpoint)
  if (endpoint.kind === 'pass') return latestPass(request, tenant, config, endpoint)
  return answer(405)
}

/** POST and DELETE: registrations and logs. */
export async function walletServiceAction(request: Request, context: AppLoadContext) {
  const found = await service(request, context)
  if (!found) return answer(404)
  const { tenant, config, endpoint } = found
  const method = request.method.toUpperCase()
  if (endpoint.kind === 'log' && method === 'POST') {
    const body = LogBody.safeParse(await jsonBody(request))
    if (!body.success) return answer(400, 'Expected JSON: { "logs": [up to 50 strings] }')
    try {
      await logLimit(context)
    } catch (error) {
      if (!isRefusal(error, 'rate_limited')) throw error
      return answer(429, error.message)
    }
    // One record per request, the lines as data (app/utils/client-data-log.ts).
    console.warn(
      clientDataLine('apple wallet device log', { tenant: tenant.slug, lines: body.data.logs }),
    )
    return answer(200)
  }
  if (endpoint.kind !== 'registration' || !['POST', 'DELETE'].includes(method)) return answer(405)
  const pass = await authorizedPass(request, tenant, config, endpoint.passType, endpoint.serial)
  if (!pass) return answer(401)
  if (method === 'DELETE') {
    await withTenant(tenant.id, (tx) =>
      unregisterWalletDevice(tx, tenant.id, pass.id, endpoint.device),
    )
    return answer(200)
  }
  const body = RegistrationBody.safeParse(await jsonBody(request))
  if (!body.success) return answer(400, 'Expected JSON: { "pushToken": letters and digits }')
  const outcome = await withTenant(tenant.id, (tx) =>
    registerWalletDevice(tx, tenant.id, pass.id, endpoint.device, body.data.pushToken),
  )
  return answer(outcome === 'created' ? 201 : 200)
}

// Anyone may post a log line; each address only so many a minute.
async function logLimit(context: AppLoadContext) {
  const limits = [
    { name: 'walletLogIp' as const, key: addressLimitKey('walletLogIp', context.clientIp ?? '') },
  ]
  await assertNotLimited(limits)
  await recordHits(limits)
}

/** The update tag: the newest version's time, in whole seconds since the epoch. */
const tagOf = (date: Date) => String(Math.floor(date.getTime() / 1000))

function sinceTag(request: Request) {
  const tag = new URL(request.url).searchParams.get('passesUpdatedSince')
  return tag && /^\d{1,12}$/.test(tag) ? new Date(Number(tag) * 1000) : null
}

async function updatedSerials(
  request: Request,
  tenant: Tenant,
  config: AppleWalletConfig,
  endpoint: { device: string; passType: string },
) {
  if (endpoint.passType !== config.passTypeId) return answer(204)
  const rows = await withTenant(tenant.id, (tx) =>
    listDevicePassesUpdatedSince(tx, tenant.id, endpoint.device, sinceTag(request)),
  )
  if (rows.length === 0) return answer(204)
  const newest = rows.reduce((a, b) => (b.updatedAt > a.updatedAt ? b : a))
  return Response.json(
    { serialNumbers: rows.map((row) => row.id), lastUpdated: tagOf(newest.updatedAt) },
    { headers: { 'Cache-Control': 'no-store' } },
  )
}

async function latestPass(
  request: Request,
  tenant: Tenant,
  config: AppleWalletConfig,
  endpoint: { passType: string; serial: string },
) {
  const pass = await authorizedPass(request, tenant, config, endpoint.passType, endpoint.serial)
  if (!pass) return answer(401)
  // The version (Last-Modified) is the refresh job's to move: a request that built from a tenant
  // its process has not yet seen change would otherwise date old content as new.
  // A card its viewer may no longer see answers a voided pass with nothing of it.
  const content = await withTenant(tenant.id, async (tx) =>
    passContentOf(tenant, await openPassCard(tx, tenant.id, pass)),
  )
  const modifiedSince = Date.parse(request.headers.get('If-Modified-Since') ?? '')
  if (!Number.isNaN(modifiedSince) && pass.updatedAt.getTime() <= modifiedSince) {
    return new Response(null, {
      status: 304,
      headers: { 'Last-Modified': pass.updatedAt.toUTCString() },
    })
  }
  return pkpassResponse(await buildPkpass(config, tenant, pass, content), pass, content)
}
