import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { claimDataDir, DataDirInUseError, releaseDataDir } from '#app/utils/data-dir-lock.server'

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'brandcard-lock-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

test('the first server claims the directory with a private lock naming its pid, and gives it up', () => {
  const dir = tempDir()
  claimDataDir(dir)
  const lock = path.join(dir, 'server.lock')
  expect(readFileSync(lock, 'utf8')).toBe(String(process.pid))
  expect(statSync(lock).mode & 0o777).toBe(0o600)
  releaseDataDir(dir)
  expect(existsSync(lock)).toBe(false)
})

test('a second server on a directory a running process holds is refused with a clear message', () => {
  const dir = tempDir()
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30_000)'])
  try {
    claimDataDir(dir, holder.pid)
    expect(() => claimDataDir(dir)).toThrow(DataDirInUseError)
    expect(() => claimDataDir(dir)).toThrow(
      `Another Brandcard server (pid ${holder.pid}) is using the embedded database in ${dir}: stop it first, or give this server its own DATA_DIR.`,
    )
    // The refused one leaves the holder's lock alone.
    releaseDataDir(dir)
    expect(readFileSync(path.join(dir, 'server.lock'), 'utf8')).toBe(String(holder.pid))
  } finally {
    holder.kill('SIGKILL')
  }
})

test('a lock left by a process that is gone (a crash, SIGKILL) is taken over', () => {
  const dir = tempDir()
  const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' })
  writeFileSync(path.join(dir, 'server.lock'), gone.stdout.trim())
  claimDataDir(dir)
  expect(readFileSync(path.join(dir, 'server.lock'), 'utf8')).toBe(String(process.pid))
  releaseDataDir(dir)
})
