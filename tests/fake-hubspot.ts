// A local stand-in for HubSpot's CRM v3 API on 127.0.0.1 (ADR 094): bearer private app tokens
// (401 with HubSpot's error body for any other), contacts kept one per email as the batch upsert
// keyed by email does, custom properties refused unless defined (400 VALIDATION_ERROR, as a
// portal without the property answers), notes with their association to a contact, note search
// by associated contact, and deletion. It records every request and can be told to answer the
// next ones with a status. Integration tests drive it in process; the e2e servers start one
// beside them and specs drive it over HTTP (POST /__fake/state).
import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readBody, send } from './fake-http'

export type HubspotRequest = {
  method: string
  path: string
  authorization: string | undefined
  body: Record<string, unknown> | null
}

export type HubspotRecord = { id: string; properties: Record<string, string> }
export type HubspotNote = HubspotRecord & { contactIds: string[] }

/** The contact properties every portal has; any other must be defined (customProperties). */
const STANDARD_PROPERTIES = ['email', 'firstname', 'lastname', 'phone', 'company', 'jobtitle']

export type FakeHubspotState = {
  validTokens: string[]
  /** Custom contact properties the portal has (lead_consent by default). */
  customProperties: string[]
  /** Statuses for the next requests, in order; each is used once. */
  script: { status: number }[]
}

export type FakeHubspot = {
  url: string
  port: number
  requests: HubspotRequest[]
  contacts: Map<string, HubspotRecord>
  notes: HubspotNote[]
  state: FakeHubspotState
  upserts(): HubspotRequest[]
  deletions(): HubspotRequest[]
  reset(): void
  close(): Promise<void>
}

const errorBody = (message: string, category: string) => ({
  status: 'error',
  message,
  correlationId: randomUUID(),
  category,
})

