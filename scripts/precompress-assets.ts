// The build writes each compressible client file's brotli and gzip forms beside it, at their
// highest levels (ADR 117): done once here rather than by the server for every request, and
// smaller than what a per-request compression level affords (464 KB of brotli against 534 KB at
// the level the compression middleware uses, for 1.6 MB of scripts). The server holds them in
// memory (app/utils/client-assets.server.ts).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Plugin } from 'vite'
import { COMPRESSED_SUFFIXES } from '../app/utils/client-assets.server'

const brotli = promisify(brotliCompress)
const gzipped = promisify(gzip)

/** Text the build emits; images and fonts come compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|json|svg|html|txt|xml|map|wasm)$/
/** Below this, a compressed form saves less than the header that names it costs. */
const MIN_BYTES = 1024

/** Writes the compressed forms of the directory's compressible files. */
export async function precompressDirectory(dir: string) {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
  await Promise.all(
    files.map(async (file) => {
      const identity = readFileSync(file)
      if (identity.length < MIN_BYTES) return
      const [br, gz] = await Promise.all([
        brotli(identity, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
          },
        }),
        gzipped(identity, { level: constants.Z_BEST_COMPRESSION }),
      ])
      // A form no smaller than the file itself is not worth a header.
      if (br.length < identity.length) writeFileSync(file + COMPRESSED_SUFFIXES.br, br)
      if (gz.length < identity.length) writeFileSync(file + COMPRESSED_SUFFIXES.gzip, gz)
    }),
  )
}

/** A Vite plugin: after the client build is written, its assets directory is precompressed. */
export function precompressAssets(): Plugin {
  let assetsDir: string | null = null
  return {
    name: 'brandcard:precompress-assets',
    apply: 'build',
    configResolved(config) {
      // The server build's assets are never sent to a browser.
      assetsDir = config.build.ssr
        ? null
        : path.resolve(config.root, config.build.outDir, config.build.assetsDir)
    },
    async writeBundle() {
      if (assetsDir) await precompressDirectory(assetsDir)
    },
  }
}
