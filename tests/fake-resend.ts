// A local stand-in for Resend's API on 127.0.0.1 (https://resend.com/docs/api-reference): the
// emails endpoint (deduplicated on Idempotency-Key as Resend does) and the domains API that
// agencies' sending domains use (create, get, verify, remove). Whether a domain's DNS records
// are "published" is the fake's state: verifying a published domain verifies it, an unpublished
// one stays pending (or fails, once it was verified), and unpublishing a verified one fails it
// (as Resend's monitoring would).
// Integration tests drive it in process; the e2e servers start one beside them and specs drive
// it over HTTP (POST /__fake/state, GET /__fake/emails).
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readBody, send } from './fake-http'

export type FakeEmail = {
  id: string
  from: string
  to: string | string[]
  subject: string
  html?: string
  text?: string
  headers?: Record<string, string>
  /** As sent: `content` in base64. */
  attachments?: { filename: string; content: string; contentType?: string }[]
  idempotencyKey: string | undefined
}

type DnsRecord = {
  record: string
  name: string
  type: string
  ttl: string
  status: string
  value: string
  priority?: number
}

export type FakeDomain = { id: string; name: string; status: string; records: DnsRecord[] }

export type FakeResend = {
  url: string
  port: number
  apiKey: string
  emails: FakeEmail[]
  domains: Map<string, FakeDomain>
  requests: { method: string; path: string }[]
  /** The domain's DNS records are out there (verify verifies it). */
  publish(name: string): void
  /** The records are gone: a verified domain turns failed. */
  unpublish(name: string): void
  /** Answers the next API requests with these statuses (500: "try later"), in order. */
  failNext(...statuses: number[]): void
  reset(): void
  close(): Promise<void>
}

const apiError = (statusCode: number, name: string, message: string) => ({
  statusCode,
  name,
  message,
})

function recordsFor(name: string): DnsRecord[] {
  return [
    {
      record: 'SPF',
      name: `send.${name}`,
      type: 'MX',
      ttl: 'Auto',
      status: 'not_started',
      value: 'feedback-smtp.us-east-1.amazonses.com',
      priority: 10,
    },
    {
      record: 'SPF',
      name: `send.${name}`,
      type: 'TXT',
      ttl: 'Auto',
      status: 'not_started',
      value: '"v=spf1 include:amazonses.com ~all"',
    },
    {
      record: 'DKIM',
      name: `resend._domainkey.${name}`,
      type: 'TXT',
      ttl: 'Auto',
      status: 'not_started',
      value: `p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ${Buffer.from(name).toString('base64')}`,
    },
  ]
}

function setStatus(domain: FakeDomain, status: string) {
  domain.status = status
  for (const record of domain.records) record.status = status
}