export async function startFakeHubspot(options: { port?: number; validTokens?: string[] } = {}) {
  const requests: HubspotRequest[] = []
  const contacts = new Map<string, HubspotRecord>()
  const notes: HubspotNote[] = []
  const state: FakeHubspotState = {
    validTokens: options.validTokens ?? [],
    customProperties: ['lead_consent'],
    script: [],
  }
  let nextId = 1001

  const now = () => new Date().toISOString()
  const record = (contact: HubspotRecord, extra: Record<string, unknown> = {}) => ({
    id: contact.id,
    properties: contact.properties,
    createdAt: now(),
    updatedAt: now(),
    archived: false,
    ...extra,
  })
  /** HubSpot's answer to a property the portal does not have. */
  const unknownProperty = (properties: Record<string, unknown>) =>
    Object.keys(properties).find(
      (name) => !STANDARD_PROPERTIES.includes(name) && !state.customProperties.includes(name),
    )

  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req)
    const path = req.url ?? '/'
    if (path === '/__fake/state') {
      if (req.method === 'POST') {
        const update = JSON.parse(raw || '{}') as Partial<FakeHubspotState>
        if (update.validTokens) state.validTokens = update.validTokens
        if (update.customProperties) state.customProperties = update.customProperties
        if (update.script) state.script = update.script
      }
      send(res, 200, { ...state, requests, contacts: [...contacts.values()], notes })
      return
    }
    let body: Record<string, unknown> | null = null
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null
    } catch {
      send(res, 400, errorBody('Invalid input JSON', 'VALIDATION_ERROR'))
      return
    }
    const method = req.method ?? 'GET'
    requests.push({ method, path, authorization: req.headers.authorization, body })
    const scripted = state.script.shift()
    if (scripted) {
      send(res, scripted.status, errorBody(`scripted ${scripted.status}`, 'INTERNAL_ERROR'))
      return
    }
    const token = req.headers.authorization?.replace(/^Bearer /, '') ?? ''
    if (!state.validTokens.includes(token)) {
      send(
        res,
        401,
        errorBody(
          'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview',
          'INVALID_AUTHENTICATION',
        ),
      )
      return
    }
    const url = new URL(path, 'http://fake')
    if (method === 'GET' && url.pathname === '/crm/v3/objects/contacts') {
      send(res, 200, { results: [...contacts.values()].slice(0, 1).map((c) => record(c)) })
      return
    }
    if (method === 'POST' && url.pathname === '/crm/v3/objects/contacts/batch/upsert') {
      const inputs = (body?.inputs ?? []) as {
        idProperty?: string
        id?: string
        properties?: Record<string, string>
      }[]
      const unknown = inputs.map((input) => unknownProperty(input.properties ?? {})).find(Boolean)
      if (unknown) {
        send(
          res,
          400,
          errorBody(
            `Property values were not valid: [{"isValid":false,"message":"Property \\"${unknown}\\" does not exist","error":"PROPERTY_DOESNT_EXIST","name":"${unknown}"}]`,
            'VALIDATION_ERROR',
          ),
        )
        return
      }
      if (inputs.some((input) => input.idProperty !== 'email' || !input.id)) {
        send(res, 400, errorBody('idProperty email and id are required', 'VALIDATION_ERROR'))
        return
      }
      const results = inputs.map((input) => {
        const email = input.id ?? ''
        const existing = contacts.get(email.toLowerCase())
        const contact: HubspotRecord = {
          id: existing?.id ?? String(nextId++),
          properties: { ...(existing?.properties ?? {}), ...input.properties, email },
        }
        contacts.set(email.toLowerCase(), contact)
        return record(contact, { new: !existing })
      })
      send(res, 200, {
        status: 'COMPLETE',
        results,
        startedAt: now(),
        completedAt: now(),
      })
      return
    }
    if (method === 'POST' && url.pathname === '/crm/v3/objects/contacts') {
      const properties = (body?.properties ?? {}) as Record<string, string>
      const contact: HubspotRecord = { id: String(nextId++), properties }
      contacts.set(`id:${contact.id}`, contact)
      send(res, 201, record(contact))
      return
    }
    if (method === 'POST' && url.pathname === '/crm/v3/objects/notes/search') {
      const filter = (
        body?.filterGroups as { filters: { propertyName: string; value: string }[] }[]
      )?.[0]?.filters?.[0]
      const found = notes.filter(
        (note) =>
          filter?.propertyName === 'associations.contact' &&
          note.contactIds.includes(String(filter.value)),
      )
      send(res, 200, { total: found.length, results: found.map((note) => record(note)) })
      return
    }
    if (method === 'POST' && url.pathname === '/crm/v3/objects/notes') {
      const properties = (body?.properties ?? {}) as Record<string, string>
      if (!properties.hs_timestamp) {
        send(res, 400, errorBody('Property hs_timestamp is required', 'VALIDATION_ERROR'))
        return
      }
      const associations = (body?.associations ?? []) as {
        to: { id: string }
        types: { associationCategory: string; associationTypeId: number }[]
      }[]
      const contactIds = associations
        .filter((a) => a.types.some((t) => t.associationTypeId === 202))
        .map((a) => String(a.to.id))
      const note: HubspotNote = { id: String(nextId++), properties, contactIds }
      notes.push(note)
      send(res, 201, record(note))
      return
    }
    const one = url.pathname.match(/^\/crm\/v3\/objects\/contacts\/([^/]+)$/)
    if (one && (method === 'DELETE' || method === 'PATCH')) {
      const id = decodeURIComponent(one[1] ?? '')
      const entry = [...contacts].find(([, contact]) => contact.id === id)
      if (method === 'DELETE') {
        // HubSpot archives and answers 204, whether or not the contact was there.
        if (entry) contacts.delete(entry[0])
        res.writeHead(204).end()
        return
      }
      if (!entry) {
        send(
          res,
          404,
          errorBody(`Object not found.  objectId are usually numeric.`, 'OBJECT_NOT_FOUND'),
        )
        return
      }
      entry[1].properties = { ...entry[1].properties, ...((body?.properties ?? {}) as object) }
      send(res, 200, record(entry[1]))
      return
    }
    send(res, 404, errorBody('Not found', 'OBJECT_NOT_FOUND'))
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const fake: FakeHubspot = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    contacts,
    notes,
    state,
    upserts: () =>
      requests.filter((request) => request.path === '/crm/v3/objects/contacts/batch/upsert'),
    deletions: () => requests.filter((request) => request.method === 'DELETE'),
    reset() {
      requests.length = 0
      contacts.clear()
      notes.length = 0
      state.script = []
      state.customProperties = ['lead_consent']
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  return fake
}
