// The production (and development) server: host validation, security headers,
// static assets, request logging, the Remix handler, graceful shutdown, and what an operator
// watches (ADR 097): health checks, metrics, traces and trace ids in the log.
import { randomBytes } from 'node:crypto'
import { readdirSync } from 'node:fs'
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createRequestHandler } from '@remix-run/express'
import type { AppLoadContext, ServerBuild } from '@remix-run/node'
import compression from 'compression'
import express from 'express'
import helmet from 'helmet'
import { pino } from 'pino'
import {
  isApiRequest,
  isOneClickUnsubscribe,
  isSameOriginMutation,
  isSamlAssertionPost,
  isScimRequest,
  isStripeWebhook,
  isWalletWebService,
} from './app/auth/origin'
import type { SignedInLookup, signedInPageLookup } from './app/auth/signed-in-page.server'
import type { lookupPage, pageCacheKey, storePage } from './app/cache/page-cache.server'
import {
  answerFromCache,
  answerStored,
  captureAnswer,
  captureForCache,
} from './app/cache/page-cache-http.server'
import type {
  compressedOnce,
  joinRender,
  renderedSignedInPage,
  StoredPage,
  storeSignedInPage,
} from './app/cache/signed-in-page-cache.server'
import { isReadinessPath, LIVENESS_PATH } from './app/observability/health-paths'
import {
  answerMetrics,
  labelAnswer,
  metricsAuthorized,
  requestObserver,
  startMetricsServer,
} from './app/observability/http.server'
import { metricsServed, startProcessMetrics } from './app/observability/metrics.server'
import { routeLabeller } from './app/observability/route-label'
import { currentTraceId, tagConsoleWithTraceIds } from './app/observability/trace-context'
import { startTracing, stopTracing, tracingConfigured } from './app/observability/tracing.server'
import type { diskSpaceResponse } from './app/storage/disk-space.server'
import {
  forwardedProtoIsHttps,
  forwardedPublicAddress,
  type PublicAddress,
  requestHost,
} from './app/tenancy/host'
import { isBotUserAgent } from './app/utils/bot'
import { clientAddress } from './app/utils/client-address'
import { answerClientAsset, loadClientAssets } from './app/utils/client-assets.server'
import { acceptedEncoding } from './app/utils/content-negotiation'
import { claimDataDir, DataDirInUseError, stoppingDataDir } from './app/utils/data-dir-lock.server'
import { httpTimeouts } from './app/utils/http-timeouts'
import { signedInCacheControl } from './app/utils/private-answers'
import { readableLog, requestLogger } from './app/utils/request-log'
import { requestTarget } from './app/utils/request-target'
import { stopAccepting } from './app/utils/stop-accepting.server'
import { splitSourceMarker, type ViewSource } from './app/utils/view-sources'
import { VISITOR_PAGE_PATH } from './app/utils/visitor-page'
import { VIDEO_FRAME_ORIGINS } from './app/validation/card-video'
import {
  MAX_TRUSTED_HOPS,
  parseTrustedHops,
  trustedForwardedValue,
} from './app/validation/trusted-proxy'
import { shutdownTimeoutMs } from './scripts/server-command'

type AppEntry = {
  tenantImageOrigins(host: string | null, via: PublicAddress | null): Promise<string[]>
  prepareDatabase(options: { log: (m: string) => void }): Promise<void>
  closeDatabase(log?: (m: string) => void): Promise<void>
  startDomainRecheck(log: (m: string) => void): void
  startJobs(log: (m: string) => void): void
  maintenanceResponse(
    host: string | null,
    path: string,
    cookie: string | null,
    nonce?: string,
  ): Promise<Response | null>
  startChangeFeed(log: (m: string) => void): Promise<void>
  setViewBatchLog(log: (m: string) => void): void
  setSlowQueryLog(log: (message: string, fields: object) => void): void
  diskSpaceResponse: typeof diskSpaceResponse
  sessionTokenOfCookies(header: string | undefined): string | null
  forgetSessionOfCookies(header: string | undefined): void
  pageCacheKey: typeof pageCacheKey
  lookupPage: typeof lookupPage
  storePage: typeof storePage
  signedInPageLookup: typeof signedInPageLookup
  storeSignedInPage: typeof storeSignedInPage
  compressedOnce: typeof compressedOnce
  joinRender: typeof joinRender
  renderedSignedInPage: typeof renderedSignedInPage
  recordPublicCardView(
    organizationId: string,
    cardId: string,
    clientIp: string,
    userAgent: string,
    source: ViewSource,
  ): void
}