export async function startFakeResend(
  options: { port?: number; apiKey?: string } = {},
): Promise<FakeResend> {
  const apiKey = options.apiKey ?? 're_fake_key'
  const emails: FakeEmail[] = []
  const domains = new Map<string, FakeDomain>()
  const published = new Set<string>()
  const requests: { method: string; path: string }[] = []
  const script: number[] = []

  const byName = (name: string) => [...domains.values()].find((domain) => domain.name === name)

  const fake = {
    publish(name: string) {
      published.add(name)
    },
    unpublish(name: string) {
      published.delete(name)
      const domain = byName(name)
      if (domain?.status === 'verified') setStatus(domain, 'failed')
    },
    failNext(...statuses: number[]) {
      script.push(...statuses)
    },
    reset() {
      emails.length = 0
      domains.clear()
      published.clear()
      requests.length = 0
      script.length = 0
    },
  }

  async function control(req: IncomingMessage, res: ServerResponse, path: string) {
    if (req.method === 'GET' && path === '/__fake/emails') return send(res, 200, emails)
    if (req.method === 'GET' && path === '/__fake/domains')
      return send(res, 200, [...domains.values()])
    if (req.method === 'POST' && path === '/__fake/state') {
      const body = JSON.parse((await readBody(req)) || '{}') as {
        publish?: string[]
        unpublish?: string[]
        failNext?: number[]
      }
      for (const name of body.publish ?? []) fake.publish(name)
      for (const name of body.unpublish ?? []) fake.unpublish(name)
      if (body.failNext) fake.failNext(...body.failNext)
      return send(res, 200, { ok: true })
    }
    return send(res, 404, { error: 'unknown fake route' })
  }

  async function api(req: IncomingMessage, res: ServerResponse, path: string) {
    requests.push({ method: req.method ?? '', path })
    const authorization = req.headers.authorization
    if (!authorization) {
      return send(
        res,
        401,
        apiError(401, 'missing_api_key', 'Missing API key in the authorization header.'),
      )
    }
    if (authorization !== `Bearer ${apiKey}`) {
      return send(res, 403, apiError(403, 'invalid_api_key', 'API key is invalid'))
    }
    const scripted = script.shift()
    if (scripted) {
      return send(res, scripted, apiError(scripted, 'internal_server_error', 'try later'))
    }
    const body = JSON.parse((await readBody(req)) || '{}') as { [key: string]: unknown }

    if (req.method === 'POST' && path === '/emails') {
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined
      const seen = idempotencyKey && emails.find((email) => email.idempotencyKey === idempotencyKey)
      if (seen) return send(res, 200, { id: seen.id })
      const email = {
        ...(body as Omit<FakeEmail, 'id' | 'idempotencyKey'>),
        id: randomUUID(),
        idempotencyKey,
      }
      emails.push(email)
      return send(res, 200, { id: email.id })
    }

    if (req.method === 'POST' && path === '/domains') {
      const name = String(body.name ?? '')
      if (!/^[a-z0-9.-]+\.[a-z]{2,}$/.test(name)) {
        return send(res, 422, apiError(422, 'validation_error', 'The `name` field is invalid.'))
      }
      if (byName(name)) {
        return send(
          res,
          403,
          apiError(403, 'validation_error', `The ${name} domain has been registered already.`),
        )
      }
      const domain: FakeDomain = {
        id: randomUUID(),
        name,
        status: 'not_started',
        records: recordsFor(name),
      }
      domains.set(domain.id, domain)
      return send(res, 201, {
        ...domain,
        object: 'domain',
        created_at: new Date().toISOString(),
        region: 'us-east-1',
        capabilities: { sending: 'enabled', receiving: 'disabled' },
      })
    }

    const match = /^\/domains\/([^/]+)(\/verify)?$/.exec(path)
    const domain = match?.[1] ? domains.get(match[1]) : undefined
    if (match && !domain) return send(res, 404, apiError(404, 'not_found', 'Domain not found'))
    if (domain && req.method === 'GET' && !match?.[2]) {
      return send(res, 200, {
        ...domain,
        object: 'domain',
        created_at: new Date().toISOString(),
        region: 'us-east-1',
        capabilities: { sending: 'enabled', receiving: 'disabled' },
      })
    }
    if (domain && req.method === 'POST' && match?.[2]) {
      // Records never seen stay pending (DNS may still be propagating); records that were there
      // and are gone fail the domain.
      const wasSeen = domain.status === 'verified' || domain.status === 'failed'
      setStatus(domain, published.has(domain.name) ? 'verified' : wasSeen ? 'failed' : 'pending')
      return send(res, 200, { object: 'domain', id: domain.id })
    }
    if (domain && req.method === 'DELETE' && !match?.[2]) {
      domains.delete(domain.id)
      return send(res, 200, { object: 'domain', id: domain.id, deleted: true })
    }
    return send(res, 404, apiError(404, 'not_found', 'Route not found'))
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname
    const handle = path.startsWith('/__fake/') ? control(req, res, path) : api(req, res, path)
    handle.catch((error: unknown) => send(res, 500, { error: String(error) }))
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    ...fake,
    url: `http://127.0.0.1:${port}`,
    port,
    apiKey,
    emails,
    domains,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
