// What `npm run bench` loads the server with (issue 16 point 1), and one autocannon run of it.
import autocannon from 'autocannon'
import type { Measurement, ScenarioId } from './budgets'
import { DEMO } from './database'
import { type RequestOptions, settle } from './http'
import { readCpuMs, sampleRss, waitForIdleCpu } from './server'

export const CONNECTIONS = 50

// A phone's browser, as a card's recipient opening it from a QR code: not a bot (bots' views are
// not counted), and no Accept-Encoding, like the baseline (both answer the same raw bytes; what
// compression costs is a question of its own). Compressed bodies would measure autocannon, not
// the servers: its client moves 12 KB of incompressible bytes four times slower than 12 KB of
// text (4,800 against 21,700 answers a second from the same bare node:http server).
export const PHONE_HEADERS = {
  'user-agent':
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
}

export const SCENARIO_NAMES: Record<ScenarioId, string> = {
  'card-returning': 'public card page, one returning visitor',
  'card-new-visitor': 'public card page, every request a new visitor',
  'short-link': 'public card page by its short link, from its QR code',
  vcard: 'vCard',
  'qr-png': 'QR code (PNG)',
  media: 'media image (tenant logo)',
  'tenant-home': 'tenant home, custom domain',
  'sign-in': 'sign-in POST (argon2)',
  dashboard: 'end-user dashboard, 10,000 views',
  'cards-list': 'end user: digital cards list',
  contacts: 'end user: contacts',
  profile: 'end user: profile',
  health: 'health check',
}

export type Scenario = {
  id: ScenarioId
  request: RequestOptions
  /** Every request from its own address (X-Forwarded-For; the server trusts its proxy). */
  distinctAddresses?: boolean
  /** The answer every request should get. */
  expectedStatus: number
}

export type ScenarioInputs = {
  cardId: string
  /** The card's short link (ADR 041). */
  shortSlug: string
  logoPath: string
  sessionCookie: string
}

/** The card page as the returning visitor asks for it: also what the baseline replays. */
export const cardPageRequest = (cardId: string): RequestOptions => ({
  path: `/card/${cardId}`,
  host: DEMO.host,
  headers: PHONE_HEADERS,
})

export function scenarios({
  cardId,
  shortSlug,
  logoPath,
  sessionCookie,
}: ScenarioInputs): Scenario[] {
  const onAgency = (path: string): RequestOptions => ({ path, host: DEMO.host })
  return [
    // Card-page scenarios first: the server's peak memory is sampled during them.
    { id: 'card-returning', request: cardPageRequest(cardId), expectedStatus: 200 },
    {
      id: 'card-new-visitor',
      request: cardPageRequest(cardId),
      distinctAddresses: true,
      expectedStatus: 200,
    },
    // The address every channel hands out now: the short link, here as its QR code holds it (in
    // capitals, ADR 041), the one returning visitor again. A short link's page is its own entry
    // of the page cache.
    {
      id: 'short-link',
      request: { ...cardPageRequest(cardId), path: shortLinkPath(shortSlug) },
      expectedStatus: 200,
    },
    { id: 'vcard', request: onAgency(`/card/${cardId}/vcard`), expectedStatus: 200 },
    { id: 'qr-png', request: onAgency(`/card/${cardId}/qr.png`), expectedStatus: 200 },
    { id: 'media', request: onAgency(logoPath), expectedStatus: 200 },
    {
      id: 'tenant-home',
      request: { path: '/', host: DEMO.customDomain, headers: PHONE_HEADERS },
      expectedStatus: 200,
    },
    {
      id: 'sign-in',
      request: signInRequest(),
      // The per-address limit counts failures only, but a fresh address per request keeps the
      // figures clear of it in any case; 429s would show in the statuses column.
      distinctAddresses: true,
      expectedStatus: 302,
    },
    // The signed-in pages of issue 44, Alice's, each a whole document as a browser loads it.
    ...signedInScenarios(sessionCookie),
    {
      id: 'health',
      request: { path: '/api/health-check', host: 'localhost' },
      expectedStatus: 200,
    },
  ]
}