// Whatever this process writes (the embedded database, the generated secret, backups) is its
// account's alone: directories 0700, files 0600 (drizzle/private-files.server.ts).
process.umask(0o077)

// Paths are relative to the project, not to the working directory: build/server.js or ./server.ts.
const here = path.dirname(fileURLToPath(import.meta.url))
const projectRoot = path.basename(here) === 'build' ? path.dirname(here) : here
process.env.MIGRATIONS_DIR ??= path.join(projectRoot, 'migrations')

const mode = process.env.NODE_ENV === 'production' ? 'production' : 'development'
const port = Number(process.env.PORT ?? 3000)
// How many proxies in front of us to believe (app/validation/trusted-proxy.ts); a typo must not
// silently trust nothing or everything.
const trustedHops: number =
  parseTrustedHops(process.env.TRUST_PROXY) ??
  (() => {
    throw new Error(`TRUST_PROXY must be a hop count (0-${MAX_TRUSTED_HOPS}) or true/false`)
  })()
// JSON lines in production, for whatever collects them; short readable lines under `npm run
// dev`, made from the same redacted records (app/utils/request-log.ts).
// Every line written while a request or a job run is current names its trace (ADR 097): the
// request line, its req.log lines, and whatever the app logs meanwhile; console lines too.
const logger = pino(
  {
    level: process.env.LOG_LEVEL ?? (mode === 'production' ? 'info' : 'debug'),
    mixin() {
      const traceId = currentTraceId()
      return traceId ? { trace_id: traceId } : {}
    },
  },
  mode === 'production' ? undefined : readableLog(),
)
tagConsoleWithTraceIds()

// Off unless configured; then started before the app is loaded, so its first request is traced.
if (tracingConfigured()) {
  await startTracing()
  logger.info('tracing: spans are exported as the OTEL_* variables say')
}
const servingMetrics = metricsServed()
if (servingMetrics) startProcessMetrics()
const metricsToken = process.env.METRICS_TOKEN?.trim() || undefined

const viteDevServer =
  mode === 'production'
    ? undefined
    : await import('vite').then((vite) => vite.createServer({ server: { middlewareMode: true } }))

async function loadBuild(): Promise<ServerBuild> {
  if (viteDevServer) {
    return (await viteDevServer.ssrLoadModule('virtual:remix/server-build')) as ServerBuild
  }
  const file = path.join(projectRoot, 'build/server/index.js')
  return (await import(pathToFileURL(file).href)) as ServerBuild
}

const entryOf = (build: ServerBuild) => build.entry.module as unknown as AppEntry

// The embedded database's files belong to one server: a second one on them exits here, with a
// message, and the first keeps serving.
const embeddedDataDir = process.env.DATABASE_URL ? null : (process.env.DATA_DIR ?? './data')
if (embeddedDataDir) {
  try {
    // A server still shutting down on it (its supervisor killed) is waited for, within its bound.
    claimDataDir(embeddedDataDir, process.pid, shutdownTimeoutMs() + 1_000)
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error
    logger.fatal(error.message)
    process.exit(1)
  }
}

const initialBuild = await loadBuild()
await entryOf(initialBuild).prepareDatabase({ log: (m) => logger.info(m) })
entryOf(initialBuild).startDomainRecheck((m) => logger.warn(m))
entryOf(initialBuild).startJobs((m) => logger.warn(m))
entryOf(initialBuild).setViewBatchLog((m) => logger.error(m))
entryOf(initialBuild).setSlowQueryLog((message, fields) => logger.warn(fields, message))
await entryOf(initialBuild).startChangeFeed((m) => logger.info(m))

let shuttingDown = false
/** Set once the listener is closing (shutdown's last step): see stopAccepting. */
let stopping: ReturnType<typeof stopAccepting> | undefined
const app = express()
app.disable('x-powered-by')
// Express's own proxy handling follows the same hop count (its req.ip is the right-most
// trusted entry too); the host, scheme and client address are computed below, on our terms.
app.set('trust proxy', trustedHops)

// Logs the route, never the tokens of emailed links (app/utils/request-log.ts).
app.use(requestLogger(logger))

