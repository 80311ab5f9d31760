import { PassThrough } from 'node:stream'
import type {
  ActionFunctionArgs,
  AppLoadContext,
  EntryContext,
  LoaderFunctionArgs,
} from '@remix-run/node'
import { createReadableStreamFromReadable } from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import { renderToPipeableStream } from 'react-dom/server'
import { readSessionToken } from '#app/auth/session.server'
import { stopCardReader } from '#app/cards/card-ocr.server'
import { flushCardEvents, setEventBatchLog } from '#app/cards/event-batcher.server'
import { flushCardViews, setViewBatchLog as setViewLog } from '#app/cards/view-batcher.server'
import { stopDomainRecheck } from '#app/domains/recheck-schedule.server'
import { RUNNING_JOBS_GRACE_MS, stopJobWorker } from '#app/jobs/worker.server'
import { stopChangeFeed } from '#app/tenancy/change-feed.server'
import { isBotUserAgent } from '#app/utils/bot'
import { NonceProvider } from '#app/utils/nonce'
import { PRIVATE_NO_STORE } from '#app/utils/private-answers'
import { cacheRouteDiscovery, cacheRouteMatching } from '#app/utils/route-discovery-cache.server'
import { closeDatabase as closeDatabaseHandle } from '#drizzle/db.server'

cacheRouteDiscovery()
cacheRouteMatching()

/**
 * At shutdown: the jobs running finish (within a grace) and no other starts, the card views and
 * events still queued are written, then the database closes. The card reader's worker thread
 * ends.
 */
export async function closeDatabase(log: (message: string) => void = console.error) {
  stopDomainRecheck()
  await stopCardReader()
  await stopJobWorker({ graceMs: RUNNING_JOBS_GRACE_MS })
  await stopChangeFeed()
  await flushCardViews().catch((error) => log(`card views not written at shutdown: ${error}`))
  await flushCardEvents().catch((error) => log(`card events not written at shutdown: ${error}`))
  await closeDatabaseHandle()
}

/** Where the batch writers of views and of saves, taps and exchanges (ADR 082) log. */
export function setViewBatchLog(log: (message: string) => void) {
  setViewLog(log)
  setEventBatchLog(log)
}

export { forgetSessionOfCookies, sessionTokenOfCookies } from '#app/auth/session.server'
export { signedInPageLookup } from '#app/auth/signed-in-page.server'
export { lookupPage, pageCacheKey, storePage } from '#app/cache/page-cache.server'
export {
  compressedOnce,
  joinRender,
  renderedSignedInPage,
  storeSignedInPage,
} from '#app/cache/signed-in-page-cache.server'
export { recordPublicCardView } from '#app/cards/public-card-route.server'
export { startDomainRecheck } from '#app/domains/recheck-schedule.server'
export { startJobs } from '#app/job-handlers.server'
// The production server calls these through the build, so there is one copy of the
// database handle and of the tenant cache in the process.
export { prepareDatabase } from '#app/prepare-database.server'
export { maintenanceResponse } from '#app/settings/maintenance.server'
export { diskSpaceResponse } from '#app/storage/disk-space.server'
export { startChangeFeed } from '#app/tenancy/change-feed.server'
export { tenantImageOrigins } from '#app/tenancy/image-origins.server'
// Where slow units of database work are reported (ADR 097): the server's logger.
export { setSlowQueryLog } from '#drizzle/db.server'

// How long a streamed answer may wait for its pending data (single fetch's turbo-stream reads
// it); React's render is aborted a second later, after the data has been rejected.
export const streamTimeout = 5_000

/** Cookies queued during the request (session renewal, toast read) join every response. */
function appendQueuedCookies(headers: Headers, context: AppLoadContext) {
  for (const cookie of context.responseCookies ?? []) headers.append('Set-Cookie', cookie)
}

/**
 * What a signed-in visitor is shown is theirs alone: no shared cache (a proxy, a CDN) may keep
 * it, and the browser may not store it for the back button after sign-out. Any request that
 * carries a session cookie counts, whether or not its loaders looked at the session.
 */
function keepPrivate(headers: Headers, request: Request) {
  if (readSessionToken(request)) headers.set('Cache-Control', PRIVATE_NO_STORE)
}

export function handleDataRequest(
  response: Response,
  { context, request }: LoaderFunctionArgs | ActionFunctionArgs,
) {
  appendQueuedCookies(response.headers, context)
  keepPrivate(response.headers, request)
  return response
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  appendQueuedCookies(responseHeaders, loadContext)
  keepPrivate(responseHeaders, request)
  const nonce = loadContext.cspNonce ?? ''
  // Crawlers and link previews get the whole document at once (Open Graph tags included).
  const waitForAll = isBotUserAgent(request.headers.get('user-agent') ?? '')
  return new Promise((resolve, reject) => {
    let shellRendered = false
    // The timer holds the render (and through it the request and its data) until it fires: left
    // running after a render that finished, it kept every answer of the last six seconds alive,
    // and under load most of the server's time went to collecting them (issue 44).
    let timer: NodeJS.Timeout | undefined
    let allReady = false
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          allReady = true
          clearTimeout(timer)
          if (waitForAll) sendShell()
        },
        onShellReady() {
          if (!waitForAll) sendShell()
        },
        onShellError(error: unknown) {
          clearTimeout(timer)
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          if (shellRendered) console.error(error)
        },
      },
    )
    function sendShell() {
      shellRendered = true
      const body = new PassThrough()
      responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
      resolve(
        new Response(createReadableStreamFromReadable(body), {
          headers: responseHeaders,
          status: responseStatusCode,
        }),
      )
      pipe(body)
    }
    if (!allReady) timer = setTimeout(abort, streamTimeout + 1_000)
  })
}
