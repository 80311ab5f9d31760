import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, expect, test } from 'vitest'
import {
  claimDataDir,
  DataDirInUseError,
  identityOf,
  isRunning,
  releaseDataDir,
  stoppingDataDir,
} from '#app/utils/data-dir-lock.server'

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'brandcard-lock-'))
  dirs.push(dir)
  return dir
}
const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const claims = (dir: string) => path.join(dir, 'server-claims')
const entry = (dir: string, pid: number | undefined) => path.join(claims(dir), String(pid))

/** A process that lives until killed, and its pid once it runs. */
function holderProcess() {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'])
  children.push(child)
  return child
}

test('the first server claims the directory with a private entry naming its pid, and gives it up', () => {
  const dir = tempDir()
  claimDataDir(dir)
  expect(readdirSync(claims(dir))).toEqual([String(process.pid)])
  expect(readFileSync(entry(dir, process.pid), 'utf8')).toBe(`holding\n${identityOf(process.pid)}`)
  expect(statSync(entry(dir, process.pid)).mode & 0o777).toBe(0o600)
  expect(statSync(claims(dir)).mode & 0o777).toBe(0o700)
  releaseDataDir(dir)
  expect(existsSync(entry(dir, process.pid))).toBe(false)
})

test('a second server on a directory a running process holds is refused with a clear message', () => {
  const dir = tempDir()
  const holder = holderProcess()
  claimDataDir(dir, holder.pid)
  expect(() => claimDataDir(dir)).toThrow(DataDirInUseError)
  expect(() => claimDataDir(dir)).toThrow(
    `Another Brandcard server (pid ${holder.pid}) is using the embedded database in ${dir}: stop it first, or give this server its own DATA_DIR.`,
  )
  // The refused one leaves the holder's claim alone, and none of its own behind.
  expect(readdirSync(claims(dir))).toEqual([String(holder.pid)])
  expect(readFileSync(entry(dir, holder.pid), 'utf8').split('\n')[0]).toBe('holding')
})

test('a claim left by a process that is gone (a crash, SIGKILL) is taken over', () => {
  const dir = tempDir()
  const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' })
  mkdirSync(claims(dir), { recursive: true })
  writeFileSync(path.join(claims(dir), gone.stdout.trim()), 'holding')
  claimDataDir(dir)
  expect(readdirSync(claims(dir))).toEqual([String(process.pid)])
  releaseDataDir(dir)
})

// The dead holder's pid may be another process's by now (a host rebooted with DATA_DIR kept, or
// pids come round): the entry records which process wrote it (boot and start time), and an
// entry whose pid now runs another process is a dead one's.
test("a claim whose pid now belongs to another process is taken over; the holder's own is not", () => {
  const dir = tempDir()
  const other = holderProcess()
  const pid = other.pid as number
  expect(identityOf(pid)).toMatch(/^[0-9a-f-]+:\d+$/)
  mkdirSync(claims(dir), { recursive: true })
  writeFileSync(entry(dir, pid), `holding\n${identityOf(pid)}`)
  expect(() => claimDataDir(dir)).toThrow(`(pid ${pid})`)
  writeFileSync(entry(dir, pid), 'holding\nanother-boot:12345')
  claimDataDir(dir)
  expect(readdirSync(claims(dir))).toEqual([String(process.pid)])
  releaseDataDir(dir)
})

// Issue 39 point 4: the old lock file, created empty and then given its pid, was deleted by a
// second claimer that read it in between (no pid: "not running"). A claim is never without its
// pid, and a live claimer's is never deleted, even while it has not decided yet.
test("a live process's claim still being decided is never taken over", () => {
  const dir = tempDir()
  const claimer = holderProcess()
  mkdirSync(claims(dir), { recursive: true })
  writeFileSync(entry(dir, claimer.pid), 'claiming')
  expect(() => claimDataDir(dir)).toThrow(`(pid ${claimer.pid})`)
  expect(readdirSync(claims(dir))).toEqual([String(claimer.pid)])
})