// The one place the request host is derived; loaders get it through the load context.
// Without a trusted proxy, forwarded headers are only the client's word: they are dropped, so
// nothing downstream reads them (the Remix adapter builds request.url from X-Forwarded-Host).
// Behind trusted proxies, each list keeps only the entry the outermost trusted one wrote
// (Express and the Remix adapter would read a list's first entry, the client's), and the
// headers no proxy of ours sets are dropped all the same (app/validation/trusted-proxy.ts).
const FORWARDED_HEADERS = ['x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded']
const TRUSTED_LISTS = ['x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-for']
const NEVER_TRUSTED = ['x-forwarded-port', 'forwarded']

function keepTrustedForwarding(headers: IncomingMessage['headers']) {
  if (trustedHops === 0) {
    for (const name of FORWARDED_HEADERS) delete headers[name]
    return
  }
  for (const name of NEVER_TRUSTED) delete headers[name]
  for (const name of TRUSTED_LISTS) {
    const value = trustedForwardedValue(headers[name], trustedHops)
    if (value === undefined) delete headers[name]
    else headers[name] = value
  }
}

/**
 * The path the app routes the request by (app/utils/request-target.ts), set in handle() before
 * anything reads the request: every guard below decides on it, never on Express's raw req.path.
 */
const routedPaths = new WeakMap<IncomingMessage, string>()
const routedPath = (req: IncomingMessage) => routedPaths.get(req) ?? ''

app.use((req, res, next) => {
  // Seen before they are dropped: the TLS ask answers only the proxy's own requests, never one
  // it relays for a client (app/domains/ask.server.ts).
  res.locals.relayed = [...FORWARDED_HEADERS, 'x-forwarded-for'].some(
    (name) => req.headers[name] !== undefined,
  )
  keepTrustedForwarding(req.headers)
  // Host names are case-insensitive, but Remix compares them case-sensitively (a POST to
  // `ACME.localhost` answered 500 in its origin check): everything downstream sees lower case.
  if (req.headers.host) req.headers.host = req.headers.host.toLowerCase()
  const forwardedHost = req.headers['x-forwarded-host']
  if (typeof forwardedHost === 'string')
    req.headers['x-forwarded-host'] = forwardedHost.toLowerCase()
  const host = requestHost(req.headers, trustedHops)
  if (!host) {
    res.status(400).type('text/plain').send('Bad Request: invalid Host header')
    return
  }
  res.locals.host = host
  res.locals.cspNonce = randomBytes(16).toString('base64')
  const rawHost =
    trustedForwardedValue(req.headers['x-forwarded-host'], trustedHops) || req.headers.host
  const scheme = isSecure(req) ? 'https' : 'http'
  if (
    !isSameOriginMutation(req.method, req.headers.origin, rawHost, scheme) &&
    !isOneClickUnsubscribe(req.method, routedPath(req), req.headers.origin) &&
    !isWalletWebService(req.method, routedPath(req), req.headers.origin) &&
    !isStripeWebhook(req.method, routedPath(req), req.headers.origin) &&
    !isSamlAssertionPost(req.method, routedPath(req)) &&
    !isScimRequest(req.method, routedPath(req), req.headers.origin) &&
    !isApiRequest(req.method, routedPath(req), req.headers.origin)
  ) {
    res.status(403).type('text/plain').send('Forbidden: cross-origin request')
    return
  }
  next()
})

// Request bodies are read whole (forms) or per part (uploads, 5 MB per file): a bound on the
// whole body keeps one request from filling memory. Browsers always send Content-Length for
// forms; a body without one (chunked) is refused rather than counted.
const MAX_BODY_BYTES = 16 * 1024 * 1024
app.use((req, res, next) => {
  const length = Number(req.headers['content-length'] ?? 0)
  if (req.headers['transfer-encoding'] && req.headers['content-length'] === undefined) {
    res.status(411).set('Connection', 'close').type('text/plain').send('Length Required')
    return
  }
  if (length > MAX_BODY_BYTES) {
    res
      .status(413)
      .set('Connection', 'close')
      .type('text/plain')
      .send('The request is too large: forms and uploads may send at most 16 MB.')
    return
  }
  next()
})

app.use((req, res, next) => {
  if (!shuttingDown) return next()
  res.setHeader('Connection', 'close')
  // Readiness is false from the signal on, before the drain window: a load balancer stops
  // routing here while what it already sent is still answered. Liveness stays 200 meanwhile.
  if (isReadinessPath(routedPath(req))) {
    res.status(503).set('Cache-Control', 'no-store').json({ error: 'Shutting down' })
    return
  }
  next()
})

// Answers that come compressed already (the client's assets) are left as they are.
app.use(
  compression({
    filter: (req, res) =>
      !(res as express.Response).locals.precompressed && compression.filter(req, res),
  }),
)

