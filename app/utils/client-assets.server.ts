// The client's built files (build/client/assets) held in memory, each with the compressed forms
// the build wrote beside it (scripts/precompress-assets.ts, ADR 117). Their names carry a hash of
// their contents, so they never change under a name: read once at start, they are answered
// without a disk access or a compression per request. Every page view of a new visitor (and
// every e2e test, a new browser context) asks for dozens of them.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import path from 'node:path'
import { acceptedEncoding, matchesEtag } from './content-negotiation'

/** The suffix of each compressed form the build writes beside a file. */
export const COMPRESSED_SUFFIXES = { br: '.br', gzip: '.gz' } as const

export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable'

export type ClientAsset = {
  contentType: string
  /** Weak: the same tag names every encoding of the same contents. */
  etag: string
  identity: Buffer
  br?: Buffer
  gzip?: Buffer
}

const isCompressedForm = (name: string) =>
  Object.values(COMPRESSED_SUFFIXES).some((suffix) => name.endsWith(suffix))

/**
 * Every file of the directory (and its subdirectories) by its path under it ("/entry-ab12.js"),
 * with the compressed forms found beside it. A missing directory holds nothing.
 */
export function loadClientAssets(
  dir: string,
  contentTypeOf: (file: string) => string,
): Map<string, ClientAsset> {
  const assets = new Map<string, ClientAsset>()
  if (!existsSync(dir)) return assets
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || isCompressedForm(entry.name)) continue
    const file = path.join(entry.parentPath, entry.name)
    const identity = readFileSync(file)
    const compressed = (suffix: string) =>
      existsSync(file + suffix) ? readFileSync(file + suffix) : undefined
    const digest = createHash('sha256').update(identity).digest('base64url').slice(0, 22)
    assets.set(`/${path.relative(dir, file).split(path.sep).join('/')}`, {
      contentType: contentTypeOf(file),
      etag: `W/"${digest}"`,
      identity,
      br: compressed(COMPRESSED_SUFFIXES.br),
      gzip: compressed(COMPRESSED_SUFFIXES.gzip),
    })
  }
  return assets
}

/** A GET or HEAD of an asset: 304 for its entity tag, else its bytes as the client takes them. */
export function answerClientAsset(req: IncomingMessage, res: ServerResponse, asset: ClientAsset) {
  res.setHeader('Cache-Control', IMMUTABLE_CACHE_CONTROL)
  res.setHeader('ETag', asset.etag)
  if (asset.br || asset.gzip) res.setHeader('Vary', 'Accept-Encoding')
  if (matchesEtag(req.headers['if-none-match'], asset.etag)) {
    res.writeHead(304)
    res.end()
    return
  }
  const encoding = acceptedEncoding(req.headers['accept-encoding'], {
    br: asset.br !== undefined,
    gzip: asset.gzip !== undefined,
  })
  const body = (encoding && asset[encoding]) || asset.identity
  res.setHeader('Content-Type', asset.contentType)
  if (encoding) res.setHeader('Content-Encoding', encoding)
  res.setHeader('Content-Length', body.length)
  res.writeHead(200)
  res.end(req.method === 'HEAD' ? undefined : body)
}
