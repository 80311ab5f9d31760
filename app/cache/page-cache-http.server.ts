// The page cache on the wire (ADR 021), used by server.ts: answering a hit from stored bytes,
// and keeping the answer of a miss that its route offered, exactly as the app sent it.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { acceptedEncoding, matchesEtag } from '../utils/content-negotiation'
import {
  CACHE_TAG_HEADER,
  CACHE_TTL_HEADER,
  CACHE_VIEW_HEADER,
  type CachedPage,
} from './page-cache.server'

type RecordView = (organizationId: string, cardId: string) => void

/** What answering from a store takes: the public cache's pages and the signed-in cache's. */
type StoredAnswer = Pick<CachedPage, 'status' | 'headers' | 'identity' | 'etag'> & {
  gzip?: Buffer
  br?: Buffer
}

export function answerFromCache(
  req: IncomingMessage,
  res: ServerResponse,
  page: CachedPage,
  options: { secure: boolean; recordView: RecordView },
) {
  if (page.viewCardId) options.recordView(page.tag, page.viewCardId)
  answerStored(req, res, page, options)
}

/** A stored answer: 304 for a matching entity tag, else its bytes as the client takes them. */
export function answerStored(
  req: IncomingMessage,
  res: ServerResponse,
  page: StoredAnswer,
  options: { secure: boolean },
) {
  const headers: string[] = []
  for (const [name, value] of page.headers) headers.push(name, value)
  headers.push('x-cache', 'HIT')
  if (options.secure) {
    headers.push('strict-transport-security', 'max-age=31536000; includeSubDomains')
  }
  if (matchesEtag(req.headers['if-none-match'], page.etag)) {
    res.writeHead(304, headers)
    res.end()
    return
  }
  const encoding = acceptedEncoding(req.headers['accept-encoding'], { br: page.br !== undefined })
  const compressed = encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : undefined
  const body = compressed ?? page.identity
  if (compressed) headers.push('content-encoding', encoding as string)
  headers.push('content-length', String(body.length))
  res.writeHead(page.status, headers)
  res.end(req.method === 'HEAD' ? undefined : body)
}

function decoded(body: Buffer, encoding: unknown) {
  if (encoding === 'gzip') return gunzipSync(body)
  if (encoding === 'br') return brotliDecompressSync(body)
  if (encoding === 'deflate') return inflateSync(body)
  return body
}

/**
 * Watches a miss on its way out. If its route offered the answer (the internal headers, which
 * never leave the process), the view it stands for is recorded and, for a complete GET, the
 * answer is handed to `store` in identity encoding. Installed before Express, so it sees the
 * final headers and bytes, after compression.
 */
type CapturedAnswer = {
  status: number
  headers: Record<string, string | string[] | number | undefined>
  body: Buffer
}

export function captureForCache(
  req: IncomingMessage,
  res: ServerResponse,
  options: { recordView: RecordView; store(answer: CapturedAnswer): void },
) {
  captureAnswer(res, {
    keeps(response, status) {
      const tag = response.getHeader(CACHE_TAG_HEADER)
      if (typeof tag !== 'string') return null
      const view = response.getHeader(CACHE_VIEW_HEADER)
      if (status === 200 && typeof view === 'string') options.recordView(tag, view)
      // Kept with the internal headers, which storePage reads; none of them is sent.
      const kept = req.method === 'GET' ? { ...response.getHeaders() } : null
      response.removeHeader(CACHE_TAG_HEADER)
      response.removeHeader(CACHE_VIEW_HEADER)
      response.removeHeader(CACHE_TTL_HEADER)
      return kept
    },
    store: options.store,
  })
}

/**
 * Watches an answer on its way out; when `keeps` says so as its head is written (a GET whose
 * route offered it), hands its status, final headers and identity-encoded bytes to `store` once
 * it has been sent whole. Installed before Express, so it sees what compression made of it.
 */
export function captureAnswer(
  res: ServerResponse,
  options: {
    /** The headers to keep with the answer, or null to let it pass unkept. */
    keeps(response: ServerResponse, status: number): CapturedAnswer['headers'] | null
    store(answer: CapturedAnswer): void
  },
) {
  let captured: { status: number; headers: CapturedAnswer['headers'] } | null = null
  const chunks: Buffer[] = []
  const writeHead = res.writeHead
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const status = typeof args[0] === 'number' ? args[0] : this.statusCode
    const headers = options.keeps(this, status)
    if (headers) captured = { status, headers }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args)
  } as typeof res.writeHead

  const write = res.write
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    if (captured) keep(chunk, rest[0])
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest)
  } as typeof res.write

  const end = res.end
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    // end() may write the head itself; the capture starts there.
    if (!this.headersSent) this.writeHead(this.statusCode)
    if (captured && chunk !== undefined && typeof chunk !== 'function') keep(chunk, rest[0])
    return (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest)
  } as typeof res.end

  function keep(chunk: unknown, encoding: unknown) {
    if (chunk === null || chunk === undefined) return
    if (Buffer.isBuffer(chunk)) chunks.push(chunk)
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk))
    else if (typeof chunk === 'string')
      chunks.push(
        Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
      )
  }

  res.on('finish', () => {
    if (!captured) return
    const { status, headers } = captured
    try {
      options.store({
        status,
        headers: headers as Record<string, string | string[] | number | undefined>,
        body: decoded(Buffer.concat(chunks), headers['content-encoding']),
      })
    } catch {
      // A body that cannot be decoded is simply not kept.
    }
  })
}