// The tenant's chosen domain, when the page is on another of its hosts, may serve the page's
// images (the signature preview's photo and QR, built on the domain mail clients will load them
// from): read before the policy below is written, for signed-in documents only (the policy governs
// what a page loads, and only the owner's screens show those URLs: a visitor's card page, the
// page cache's hot path, asks nothing). A failed lookup adds nothing.
app.use(async (req, res, next) => {
  res.locals.imageOrigins = []
  if (req.method !== 'GET' || !req.headers.accept?.includes('text/html')) return next()
  try {
    const build = viteDevServer ? await loadBuild() : initialBuild
    if (!entryOf(build).sessionTokenOfCookies(req.headers.cookie)) return next()
    res.locals.imageOrigins = await entryOf(build).tenantImageOrigins(
      (res.locals.host as string | undefined) ?? null,
      forwardedPublicAddress(req.headers, trustedHops),
    )
  } catch {
    // The lookup's own failure is the route's to answer; the policy keeps img-src 'self'.
  }
  next()
})

app.use(
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      reportOnly: mode !== 'production',
      directives: {
        'default-src': ["'self'"],
        'script-src': [
          "'strict-dynamic'",
          (_req: IncomingMessage, res: ServerResponse) =>
            `'nonce-${(res as express.Response).locals.cspNonce}'`,
        ],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': [
          "'self'",
          'data:',
          'blob:',
          (_req: IncomingMessage, res: ServerResponse) =>
            ((res as express.Response).locals.imageOrigins as string[] | undefined)?.join(' ') ||
            "'self'",
        ],
        'font-src': ["'self'"],
        'connect-src': ["'self'", ...(mode === 'development' ? ['ws:'] : [])],
        // The offline service worker, public/sw.js (ADR 104): this origin's own script only.
        'worker-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'none'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        // A card page frames a card's video once it is tapped (ADR 083): those two players
        // only, and only there; every other page frames nothing but its own origin, as
        // default-src said before.
        'frame-src': [
          (req: IncomingMessage) =>
            VISITOR_PAGE_PATH.test(requestTarget(req.url)?.path ?? '')
              ? VIDEO_FRAME_ORIGINS.join(' ')
              : "'self'",
        ],
      },
    },
    // HSTS only when the request really came over TLS (set below).
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
    // Set below as a default, so that an image meant for other sites can say cross-origin.
    crossOriginResourcePolicy: false,
    // Both set below, so that a route's own header replaces the default instead of joining it.
    referrerPolicy: false,
    xContentTypeOptions: false,
  }),
)
// Referrer-Policy, X-Content-Type-Options and Cross-Origin-Resource-Policy: the route's own
// where it sets one (no-referrer on the reset-password page, whose URL holds a token; nosniff on
// media and downloads; cross-origin on a public card's images), else the default. Helmet would set the default before the route runs and Remix appends the route's,
// sending the header twice ("nosniff, nosniff" on an uncached media file); so the default is
// added only when the headers are written, and only if the response has none. That covers
// every response: documents, data and resource routes, redirects and static files.
const DEFAULT_HEADERS: Record<string, string> = {
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Content-Type-Options': 'nosniff',
  // Helmet's default; a public card's QR code and media say cross-origin (EMBEDDABLE_IMAGE_HEADERS).
  'Cross-Origin-Resource-Policy': 'same-origin',
}
app.use((_req, res, next) => {
  const writeHead = res.writeHead
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    for (const [name, value] of Object.entries(DEFAULT_HEADERS)) {
      if (!this.hasHeader(name)) this.setHeader(name, value)
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args)
  } as typeof res.writeHead
  next()
})
// An answer to a signed-in request is private and not stored unless its route made it public
// (app/utils/private-answers.ts): resource routes and redirects too, which entry.server.tsx never
// sees. Set as the headers are written, over whatever the route left unsaid.
app.use((req, res, next) => {
  if (!entryOf(initialBuild).sessionTokenOfCookies(req.headers.cookie)) return next()
  const writeHead = res.writeHead
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const current = this.getHeader('Cache-Control')
    this.setHeader(
      'Cache-Control',
      signedInCacheControl(typeof current === 'string' ? current : undefined),
    )
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args)
  } as typeof res.writeHead
  next()
})
app.use((req, res, next) => {
  if (isSecure(req)) {
    res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains')
  }
  next()
})