/** Where each signed-in page of issue 44 is, for the demo's end user. */
export const SIGNED_IN_PATHS = {
  dashboard: '/dashboard/end-user',
  'cards-list': '/dashboard/end-user/digital-cards',
  contacts: '/contacts',
  profile: '/profile/end-user',
} as const satisfies Partial<Record<ScenarioId, string>>

export function signedInScenarios(sessionCookie: string): Scenario[] {
  return Object.entries(SIGNED_IN_PATHS).map(([id, path]) => ({
    id: id as ScenarioId,
    request: { path, host: DEMO.host, headers: { ...PHONE_HEADERS, cookie: sessionCookie } },
    expectedStatus: 200,
  }))
}

/** A short link as the card's QR code holds it (qrTextOf: the whole link in capitals). */
export const shortLinkPath = (slug: string) => `/C/${slug.toUpperCase()}`

/** The demo end user's correct credentials, posted from the sign-in page's own origin. */
export function signInRequest(): RequestOptions {
  return {
    method: 'POST',
    path: '/auth/login',
    host: DEMO.host,
    headers: {
      origin: `http://${DEMO.host}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ email: DEMO.email, password: DEMO.password }).toString(),
  }
}

/** 10.0.0.1, 10.0.0.2, …: a new client address for every call. */
export function addressCounter() {
  let next = 0
  return () => {
    next += 1
    return `10.${(next >> 16) & 255}.${(next >> 8) & 255}.${next & 255}`
  }
}

export async function measure(
  port: number,
  scenario: Pick<Scenario, 'request' | 'distinctAddresses'>,
  seconds: number,
  connections = CONNECTIONS,
  /** The server's process: its CPU time per request is measured (issue 44). */
  pid?: number,
): Promise<Measurement> {
  const { method = 'GET', path, host, headers = {}, body } = scenario.request
  const nextAddress = addressCounter()
  const cpuBefore = pid === undefined ? null : await readCpuMs(pid)
  const rss = pid === undefined ? null : sampleRss(pid)
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: method as autocannon.Request['method'],
        path,
        headers: { host, ...headers },
        body,
        ...(scenario.distinctAddresses && {
          setupRequest: (request: autocannon.Request) => {
            request.headers = { ...request.headers, 'x-forwarded-for': nextAddress() }
            return request
          },
        }),
      },
    ],
  })
  const cpuMsPerRequest =
    pid === undefined || cpuBefore === null
      ? null
      : await cpuPerRequest(port, pid, cpuBefore, result.requests.sent)
  // Until the work the run left is done, as its CPU is: its highest RSS is the scenario's own.
  const peakRssBytes = rss ? await rss.stop() : null
  const statuses: Record<string, number> = {}
  for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) {
    statuses[status] = Number(count)
  }
  return {
    reqPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    statuses,
    errors: result.errors + result.timeouts,
    ...(pid !== undefined && { cpuMsPerRequest, peakRssBytes }),
  }
}

/**
 * `settle`, then until the server's process is idle (`waitForIdleCpu`): work left in its threads
 * counts for the scenario that left it. Returns how long it took in ms.
 */
export async function settleServer(port: number, pid: number) {
  const answered = await settle(port)
  return answered + (await waitForIdleCpu(pid))
}

/**
 * The server's CPU time since `cpuBefore`, per request sent. The requests still in flight when
 * autocannon stops are worked off by the server all the same (their answers go nowhere): the
 * time is read once it has settled and is idle, and they count among the requests sent. The
 * settling's own health checks are a few tenths of a millisecond against seconds.
 */
async function cpuPerRequest(port: number, pid: number, cpuBefore: number, sent: number) {
  await settleServer(port, pid)
  const cpuAfter = await readCpuMs(pid)
  if (cpuAfter === null || !(sent > 0)) return null
  return Math.round(((cpuAfter - cpuBefore) / sent) * 100) / 100
}