// Issue 39 point 4: a restart right after `kill -9` was refused, naming the dead pid. A process
// killed but not yet reaped by its parent still answers signal 0; it holds nothing any more.
test('a SIGKILLed holder is recognised as dead at once, before its parent reaps it', () => {
  const dir = tempDir()
  const holder = holderProcess()
  const pid = holder.pid as number
  claimDataDir(dir, pid)
  holder.kill('SIGKILL')
  // This test's event loop does not run until the end, so nothing reaps the child: it is a
  // zombie once the kernel has delivered the signal (each look is a read of its state).
  const state = () => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0]
  while (state() !== 'Z') {}
  expect(() => process.kill(pid, 0)).not.toThrow()
  expect(isRunning(pid)).toBe(false)
  claimDataDir(dir)
  expect(readdirSync(claims(dir))).toEqual([String(process.pid)])
  releaseDataDir(dir)
})

test('a holder that is stopping is waited for, and its directory then claimed', async () => {
  const dir = tempDir()
  const holder = holderProcess()
  claimDataDir(dir, holder.pid)
  stoppingDataDir(dir, holder.pid)
  expect(readFileSync(entry(dir, holder.pid), 'utf8').split('\n')[0]).toBe('stopping')
  // Waited for at most 0 ms: refused, naming it; its claim stays.
  expect(() => claimDataDir(dir, process.pid, 0)).toThrow(`(pid ${holder.pid})`)
  // A claimer in another process waits while the holder lives, and wins once it is gone.
  const claimer = claimerProcess()
  expect(await claimer.next()).toBe('ready')
  claimer.go(dir)
  holder.kill('SIGKILL')
  expect(await claimer.next()).toBe('won')
}, 60_000)

// Issue 39 point 4: the old lock file could be claimed by two processes (between creating it
// and writing the pid, or between reading a dead pid and deleting the file). Claimers in
// separate processes, released together by one line each on stdin, over a claim left by a dead
// process: exactly one wins, each round. The same six processes race every round, each on a new
// directory (a winner's claim on the last one is no other directory's business).
test('claimers racing for a directory, over a dead claim, never both win', async () => {
  const racers = Array.from({ length: 6 }, () => claimerProcess())
  for (const racer of racers) expect(await racer.next()).toBe('ready')
  const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], {
    encoding: 'utf8',
  })
  for (let round = 0; round < 5; round++) {
    const dir = tempDir()
    mkdirSync(claims(dir), { recursive: true })
    writeFileSync(path.join(claims(dir), gone.stdout.trim()), 'holding')
    for (const racer of racers) racer.go(dir)
    const outcomes = await Promise.all(racers.map((racer) => racer.next()))
    expect(
      outcomes.filter((outcome) => outcome === 'won'),
      `round ${round}`,
    ).toHaveLength(1)
    expect(outcomes.filter((outcome) => outcome !== 'won')).toEqual(
      Array.from({ length: 5 }, () => expect.stringMatching(/^refused: Another Brandcard server/)),
    )
    expect(readdirSync(claims(dir))).toHaveLength(1)
  }
}, 120_000)

/**
 * A process that claims each directory it is sent (one line each), says how each went, and holds
 * what it won until killed.
 */
function claimerProcess() {
  const script = `
    import { createInterface } from 'node:readline'
    import { claimDataDir } from ${JSON.stringify(path.resolve('app/utils/data-dir-lock.server.ts'))}
    const lines = createInterface({ input: process.stdin })
    console.log('ready')
    lines.on('line', (dir) => {
      try {
        claimDataDir(dir)
        console.log('won')
      } catch (error) {
        console.log('refused: ' + error.message)
      }
    })`
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  children.push(child)
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })[
    Symbol.asyncIterator
  ]()
  return {
    child,
    next: async () => String((await lines.next()).value),
    go: (dir: string) => child.stdin?.write(`${dir}\n`),
  }
}
