// A local stand-in for a Salesforce org on 127.0.0.1 (ADR 094): the OAuth 2.0 client credentials
// flow at /services/oauth2/token (invalid_client for unknown credentials, as Salesforce answers),
// bearer access tokens on the REST API (401 INVALID_SESSION_ID for any other, or once expired),
// and the Lead sObject: describe, create (LastName and Company required, unknown fields refused
// with INVALID_FIELD), update, delete, and a SOQL query by email. It records every request and
// can be told to answer the next ones with a status, or to expire every token it gave.
import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readBody, send } from './fake-http'

export type SalesforceRequest = {
  method: string
  path: string
  authorization: string | undefined
  /** JSON bodies parsed; the token request's form fields as an object. */
  body: Record<string, unknown> | null
}

export type FakeSalesforceState = {
  /** Connected apps' credentials the org accepts. */
  clients: { clientId: string; clientSecret: string }[]
  /** Custom Lead fields the org has (Lead_Consent__c by default). */
  customFields: string[]
  script: { status: number }[]
}

export type FakeSalesforce = {
  url: string
  port: number
  requests: SalesforceRequest[]
  leads: Map<string, Record<string, unknown>>
  state: FakeSalesforceState
  tokenRequests(): SalesforceRequest[]
  leadCreates(): SalesforceRequest[]
  deletions(): SalesforceRequest[]
  /** Every token given so far stops working (a session timeout, a revoked token). */
  expireTokens(): void
  reset(): void
  close(): Promise<void>
}

const LEAD_FIELDS = [
  'FirstName',
  'LastName',
  'Company',
  'Email',
  'Phone',
  'Title',
  'LeadSource',
  'Description',
]
const API = '/services/data/v62.0'

export async function startFakeSalesforce(
  options: { port?: number; clients?: { clientId: string; clientSecret: string }[] } = {},
) {
  const requests: SalesforceRequest[] = []
  const leads = new Map<string, Record<string, unknown>>()
  const state: FakeSalesforceState = {
    clients: options.clients ?? [],
    customFields: ['Lead_Consent__c'],
    script: [],
  }
  const tokens = new Set<string>()
  let nextId = 1

  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req)
    const path = req.url ?? '/'
    const method = req.method ?? 'GET'
    if (path === '/__fake/state') {
      if (method === 'POST') {
        const update = JSON.parse(raw || '{}') as Partial<FakeSalesforceState>
        if (update.clients) state.clients = update.clients
        if (update.customFields) state.customFields = update.customFields
        if (update.script) state.script = update.script
      }
      send(res, 200, { ...state, requests, leads: [...leads.values()] })
      return
    }
    const url = new URL(path, 'http://fake')
    const isToken = url.pathname === '/services/oauth2/token'
    let body: Record<string, unknown> | null = null
    if (isToken) {
      body = Object.fromEntries(new URLSearchParams(raw))
    } else if (raw) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>
      } catch {
        send(res, 400, [{ message: 'Unexpected character', errorCode: 'JSON_PARSER_ERROR' }])
        return
      }
    }
    // The secret never goes into the record a test may print.
    const recorded = isToken && body ? { ...body, client_secret: '[hidden]' } : body
    requests.push({ method, path, authorization: req.headers.authorization, body: recorded })
    const scripted = state.script.shift()
    if (scripted) {
      send(res, scripted.status, [{ message: `scripted ${scripted.status}`, errorCode: 'UNKNOWN' }])
      return
    }
    if (isToken) {
      if (method !== 'POST' || body?.grant_type !== 'client_credentials') {
        send(res, 400, {
          error: 'unsupported_grant_type',
          error_description: 'grant type not supported',
        })
        return
      }
      const known = state.clients.some(
        (client) =>
          client.clientId === body?.client_id && client.clientSecret === body?.client_secret,
      )
      if (!known) {
        send(res, 400, { error: 'invalid_client', error_description: 'invalid client credentials' })
        return
      }
      const token = `00DFAKE000000001!${randomUUID()}`
      tokens.add(token)
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      send(res, 200, {
        access_token: token,
        signature: 'fake-signature',
        scope: 'api',
        instance_url: origin,
        id: `${origin}/id/00DFAKE000000001/005FAKE000000001`,
        token_type: 'Bearer',
        issued_at: String(Date.now()),
      })
      return
    }
    const bearer = req.headers.authorization?.replace(/^Bearer /, '') ?? ''
    if (!tokens.has(bearer)) {
      send(res, 401, [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }])
      return
    }
    if (method === 'GET' && url.pathname === `${API}/sobjects/Lead`) {
      send(res, 200, { objectDescribe: { name: 'Lead', createable: true }, recentItems: [] })
      return
    }
    if (method === 'GET' && url.pathname === `${API}/query`) {
      const q = url.searchParams.get('q') ?? ''
      const email = q.match(/Email = '((?:[^'\\]|\\.)*)'/)?.[1]?.replace(/\\(.)/g, '$1')
      const records = [...leads.values()]
        .filter((lead) => email !== undefined && lead.Email === email)
        .map((lead) => ({ attributes: { type: 'Lead' }, Id: lead.Id }))
      send(res, 200, { totalSize: records.length, done: true, records })
      return
    }
    const refuseFields = (fields: Record<string, unknown>) => {
      const unknown = Object.keys(fields).find(
        (name) => !LEAD_FIELDS.includes(name) && !state.customFields.includes(name),
      )
      if (!unknown) return false
      send(res, 400, [
        {
          message: `No such column '${unknown}' on sobject of type Lead`,
          errorCode: 'INVALID_FIELD',
        },
      ])
      return true
    }
    if (method === 'POST' && url.pathname === `${API}/sobjects/Lead`) {
      const fields = body ?? {}
      if (refuseFields(fields)) return
      const missing = ['LastName', 'Company'].filter((name) => !fields[name])
      if (missing.length) {
        send(res, 400, [
          {
            message: `Required fields are missing: [${missing.join(', ')}]`,
            errorCode: 'REQUIRED_FIELD_MISSING',
            fields: missing,
          },
        ])
        return
      }
      const id = `00Q${String(nextId++).padStart(15, '0')}`
      leads.set(id, { ...fields, Id: id })
      send(res, 201, { id, success: true, errors: [] })
      return
    }
    const one = url.pathname.match(new RegExp(`^${API}/sobjects/Lead/([^/]+)$`))
    if (one) {
      const id = decodeURIComponent(one[1] ?? '')
      const lead = leads.get(id)
      if (!lead) {
        send(res, 404, [
          { message: 'The requested resource does not exist', errorCode: 'NOT_FOUND' },
        ])
        return
      }
      if (method === 'DELETE') {
        leads.delete(id)
        res.writeHead(204).end()
        return
      }
      if (method === 'PATCH') {
        if (refuseFields(body ?? {})) return
        leads.set(id, { ...lead, ...body, Id: id })
        res.writeHead(204).end()
        return
      }
    }
    send(res, 404, [{ message: 'The requested resource does not exist', errorCode: 'NOT_FOUND' }])
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const fake: FakeSalesforce = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    leads,
    state,
    tokenRequests: () => requests.filter((request) => request.path === '/services/oauth2/token'),
    leadCreates: () =>
      requests.filter(
        (request) => request.method === 'POST' && request.path === `${API}/sobjects/Lead`,
      ),
    deletions: () => requests.filter((request) => request.method === 'DELETE'),
    expireTokens: () => tokens.clear(),
    reset() {
      requests.length = 0
      leads.clear()
      tokens.clear()
      state.script = []
      state.customFields = ['Lead_Consent__c']
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  return fake
}
