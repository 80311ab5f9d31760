// The page cache on the wire (ADR 021), used by server.ts: answering a hit from stored bytes,
// and keeping the answer of a miss that its route offered, exactly as the app sent it.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import {
  CACHE_TAG_HEADER,
  CACHE_TTL_HEADER,
  CACHE_VIEW_HEADER,
  type CachedPage,
} from './page-cache.server'

type RecordView = (organizationId: string, cardId: string) => void

function acceptedEncoding(header: string | undefined): 'br' | 'gzip' | null {
  if (!header) return null
  // q=0 refusals are rare enough to answer uncompressed rather than parse every weight.
  if (/\bbr\b(?!;q=0(\.0*)?\b)/.test(header)) return 'br'
  if (/\bgzip\b(?!;q=0(\.0*)?\b)/.test(header)) return 'gzip'
  return null
}

function matchesEtag(header: string | undefined, etag: string) {
  if (!header) return false
  const bare = etag.replace(/^W\//, '')
  return header.split(',').some((tag) => {
    const candidate = tag.trim()
    return candidate === '*' || candidate.replace(/^W\//, '') === bare
  })
}

export function answerFromCache(
  req: IncomingMessage,
  res: ServerResponse,
  page: CachedPage,
  options: { secure: boolean; recordView: RecordView },
) {
  if (page.viewCardId) options.recordView(page.tag, page.viewCardId)
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
  const encoding = acceptedEncoding(req.headers['accept-encoding'])
  const body = encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.identity
  if (encoding) headers.push('content-encoding', encoding)
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
export function captureForCache(
  req: IncomingMessage,
  res: ServerResponse,
  options: {
    recordView: RecordView
    store(answer: {
      status: number
      headers: Record<string, string | string[] | number | undefined>
      body: Buffer
    }): void
  },
) {
  let captured: { status: number; headers: ReturnType<ServerResponse['getHeaders']> } | null = null
  const chunks: Buffer[] = []
  const writeHead = res.writeHead
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const tag = this.getHeader(CACHE_TAG_HEADER)
    if (typeof tag === 'string') {
      const status = typeof args[0] === 'number' ? args[0] : this.statusCode
      const view = this.getHeader(CACHE_VIEW_HEADER)
      if (status === 200 && typeof view === 'string') options.recordView(tag, view)
      captured = req.method === 'GET' ? { status, headers: { ...this.getHeaders() } } : null
      this.removeHeader(CACHE_TAG_HEADER)
      this.removeHeader(CACHE_VIEW_HEADER)
      this.removeHeader(CACHE_TTL_HEADER)
    }
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
