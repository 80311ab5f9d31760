// The tests' TypeScript helpers that must clean up on SIGTERM (the e2e servers' launchers drop the
// production server's database) run as typeScriptArgs says: one process that gets the signal
// itself. Through the tsx command, a parent relays the signal and SIGKILLs a script that has not
// reported it within about 60 ms, so a script busy at that moment never cleaned up.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { typeScriptArgs } from '../../scripts/server-command'

let dir: string | undefined
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

test('a script busy when its process group gets SIGTERM still finishes its cleanup', async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'brandcard-signals-'))
  const cleaned = path.join(dir, 'cleaned')
  const script = path.join(dir, 'busy.ts')
  writeFileSync(
    script,
    `import { writeFileSync } from 'node:fs'
const busyFor = (ms: number): void => {
  const end = performance.now() + ms
  while (performance.now() < end) {}
}
process.on('SIGTERM', () => {
  // Cleanup that takes a while, as dropping a database does.
  setTimeout(() => {
    writeFileSync(${JSON.stringify(cleaned)}, 'done')
    process.exit(0)
  }, 200)
})
// Busy most of the time, as a server seeding its database is: a signal waits for the loop.
setInterval(() => busyFor(300), 1)
console.log('ready')
`,
  )
  const child = spawn(process.execPath, typeScriptArgs(script), {
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await new Promise<void>((ready, failed) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) ready()
    })
    child.once('exit', () => failed(new Error('the script ended before it was ready')))
  })
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  )
  // As Playwright ends a webServer command: SIGTERM to its whole process group.
  process.kill(-(child.pid as number), 'SIGTERM')
  expect(await ended).toEqual({ code: 0, signal: null })
  expect(existsSync(cleaned) && readFileSync(cleaned, 'utf8')).toBe('done')
})
