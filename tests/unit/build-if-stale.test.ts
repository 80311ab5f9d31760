// Issue 27 point 6: `npm start` builds only when build/ does not match the sources. The script
// runs as `npm start` runs it, in a copy of a project's shape, with an `npm` on PATH that stands
// in for the 40-second build and counts how often it was asked.
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, test, vi } from 'vitest'
import { BUILD_OUTPUTS, STAMP_FILE, sourcesHash } from '../../scripts/build-if-stale'

// Each start is a Node process, each stand-in build two: seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000 })

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function project() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'brandcard-build-'))
  dirs.push(root)
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), text)
  }
  write('app/root.tsx', 'export default function App() {}\n')
  write('public/robots.txt', 'User-agent: *\n')
  write('server.ts', 'console.log("server")\n')
  write('package-lock.json', '{"lockfileVersion": 3}\n')
  write('tests/untouched.test.ts', '// not an input\n')
  mkdirSync(path.join(root, 'scripts'))
  copyFileSync('scripts/build-if-stale.ts', path.join(root, 'scripts/build-if-stale.ts'))
  // The stand-in build: writes every output, counts itself, and records the stamp as the real
  // `npm run build` does in its last step.
  const bin = path.join(root, 'bin')
  mkdirSync(bin)
  const outputs = BUILD_OUTPUTS.map((output) =>
    output.endsWith('.js')
      ? `mkdir -p "$(dirname ${output})" && touch ${output}`
      : `mkdir -p ${output}`,
  ).join('\n')
  writeFileSync(
    path.join(bin, 'npm'),
    `#!/bin/sh\nset -e\n[ "$1 $2" = "run build" ]\necho build >> builds.log\n${outputs}\n"${process.execPath}" scripts/build-if-stale.ts --record\n`,
  )
  chmodSync(path.join(bin, 'npm'), 0o755)
  const start = () => {
    const run = spawnSync(process.execPath, ['scripts/build-if-stale.ts'], {
      cwd: root,
      env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` },
      encoding: 'utf8',
    })
    expect(run.status, run.stderr).toBe(0)
    return run.stdout
  }
  const builds = () =>
    existsSync(path.join(root, 'builds.log'))
      ? readFileSync(path.join(root, 'builds.log'), 'utf8').split('\n').filter(Boolean).length
      : 0
  return { root, write, start, builds }
}

test('a start builds when there is no build, and not again while the sources stay the same', () => {
  const { root, start, builds } = project()
  expect(start()).toContain('Building (build/server/index.js is missing)')
  expect(builds()).toBe(1)
  expect(readFileSync(path.join(root, STAMP_FILE), 'utf8').trim()).toBe(sourcesHash(root))

  expect(start()).toContain('build/ matches the sources')
  expect(builds()).toBe(1)
})

test('a changed, added or removed source makes the next start build again', () => {
  const { root, write, start, builds } = project()
  start()
  write('app/root.tsx', 'export default function App() { return null }\n')
  expect(start()).toContain('Building (the sources changed)')
  expect(builds()).toBe(2)

  write('app/routes/new.tsx', 'export default function New() {}\n')
  start()
  expect(builds()).toBe(3)
  rmSync(path.join(root, 'app/routes/new.tsx'))
  start()
  expect(builds()).toBe(4)

  write('package-lock.json', '{"lockfileVersion": 3, "packages": {}}\n')
  start()
  expect(builds()).toBe(5)
  start()
  expect(builds()).toBe(5)
})

test('contents decide, not modification times: a checkout that touches every file builds nothing', () => {
  const { root, write, start, builds } = project()
  start()
  const later = new Date(Date.now() + 60_000)
  utimesSync(path.join(root, 'app/root.tsx'), later, later)
  write('server.ts', 'console.log("server")\n')
  write('tests/untouched.test.ts', '// a test is not a build input\n')
  start()
  expect(builds()).toBe(1)
})

test('a build with an output missing, or with no stamp, is made again', () => {
  const { root, start, builds } = project()
  start()
  rmSync(path.join(root, 'build/supervisor.js'))
  expect(start()).toContain('build/supervisor.js is missing')
  expect(builds()).toBe(2)
  rmSync(path.join(root, STAMP_FILE))
  expect(start()).toContain('the build records no sources')
  expect(builds()).toBe(3)
})

test('npm start runs the check and then the same command as npm run serve; npm run build records the stamp', () => {
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as {
    scripts: Record<string, string>
  }
  expect(scripts.start).toBe(`node scripts/build-if-stale.ts && ${scripts.serve}`)
  expect(scripts.build).toMatch(/ && node scripts\/build-if-stale\.ts --record$/)
})