if (viteDevServer) {
  app.use(viteDevServer.middlewares)
} else {
  // The type serve-static would send (send's own lookup), so an asset's headers stay as they were.
  const contentTypeOf = (file: string) => {
    const type = express.static.mime.lookup(file)
    const charset = express.static.mime.charsets.lookup(type, '')
    return charset ? `${type}; charset=${charset}` : type
  }
  // Fingerprinted assets never change: held in memory with the compressed forms the build wrote
  // (ADR 117). Everything else in public/ gets an hour.
  const clientAssets = loadClientAssets(
    path.join(projectRoot, 'build/client/assets'),
    contentTypeOf,
  )
  app.use('/assets', (req, res, next) => {
    const asset =
      req.method === 'GET' || req.method === 'HEAD' ? clientAssets.get(req.path) : undefined
    if (!asset) return next()
    labelAnswer(res, 'static')
    res.locals.precompressed = true
    answerClientAsset(req, res, asset)
  })
  // public/ is a handful of files known at start-up: only their paths reach serve-static, which
  // otherwise stats the disk for every page and data request (2% of a signed-in page's time).
  const clientDir = path.join(projectRoot, 'build/client')
  const publicFiles = new Set(
    readdirSync(clientDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `/${path.relative(clientDir, path.join(entry.parentPath, entry.name))}`)
      .filter((file) => !file.startsWith('/assets/')),
  )
  const servePublic = express.static(clientDir, { maxAge: '1h' })
  app.use((req, res, next) => {
    if (!publicFiles.has(req.path)) return next()
    labelAnswer(res, 'static')
    servePublic(req, res, next)
  })
}

// Short of disk space, nothing that may write runs (ADR 033): a full disk would leave the
// embedded database spinning in its WAL flush. Before any route, so actions of every kind and
// resource routes are all covered.
app.use(async (req, res, next) => {
  try {
    const build = viteDevServer ? await loadBuild() : initialBuild
    const answer = await entryOf(build).diskSpaceResponse(
      req.method,
      (res.locals.host as string | undefined) ?? null,
      req.headers.accept ?? '',
      res.locals.cspNonce as string,
    )
    if (!answer) return next()
    answer.headers.forEach((value, name) => {
      res.setHeader(name, value)
    })
    res.status(answer.status).send(await answer.text())
  } catch (error) {
    next(error)
  }
})

// Maintenance mode (System Settings): checked before any route runs, so no action, page or
// resource route answers while it is on (app/settings/maintenance.server.ts says who may pass).
app.use(async (req, res, next) => {
  try {
    const build = viteDevServer ? await loadBuild() : initialBuild
    const answer = await entryOf(build).maintenanceResponse(
      (res.locals.host as string | undefined) ?? null,
      routedPath(req),
      req.headers.cookie ?? null,
      res.locals.cspNonce as string,
    )
    if (!answer) return next()
    answer.headers.forEach((value, name) => {
      res.setHeader(name, value)
    })
    res.status(answer.status).send(await answer.text())
  } catch (error) {
    // A thrown Response is the data layer's answer (the database away): Remix meets the same
    // and answers with its own page. Express's error handler would say a bare 500.
    if (error instanceof Response) return next()
    next(error)
  }
})

app.all(
  '*',
  createRequestHandler({
    build: viteDevServer ? loadBuild : initialBuild,
    mode,
    getLoadContext: (req, res) => {
      const signedIn = signedInLookups.get(req)
      const context: AppLoadContext = {
        host: res.locals.host as string,
        cspNonce: res.locals.cspNonce as string,
        clientIp: clientAddress(
          req.headers['x-forwarded-for'],
          req.socket.remoteAddress,
          trustedHops,
        ),
        peerAddress: req.socket.remoteAddress,
        relayed: res.locals.relayed === true,
        via: forwardedPublicAddress(req.headers, trustedHops),
        pageCacheCandidate: cacheCandidates.has(req),
        viewSource: cacheCandidates.get(req),
        // The session validated for the signed-in page cache (ADR 109): not looked up twice.
        session: signedIn ? Promise.resolve(signedIn.session) : undefined,
        responseCookies: signedIn ? [...signedIn.cookies] : [],
        // Single fetch's data requests are the page's path with `.data` appended (read from the
        // raw target: never throws on odd request targets, unlike new URL()).
        dataRequest: (req.originalUrl.split('?')[0] ?? '').endsWith('.data'),
      }
      loadContexts.set(req, context)
      return context
    },
  }),
)

