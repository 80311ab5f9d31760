// The client's built files (ADR 117): the build writes their brotli and gzip forms beside them
// (scripts/precompress-assets.ts), and the server answers them from memory
// (app/utils/client-assets.server.ts), each request getting the form it accepts, a 304 for the
// entity tag it holds, and a year of immutable caching. Answered through a real HTTP server, as
// server.ts mounts it.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  answerClientAsset,
  type ClientAsset,
  IMMUTABLE_CACHE_CONTROL,
  loadClientAssets,
} from '../../app/utils/client-assets.server'
import { precompressDirectory } from '../../scripts/precompress-assets'

const root = mkdtempSync(path.join(os.tmpdir(), 'brandcard-assets-'))
// A script that compresses well, a stylesheet too small to be worth it, a font (compressed
// already) and a script in a subdirectory.
const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `"row ${i}"`).join(',')}]\n`
const files: Record<string, string | Buffer> = {
  'entry.client-AbC123.js': script,
  'tiny-XyZ.css': 'a{color:red}\n',
  'font-Q1.woff2': Buffer.alloc(4096, 7),
  'nested/chunk-9z.js': script.replace('row', 'line'),
}
for (const [name, contents] of Object.entries(files)) {
  mkdirSync(path.dirname(path.join(root, name)), { recursive: true })
  writeFileSync(path.join(root, name), contents)
}

const contentTypeOf = (file: string) =>
  file.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'application/octet-stream'

let assets: Map<string, ClientAsset>
let server: http.Server
let origin: string

beforeAll(async () => {
  await precompressDirectory(root)
  assets = loadClientAssets(root, contentTypeOf)
  server = http.createServer((req, res) => {
    const asset = assets.get(req.url ?? '')
    if (!asset) {
      res.writeHead(404)
      res.end()
      return
    }
    answerClientAsset(req, res, asset)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  rmSync(root, { recursive: true, force: true })
})

type Reply = { status: number; headers: http.IncomingHttpHeaders; body: Buffer }

/** A raw request: fetch would add its own Accept-Encoding and decode the body. */
function request(pathname: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<Reply>((resolve, reject) => {
    const req = http.request(`${origin}${pathname}`, { method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      )
    })
    req.on('error', reject)
    req.end()
  })
}

describe('the build', () => {
  test('writes brotli and gzip forms of compressible files worth compressing, and only those', () => {
    const written = readdirSync(root, { recursive: true }).map(String).sort()
    expect(written).toEqual(
      [
        'entry.client-AbC123.js',
        'entry.client-AbC123.js.br',
        'entry.client-AbC123.js.gz',
        'font-Q1.woff2',
        'nested',
        'nested/chunk-9z.js',
        'nested/chunk-9z.js.br',
        'nested/chunk-9z.js.gz',
        'tiny-XyZ.css',
      ].sort(),
    )
  })
})

describe('the server', () => {
  test('holds every file by its path under the directory, never a compressed form as a file', () => {
    expect([...assets.keys()].sort()).toEqual(
      ['/entry.client-AbC123.js', '/font-Q1.woff2', '/nested/chunk-9z.js', '/tiny-XyZ.css'].sort(),
    )
  })

  test('answers brotli to a client that takes it, gzip to one that takes only gzip', async () => {
    const br = await request('/entry.client-AbC123.js', { 'accept-encoding': 'gzip, deflate, br' })
    expect(br.status).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(br.body).toString()).toBe(script)
    expect(Number(br.headers['content-length'])).toBe(br.body.length)
    expect(br.body.length).toBeLessThan(Buffer.byteLength(script) / 3)

    const gzip = await request('/entry.client-AbC123.js', { 'accept-encoding': 'gzip' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzip.body).toString()).toBe(script)

    const refused = await request('/entry.client-AbC123.js', { 'accept-encoding': 'br;q=0, gzip' })
    expect(refused.headers['content-encoding']).toBe('gzip')
  })

  test('answers the file itself to a client that takes no encoding, and for files kept whole', async () => {
    const plain = await request('/nested/chunk-9z.js')
    expect(plain.status).toBe(200)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body.toString()).toBe(files['nested/chunk-9z.js'])
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8')

    for (const name of ['/tiny-XyZ.css', '/font-Q1.woff2']) {
      const whole = await request(name, { 'accept-encoding': 'gzip, br' })
      expect(whole.headers['content-encoding'], name).toBeUndefined()
      expect(whole.headers.vary, name).toBeUndefined()
      expect(whole.body.equals(Buffer.from(files[name.slice(1)] as string | Buffer)), name).toBe(
        true,
      )
    }
  })

  test('is cached for a year as immutable, varies by encoding, and names its contents', async () => {
    const first = await request('/entry.client-AbC123.js', { 'accept-encoding': 'br' })
    expect(first.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL)
    expect(IMMUTABLE_CACHE_CONTROL).toBe('public, max-age=31536000, immutable')
    expect(first.headers.vary).toBe('Accept-Encoding')
    // One weak tag for every encoding of the same bytes; another file, another tag.
    const identity = await request('/entry.client-AbC123.js')
    expect(first.headers.etag).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/)
    expect(identity.headers.etag).toBe(first.headers.etag)
    const other = await request('/nested/chunk-9z.js')
    expect(other.headers.etag).not.toBe(first.headers.etag)
  })

  test('answers 304 without a body to a client holding the tag, and a HEAD without one', async () => {
    const { headers } = await request('/entry.client-AbC123.js')
    const again = await request('/entry.client-AbC123.js', {
      'if-none-match': `"other", ${headers.etag}`,
      'accept-encoding': 'br',
    })
    expect(again.status).toBe(304)
    expect(again.body.length).toBe(0)
    expect(again.headers.etag).toBe(headers.etag)
    expect(again.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL)

    const stale = await request('/entry.client-AbC123.js', { 'if-none-match': 'W/"other"' })
    expect(stale.status).toBe(200)
    expect(stale.body.toString()).toBe(script)

    const head = await request('/entry.client-AbC123.js', { 'accept-encoding': 'br' }, 'HEAD')
    expect(head.status).toBe(200)
    expect(head.body.length).toBe(0)
    expect(head.headers['content-encoding']).toBe('br')
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0)
  })

  test('a directory the build has not made holds nothing', () => {
    expect(loadClientAssets(path.join(root, 'missing'), contentTypeOf).size).toBe(0)
  })
})
