// A local stand-in for the GoHighLevel API on 127.0.0.1: it records every request, accepts the
// keys it is told are valid (401 for any other), keeps contacts as the real upsert endpoint does
// (one per email or phone) and deletes them, and can be told to answer the next requests with a status, slowly,
// or never. Integration tests drive it in process; the e2e servers start one beside them and
// specs drive it over HTTP (POST /__fake/state).
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readBody, send } from './fake-http'

export type CrmRequest = {
  method: string
  path: string
  /** The sub-account named by the query (`locationId=`) or the body. */
  locationId: string | undefined
  authorization: string | undefined
  version: string | undefined
  body: Record<string, unknown> | null
}

type Scripted = { status: number } | { delayMs: number } | { hang: true }

export type FakeCrmState = {
  validKeys: string[]
  /** When set, a request must name one of these locations (403 otherwise, as the API does). */
  locationIds?: string[]
  /** Answers for the next requests, in order; each is used once. */
  script: Scripted[]
}

export type FakeCrm = {
  url: string
  port: number
  requests: CrmRequest[]
  contacts: Map<string, Record<string, unknown> & { id: string }>
  state: FakeCrmState
  /** Requests to create or update contacts (the upsert endpoint). */
  upserts(): CrmRequest[]
  /** Requests to delete contacts. */
  deletions(): CrmRequest[]
  reset(): void
  close(): Promise<void>
}

export async function startFakeCrm(options: { port?: number; validKeys?: string[] } = {}) {
  const requests: CrmRequest[] = []
  const contacts = new Map<string, Record<string, unknown> & { id: string }>()
  const state: FakeCrmState = { validKeys: options.validKeys ?? [], script: [] }
  const hanging = new Set<ServerResponse>()
  let nextId = 1

  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req)
    const path = req.url ?? '/'
    if (path === '/__fake/state') {
      // The e2e specs' control endpoint: set the valid keys and the script, read the record.
      if (req.method === 'POST') {
        const update = JSON.parse(raw || '{}') as Partial<FakeCrmState> & { reset?: boolean }
        if (update.reset) {
          requests.length = 0
          contacts.clear()
          state.script = []
        }
        if (update.validKeys) state.validKeys = update.validKeys
        if (update.locationIds) state.locationIds = update.locationIds
        if (update.script) state.script = update.script
      }
      send(res, 200, { ...state, requests, contacts: [...contacts.values()] })
      return
    }
    let body: Record<string, unknown> | null = null
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null
    } catch {
      send(res, 400, { message: 'invalid JSON' })
      return
    }
    const locationId =
      new URL(path, 'http://fake').searchParams.get('locationId') ??
      (typeof body?.locationId === 'string' ? body.locationId : undefined)
    requests.push({
      method: req.method ?? 'GET',
      path,
      locationId,
      authorization: req.headers.authorization,
      version: req.headers.version as string | undefined,
      body,
    })
    const scripted = state.script.shift()
    if (scripted && 'hang' in scripted) {
      hanging.add(res)
      res.on('close', () => hanging.delete(res))
      return
    }
    if (scripted && 'delayMs' in scripted) {
      await new Promise((resolve) => setTimeout(resolve, scripted.delayMs))
    }
    if (scripted && 'status' in scripted) {
      send(res, scripted.status, { message: `scripted ${scripted.status}` })
      return
    }
    const key = req.headers.authorization?.replace(/^Bearer /, '') ?? ''
    if (!state.validKeys.includes(key)) {
      send(res, 401, { message: 'Invalid JWT' })
      return
    }
    if (state.locationIds?.length && !state.locationIds.includes(locationId ?? '')) {
      send(res, 403, { message: 'The token does not have access to this location.' })
      return
    }
    if (req.method === 'GET' && path.startsWith('/contacts/')) {
      send(res, 200, { contacts: [...contacts.values()].slice(0, 1), total: contacts.size })
      return
    }
    if (req.method === 'POST' && path === '/contacts/upsert' && body) {
      const match = String(body.email ?? '') || String(body.phone ?? '')
      if (!match) {
        send(res, 422, { message: 'email or phone is required' })
        return
      }
      const existing = contacts.get(match)
      const contact = { ...(existing ?? {}), ...body, id: existing?.id ?? `crm_${nextId++}` }
      contacts.set(match, contact)
      send(res, existing ? 200 : 201, { new: !existing, contact })
      return
    }
    const deleted = req.method === 'DELETE' && path.match(/^\/contacts\/([^/?]+)$/)
    if (deleted) {
      const id = decodeURIComponent(deleted[1] ?? '')
      const match = [...contacts].find(([, contact]) => contact.id === id)
      if (!match) {
        send(res, 404, { message: 'Contact not found' })
        return
      }
      contacts.delete(match[0])
      send(res, 200, { succeded: true })
      return
    }
    send(res, 404, { message: 'not found' })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const fake: FakeCrm = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    contacts,
    state,
    upserts: () => requests.filter((request) => request.path === '/contacts/upsert'),
    deletions: () => requests.filter((request) => request.method === 'DELETE'),
    reset() {
      requests.length = 0
      contacts.clear()
      state.script = []
      state.locationIds = undefined
    },
    async close() {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  return fake
}
