// Dependencies stay past the known advisories: every installed copy in package-lock.json
// (nested ones too) is at or above the first fixed version, and package.json's overrides
// keep the transitive React Router packages pinned. `semver` is only a transitive
// dependency here, so a tiny numeric comparison is used instead of importing it.
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'

type Lock = { packages: Record<string, { version?: string; link?: boolean }> }
type PackageJson = { overrides?: Record<string, string> }

const root = new URL('../../', import.meta.url)
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as Lock
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as PackageJson

type Parsed = { core: [number, number, number]; prerelease: boolean }

function parseVersion(version: string): Parsed {
  const match = /^v?(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.exec(version.trim())
  if (!match) throw new Error(`not a semantic version: ${version}`)
  return {
    core: [Number(match[1]), Number(match[2]), Number(match[3])],
    prerelease: Boolean(match[4]),
  }
}

/** True when `version` >= `minimum`; a prerelease of the minimum itself does not count. */
function atLeast(version: string, minimum: string): boolean {
  const a = parseVersion(version)
  const b = parseVersion(minimum)
  for (let i = 0; i < 3; i++) {
    const x = a.core[i] as number
    const y = b.core[i] as number
    if (x !== y) return x > y
  }
  return !a.prerelease || b.prerelease
}

/** The lowest version an override range allows (`^6.30.6`, `~1.23.3`, `>=0.7.2`, `6.30.6`). */
function rangeFloor(range: string) {
  const match = /^(?:\^|~|>=|=)?\s*v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/.exec(range.trim())
  if (!match?.[1]) throw new Error(`override is not a simple pinned range: ${range}`)
  return match[1]
}

const REMIX = '2.17.3'
/** The packages of the Remix 2 monorepo, released in lockstep with @remix-run/node. */
const REMIX_FRAMEWORK = new Set([
  'architect',
  'cloudflare',
  'cloudflare-pages',
  'cloudflare-workers',
  'css-bundle',
  'deno',
  'dev',
  'eslint-config',
  'fs-routes',
  'node',
  'react',
  'route-config',
  'routes-option-adapter',
  'serve',
  'server-runtime',
  'testing',
])

/** The minimum safe version of a package, or null when no advisory applies to it. */
function minimumFor(name: string, version: string): string | null {
  switch (name) {
    case '@remix-run/express':
      return '2.16.3'
    case '@remix-run/router':
      return '1.23.3'
    case 'react-router':
    case 'react-router-dom':
      return '6.30.6'
    case 'drizzle-orm':
      return '0.45.2'
    case 'sharp':
      return '0.35.0'
    case 'cookie':
      return '0.7.0'
  }
  if (!name.startsWith('@remix-run/') || name.startsWith('@remix-run/web-')) return null
  const short = name.slice('@remix-run/'.length)
  // Any other @remix-run package on the Remix 2 line ships with the framework.
  if (REMIX_FRAMEWORK.has(short) || parseVersion(version).core[0] === 2) return REMIX
  return null
}

/** Every installed copy in the lock file: [lock key, package name, version]. */
function installed() {
  return Object.entries(lock.packages).flatMap(([key, entry]) => {
    const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(key)
    if (!match?.[1] || entry.link) return []
    return [[key, match[1], entry.version ?? ''] as const]
  })
}

describe('dependencies stay past the known advisories', () => {
  test('the comparator rejects versions below the minimum and accepts the rest', () => {
    expect(atLeast('2.17.2', '2.17.3')).toBe(false)
    expect(atLeast('2.17.3-pre.1', '2.17.3')).toBe(false)
    expect(atLeast('1.99.99', '2.17.3')).toBe(false)
    expect(atLeast('2.9.9', '2.17.3')).toBe(false)
    expect(atLeast('0.45.1', '0.45.2')).toBe(false)
    expect(atLeast('6.30.5', '6.30.6')).toBe(false)
    expect(atLeast('0.6.0', '0.7.0')).toBe(false)
    expect(atLeast('2.17.3', '2.17.3')).toBe(true)
    expect(atLeast('2.17.10', '2.17.3')).toBe(true)
    expect(atLeast('3.0.0', '2.17.3')).toBe(true)
    expect(atLeast('0.35.5', '0.35.0')).toBe(true)
    expect(() => atLeast('latest', '1.0.0')).toThrow()
  })

  test('every checked package classifies as the advisories say', () => {
    expect(minimumFor('@remix-run/serve', '2.17.5')).toBe(REMIX)
    expect(minimumFor('@remix-run/css-bundle', '2.17.5')).toBe(REMIX)
    expect(minimumFor('@remix-run/web-fetch', '4.4.2')).toBeNull()
    expect(minimumFor('@remix-run/router', '1.23.4')).toBe('1.23.3')
    expect(minimumFor('@remix-run/express', '2.17.5')).toBe('2.16.3')
    expect(minimumFor('left-pad', '1.0.0')).toBeNull()
  })

  test('every installed copy, nested ones included, is at or above its fixed version', () => {
    const copies = installed()
    const checked: string[] = []
    const tooOld: string[] = []
    for (const [key, name, version] of copies) {
      const minimum = minimumFor(name, version || '0.0.0')
      if (!minimum) continue
      checked.push(name)
      if (!version || !atLeast(version, minimum)) tooOld.push(`${key}@${version} < ${minimum}`)
    }
    expect(tooOld).toEqual([])
    // The lock file really was read: the direct dependencies are among the checked copies.
    for (const name of [
      '@remix-run/node',
      '@remix-run/react',
      '@remix-run/server-runtime',
      '@remix-run/dev',
      '@remix-run/express',
      '@remix-run/router',
      'react-router',
      'react-router-dom',
      'drizzle-orm',
      'sharp',
      'cookie',
    ]) {
      expect(checked, name).toContain(name)
    }
  })

  test('package.json overrides pin react-router, react-router-dom and @remix-run/router', () => {
    const overrides = manifest.overrides ?? {}
    for (const [name, minimum] of [
      ['react-router', '6.30.6'],
      ['react-router-dom', '6.30.6'],
      ['@remix-run/router', '1.23.3'],
    ] as const) {
      const range = overrides[name]
      expect(range, `overrides.${name}`).toBeTypeOf('string')
      expect(atLeast(rangeFloor(range as string), minimum), `overrides.${name}=${range}`).toBe(true)
    }
  })
})
