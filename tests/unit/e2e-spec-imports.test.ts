// The e2e specs load none of the app's database modules when Playwright loads them: its runner
// loads every spec to list the tests before the servers start, and each worker the specs it runs.
// A spec imported the servers' seeding through a shared helper, and with it the whole server:
// the listing took 8.3 s of CPU instead of 5.7 s, on the run's critical path. A spec that needs
// those modules loads them when its test runs, with `await import(…)`.
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { build, type Metafile } from 'esbuild'
import { expect, test } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')

/** The modules of the app's database and the tests' factories, which bring in the whole server. */
const SERVER_ENTRIES = ['drizzle/db.server.ts', 'tests/factories.ts']

/** Every module `entry` imports statically, directly or through others (dynamic imports not). */
function staticallyReached(inputs: Metafile['inputs'], entry: string) {
  const reached = new Set([entry])
  const queue = [entry]
  while (queue.length > 0) {
    const file = queue.pop() as string
    for (const imported of inputs[file]?.imports ?? []) {
      if (imported.external || imported.kind === 'dynamic-import') continue
      if (reached.has(imported.path)) continue
      reached.add(imported.path)
      queue.push(imported.path)
    }
  }
  return reached
}

test('no e2e spec imports the database modules statically', async () => {
  const specs = readdirSync(path.join(root, 'e2e'))
    .filter((name) => name.endsWith('.spec.ts'))
    .map((name) => `e2e/${name}`)
  expect(specs.length).toBeGreaterThan(50)
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: specs,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    write: false,
    outdir: 'out',
    metafile: true,
    logLevel: 'silent',
  })
  // The check sees what it looks for: the servers' launcher reaches both.
  const launcher = await build({
    absWorkingDir: root,
    entryPoints: ['e2e/start-server.ts'],
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const launcherReaches = staticallyReached(launcher.metafile.inputs, 'e2e/start-server.ts')
  expect(SERVER_ENTRIES.filter((entry) => launcherReaches.has(entry))).toEqual(SERVER_ENTRIES)

  const offenders = specs.flatMap((spec) => {
    const reached = staticallyReached(metafile.inputs, spec)
    return SERVER_ENTRIES.filter((entry) => reached.has(entry)).map((entry) => `${spec} → ${entry}`)
  })
  expect(offenders).toEqual([])
})
