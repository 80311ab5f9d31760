// Issue 40 point 3: the job worker wakes itself when a transaction that queued jobs commits
// (migration 0035's notification; tests/integration/job-wake.test.ts proves it on both drivers).
// Nothing may wake it by hand again: there is no such function to call, the worker exports
// nothing that starts its lanes but startJobWorker, and no module names the old call.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) return sourceFiles(file)
    return /\.(ts|tsx)$/.test(name) ? [file] : []
  })
}

const appFiles = sourceFiles('app')

test('no module of the app wakes the job worker by hand', () => {
  const callers = appFiles.filter((file) => /\bwakeJobWorker\b/.test(readFileSync(file, 'utf8')))
  expect(callers).toEqual([])
})

test('the worker exports nothing that schedules its lanes but startJobWorker and stopJobWorker', () => {
  // Found by what it defines, wherever the folders put it.
  const worker = appFiles.find((file) =>
    /^export function startJobWorker\(/m.test(readFileSync(file, 'utf8')),
  )
  if (!worker) throw new Error('no module defines startJobWorker')
  const exported = [
    ...readFileSync(worker, 'utf8').matchAll(
      /^export (?:async )?(?:function|const|class|let) (\w+)/gm,
    ),
  ].map((match) => match[1])
  expect(exported.sort()).toEqual(
    [
      'JOBS_CHANNEL',
      'JOB_LANES',
      'PermanentJobError',
      // A number: how long stopJobWorker waits for the running jobs at shutdown.
      'RUNNING_JOBS_GRACE_MS',
      'enqueueDailyJobs',
      'forgetUnwrittenJobOutcomesForTests',
      'nextDailyRun',
      'readJobQueue',
      'retryDelayMs',
      'runDueJobs',
      'runNextJob',
      'startJobWorker',
      'stopJobWorker',
      // Reads a job's organization and key from its payload; schedules nothing.
      'tenantJobInput',
    ].sort(),
  )
})