// The page cache (ADR 021): a request without a cookie or a query that the cache can answer
// is answered here, before Express, Remix and the database; one it cannot is marked, and if
// its route offers the answer, the answer is kept on its way out. Off under the dev server.
// Each candidate with the source its link was marked with.
const cacheCandidates = new WeakMap<IncomingMessage, ViewSource>()
const entry = entryOf(initialBuild)

function handle(req: IncomingMessage, res: ServerResponse) {
  if (stopping?.hold(req.socket, () => handle(req, res))) return
  // One normalisation before everything else, the page cache included: the request goes on with
  // the target Remix will route, and the guards read the same path (app/utils/request-target.ts).
  const target = requestTarget(req.url)
  if (!target) {
    res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' })
    res.end('Bad Request: the request target must be a path')
    return
  }
  req.url = target.url
  routedPaths.set(req, target.path)
  // The metrics on the main port: only with METRICS_TOKEN, and only for its bearer; anyone
  // else meets the 404 of a path that does not exist (ADR 097). Before the host check: a
  // scraper asks by address.
  if (metricsToken && target.path === '/metrics') {
    labelAnswer(res, 'metrics')
    if (
      (req.method === 'GET' || req.method === 'HEAD') &&
      metricsAuthorized(req.headers.authorization, metricsToken)
    ) {
      void answerMetrics(res)
      return
    }
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' })
    res.end('Not Found')
    return
  }
  if (cacheEnabled && !shuttingDown) {
    const candidate = cacheCandidateKey(req)
    if (candidate) {
      const page =
        req.method === 'GET' || req.method === 'HEAD' ? entry.lookupPage(candidate.key) : undefined
      const ip = clientAddress(
        req.headers['x-forwarded-for'],
        req.socket.remoteAddress,
        trustedHops,
      )
      const userAgent = req.headers['user-agent'] ?? ''
      const recordView = (organizationId: string, cardId: string) =>
        entry.recordPublicCardView(organizationId, cardId, ip, userAgent, candidate.source)
      if (page) {
        labelAnswer(res, 'page-cache')
        answerFromCache(req, res, page, { secure: isSecure(req), recordView })
        return
      }
      // The app renders the unmarked page: what it stores is the same whichever link filled it.
      req.url = candidate.path
      cacheCandidates.set(req, candidate.source)
      captureForCache(req, res, {
        recordView,
        store: (answer) => {
          entry.storePage(candidate.key, {
            ...answer,
            nonce: ((res as express.Response).locals?.cspNonce as string | undefined) ?? '',
          })
        },
      })
    }
  }
  // The build's files and public/ never write and are never a person's page: neither the
  // remembered session nor the signed-in page cache has anything to do with them.
  if (target.path.startsWith('/assets/') || PUBLIC_FILE.test(target.path)) {
    app(req, res)
    return
  }
  // A page the app renders, or a form, may write (a confirmation link, a save): the session a
  // request carries is read afresh after it (app/cache/session-cache.server.ts); a stored page
  // writes nothing. A form also forgets it before it runs. A file's GET (an image, a vCard, an
  // export) is left to the database's announcement.
  const reading = req.method === 'GET' || req.method === 'HEAD'
  if (!reading) entry.forgetSessionOfCookies(req.headers.cookie)
  if (!reading || PAGE_PATH.test(target.path)) forgetSessionWhenAnswered(req, res)
  if (
    cacheEnabled &&
    !shuttingDown &&
    reading &&
    PAGE_PATH.test(target.path) &&
    entry.sessionTokenOfCookies(req.headers.cookie)
  ) {
    void answerSignedIn(req, res)
    return
  }
  app(req, res)
}

// The signed-in page cache (ADR 109): a GET with a session cookie has its session validated
// here, and is answered from the page stored for its key when there is one. Otherwise the app
// renders it with that session, and the answer is kept if its route offered it.
const signedInLookups = new WeakMap<IncomingMessage, SignedInLookup>()
const loadContexts = new WeakMap<IncomingMessage, AppLoadContext>()

