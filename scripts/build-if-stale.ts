// `npm start` builds only when build/ is missing or was made from other sources (issue 27 point 6:
// the build took 41 s on every start). The build records a hash of its inputs' contents in
// build/; a start compares it with the sources as they are. Contents rather than modification
// times: a git checkout or a copy sets every mtime to now, and a switch back and forth between
// branches leaves files newer than a build that matches them.
//
//   node scripts/build-if-stale.ts           build unless build/ matches the sources
//   node scripts/build-if-stale.ts --record  (the last step of `npm run build`) write the stamp
//
// Plain Node (types stripped), no tsx: it runs before every start and must cost little.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * What the build reads: the app and the database layer it bundles, the server and supervisor
 * entries (and the scripts they import), static files, and every configuration or lock file
 * that changes what Vite, Remix, Tailwind, esbuild or the installed packages produce.
 */
export const BUILD_INPUTS = [
  'app',
  'drizzle',
  'public',
  'scripts',
  'patches',
  'server.ts',
  'vite.config.ts',
  'remix.config.js',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
]

/** The files whose presence makes a build usable (what `npm run serve` loads). */
export const BUILD_OUTPUTS = [
  'build/server/index.js',
  'build/server.js',
  'build/supervisor.js',
  'build/client',
]

export const STAMP_FILE = 'build/.sources-sha256'

function filesUnder(root: string, relative: string): string[] {
  const full = path.join(root, relative)
  if (!existsSync(full)) return []
  if (!statSync(full).isDirectory()) return [relative]
  return readdirSync(full)
    .filter((name) => !name.startsWith('.') && name !== 'node_modules')
    .flatMap((name) => filesUnder(root, path.posix.join(relative, name)))
}

/** A hash of every input's path and contents, the same on any checkout of the same sources. */
export function sourcesHash(root: string) {
  const hash = createHash('sha256')
  const files = BUILD_INPUTS.flatMap((input) => filesUnder(root, input)).sort()
  for (const file of files) {
    // Path and length first, so moving bytes from one file to the next changes the hash.
    const contents = readFileSync(path.join(root, file))
    hash.update(`${file}\0${contents.length}\0`)
    hash.update(contents)
  }
  return hash.digest('hex')
}

/** Why build/ must be made again, or null when it matches the sources. */
export function staleReason(root: string): string | null {
  const missing = BUILD_OUTPUTS.find((output) => !existsSync(path.join(root, output)))
  if (missing) return `${missing} is missing`
  const stamp = path.join(root, STAMP_FILE)
  if (!existsSync(stamp)) return 'the build records no sources'
  if (readFileSync(stamp, 'utf8').trim() !== sourcesHash(root)) return 'the sources changed'
  return null
}

export function recordBuild(root: string, hash = sourcesHash(root)) {
  writeFileSync(path.join(root, STAMP_FILE), `${hash}\n`)
}

function main() {
  const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)))
  if (process.argv.includes('--record')) {
    // The hash taken before the build began, when a start asked for it: a source saved during
    // the build then makes the next start build again.
    recordBuild(root, process.env.BUILD_SOURCES_SHA256 || undefined)
    return
  }
  const reason = staleReason(root)
  if (reason === null) {
    console.log('build/ matches the sources: starting without a build')
    return
  }
  console.log(`Building (${reason})`)
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const build = spawnSync(npm, ['run', 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, BUILD_SOURCES_SHA256: sourcesHash(root) },
  })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
