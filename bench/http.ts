// One request to a local server with node:http: fetch() may not set Host, and the tenant is the
// Host. The body is kept as bytes (the baseline answers them exactly).
import http from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'

export type Answer = {
  status: number
  headers: http.IncomingHttpHeaders
  /** Header names as sent, paired with their values (repeated headers stay repeated). */
  rawHeaders: string[]
  body: Buffer
}

/** The body as text, decoded from the compression the server chose (br or gzip). */
export function answerText(answer: Answer) {
  const encoding = String(answer.headers['content-encoding'] ?? '')
  const bytes =
    encoding === 'br'
      ? brotliDecompressSync(answer.body)
      : encoding === 'gzip'
        ? gunzipSync(answer.body)
        : answer.body
  return bytes.toString('utf8')
}

export type RequestOptions = {
  method?: string
  path: string
  host: string
  headers?: Record<string, string>
  body?: string
}

export function request(port: number, options: RequestOptions) {
  return new Promise<Answer>((resolve, reject) => {
    const headers: Record<string, string> = { host: options.host, ...options.headers }
    if (options.body !== undefined)
      headers['content-length'] = String(Buffer.byteLength(options.body))
    const outgoing = http.request(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        )
        res.on('error', reject)
      },
    )
    outgoing.on('error', reject)
    outgoing.end(options.body)
  })
}

export async function waitForHealthy(port: number, isRunning: () => boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (!isRunning()) throw new Error('the server exited before it was healthy')
    try {
      const answer = await request(port, { path: '/api/health-check', host: 'localhost' })
      if (answer.status === 200) return
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`no healthy server on port ${port} after ${timeoutMs / 1000} s`)
}

/**
 * Waits until the server has worked off what an earlier scenario left queued: autocannon closes
 * its connections at the end of a run, but requests already read keep the server (and, on PGlite,
 * its one database connection) busy for a while. One health check answered in under 250 ms, or
 * the time limit, ends the wait; returns how long it took in ms.
 */
export async function settle(port: number, timeoutMs = 30_000) {
  const started = performance.now()
  while (performance.now() - started < timeoutMs) {
    const asked = performance.now()
    try {
      const answer = await request(port, { path: '/api/health-check', host: 'localhost' })
      if (answer.status === 200 && performance.now() - asked < 250) break
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return Math.round(performance.now() - started)
}