async function answerSignedIn(req: IncomingMessage, res: ServerResponse) {
  let lookup: SignedInLookup | null = null
  try {
    const host = requestHost(
      {
        host: req.headers.host?.toLowerCase(),
        'x-forwarded-host': req.headers['x-forwarded-host'],
      },
      trustedHops,
    )
    if (host) {
      lookup = await entry.signedInPageLookup({
        host,
        origin: originOf(host, forwardedPublicAddress(req.headers, trustedHops)),
        target: req.url ?? '',
        cookie: req.headers.cookie ?? '',
        acceptLanguage: req.headers['accept-language'],
        bot: isBotUserAgent(req.headers['user-agent'] ?? ''),
      })
    }
  } catch {
    // The app meets the same failure (the database away) and answers it as it always does.
    lookup = null
  }
  if (lookup?.page) {
    answerSignedInFromStore(req, res, lookup.page)
    return
  }
  if (lookup && !lookup.session.renewed) {
    const render = entry.joinRender(lookup.key)
    if ('wait' in render) {
      await waitAtMost(render.wait, RENDER_WAIT_MS)
      const page = entry.renderedSignedInPage(lookup.key)
      if (page) {
        answerSignedInFromStore(req, res, page)
        return
      }
    } else if (res.closed || res.destroyed) {
      // Gone while its session was read: 'close' has been and will not come again.
      render.release()
    } else {
      res.once('close', render.release)
      keepSignedInAnswer(req, res, lookup.key, render.release)
    }
  }
  if (lookup) signedInLookups.set(req, lookup)
  app(req, res)
}

// A request waiting for another's render of its key goes on by itself after this long: the other
// may be a slow export of the same address, and a wait must never become a hang.
const RENDER_WAIT_MS = 5_000

function waitAtMost(promise: Promise<void>, ms: number) {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms)
    }),
  ]).finally(() => clearTimeout(timer))
}

function answerSignedInFromStore(req: IncomingMessage, res: ServerResponse, page: StoredPage) {
  labelAnswer(res, 'signed-in-cache')
  answeredFromStore.add(req)
  const stored = acceptedEncoding(req.headers['accept-encoding'], { br: false })
    ? entry.compressedOnce(page)
    : page
  answerStored(req, res, stored, { secure: isSecure(req) })
}

/** Keeps the answer if its route offered it; `release` once it is stored or will not be. */
function keepSignedInAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  key: string,
  release: () => void,
) {
  captureAnswer(res, {
    keeps: (response) => {
      const offered = req.method === 'GET' && loadContexts.get(req)?.signedInCacheOffer
      if (!offered) release()
      return offered ? { ...response.getHeaders() } : null
    },
    store: (answer) => {
      entry.storeSignedInPage(key, {
        ...answer,
        nonce: ((res as express.Response).locals?.cspNonce as string | undefined) ?? '',
      })
      release()
    },
  })
}

/**
 * Forgets the session a request carries as its head is written, after whatever it wrote was
 * committed: the request that follows it (a form's redirect) reads the session, and the data
 * version, afresh. A stored page's answer (answerStored) writes its head without this.
 */
const answeredFromStore = new WeakSet<IncomingMessage>()

function forgetSessionWhenAnswered(req: IncomingMessage, res: ServerResponse) {
  if (!req.headers.cookie) return
  const writeHead = res.writeHead
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (!answeredFromStore.has(req)) entry.forgetSessionOfCookies(req.headers.cookie)
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args)
  } as typeof res.writeHead
}

/** Scheme, host and port as the client came through a trusted proxy (or the host alone). */
function originOf(host: string, via: PublicAddress | null) {
  return (via ? `${via.scheme}://${host}${via.port ? `:${via.port}` : ''}` : host).toLowerCase()
}

const cacheEnabled = !viteDevServer && process.env.PAGE_CACHE_MB !== '0'
// What the signed-in page cache may hold: a page (no extension in its last segment) or its data.
const PAGE_PATH = /(?:^|\/)[^/.]*$|\.data$/
// public/'s files as the browser asks for them (icons, the manifest, the service worker, fonts).
const PUBLIC_FILE = /^\/[^/]+\.(?:js|css|png|svg|ico|webmanifest|txt|woff2?|json)$/
const SHORT_LINK_PATH = /^\/c\/[^/]+$/i

/**
 * The cache key of a request the cache may answer, with its path and the source its link was
 * marked with (a query of only `?s={code}`, ADR 039: the unmarked page's entry answers it), or null.
 */
function cacheCandidateKey(
  req: IncomingMessage,
): { key: string; path: string; source: ViewSource } | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null
  if (req.headers.cookie || req.headers.authorization) return null
  const marked = splitSourceMarker(req.url ?? '')
  if (!marked) return null
  const url = marked.path
  // Liveness is never stored, and its probes would only count as misses.
  if (url === LIVENESS_PATH) return null
  if (!url.startsWith('/') || url.startsWith('/assets/')) return null
  // A client navigation's data (single fetch's `{path}.data`) is not a page: its loader records
  // the view, as it did for `?_data=` requests, which the query kept out.
  if (url.endsWith('.data')) return null
  const host = requestHost(
    { host: req.headers.host?.toLowerCase(), 'x-forwarded-host': req.headers['x-forwarded-host'] },
    trustedHops,
  )
  if (!host) return null
  // Pages hold absolute links (canonical, QR, vCard) that follow how the client came through
  // a trusted proxy: an answer made for https on one port is never served for another.
  const origin = originOf(host, forwardedPublicAddress(req.headers, trustedHops))
  // A short link's path in capitals is its QR code's (ADR 041) and the same page: slugs are
  // lowercase, so one entry answers both, and the capitals still name the view's source.
  const keyPath = SHORT_LINK_PATH.test(url) ? url.toLowerCase() : url
  return {
    key: entry.pageCacheKey(origin, keyPath, req.headers['accept-language']),
    path: url,
    source: marked.source,
  }
}

function isSecure(req: IncomingMessage) {
  return (
    (req.socket as { encrypted?: boolean }).encrypted === true ||
    forwardedProtoIsHttps(req.headers['x-forwarded-proto'], trustedHops)
  )
}

// Each request in its trace (its id in the log and in `traceresponse`), counted and timed under
// the route that answers it when metrics are served (app/observability/http.server.ts).
const observe = requestObserver({
  routeOf: routeLabeller(initialBuild.routes),
  pathOf: routedPath,
  recordMetrics: servingMetrics,
})
const server = http.createServer(httpTimeouts(trustedHops), (req, res) =>
  observe(req, res, () => handle(req, res)),
)
server.listen(port, () => {
  logger.info(`Brandcard listening on http://localhost:${port} (${mode})`)
})

// The metrics' own listener, on the loopback unless METRICS_HOST says otherwise: a scraper on
// this machine (or a private network) reads them with no token.
const metricsPort = process.env.METRICS_PORT?.trim()
if (metricsPort) {
  const metricsHost = process.env.METRICS_HOST?.trim() || '127.0.0.1'
  startMetricsServer({
    port: Number(metricsPort),
    host: metricsHost,
    onListening: (address) => logger.info(`metrics on http://${address}/metrics`),
    onError: (error) => logger.error(error, 'metrics listener failed'),
  })
}

async function closeAndExit() {
  try {
    await viteDevServer?.close()
    await entryOf(initialBuild).closeDatabase((m) => logger.error(m))
    // The spans of the last requests and jobs are sent before the process goes.
    await stopTracing().catch((error: unknown) => logger.error(error, 'tracing: not flushed'))
    logger.info('shutdown complete')
    process.exit(0)
  } catch (error) {
    logger.error(error, 'error while closing')
    process.exit(1)
  }
}

// Graceful shutdown: keep accepting for a short drain window (answers carry Connection: close
// and readiness says 503 from the signal on, so a load balancer stops routing here), then stop accepting
// without resetting what the kernel queued (app/utils/stop-accepting.server.ts), let every
// request already received finish, close the database and exit. http.Server#close would also
// drop "idle" sockets, so idle keep-alive sockets go only after a grace period (a socket that
// has not sent its first request is not idle to Node and is left to its request).
const drainMs = Number(process.env.SHUTDOWN_DRAIN_MS ?? 1_000)
function shutdown(signal: string) {
  if (shuttingDown) return
  shuttingDown = true
  logger.info(`${signal} received: finishing in-flight requests`)
  // The supervisor (scripts/supervise.ts) kills the process a little later should this timer
  // never fire: the event loop stuck in the embedded database's WAL flush (ADR 033).
  const force = setTimeout(() => {
    logger.error('shutdown took too long; exiting')
    process.exit(1)
  }, shutdownTimeoutMs())
  force.unref()
  // A server starting on the same data directory waits for this one instead of refusing.
  if (embeddedDataDir) stoppingDataDir(embeddedDataDir)
  setTimeout(() => {
    server.once('close', () => void closeAndExit())
    stopping = stopAccepting(server)
    void stopping.closed.then(() => {
      setTimeout(() => {
        server.closeIdleConnections()
        setInterval(() => server.closeIdleConnections(), 250).unref()
      }, 1_000).unref()
    })
  }, drainMs).unref()
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
// Started by the supervisor: should it die, nobody would stop this process any more.
process.on('disconnect', () => void shutdown('supervisor gone'))
