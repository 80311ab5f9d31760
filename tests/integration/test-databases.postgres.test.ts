// Postgres only: the run's test databases. Each file's database is named after the run's template,
// so the run's teardown finds and drops it (tests/setup/global-db.ts), and a run that ended
// without its teardown has its databases dropped by the next run in the same process namespace,
// while a run still going, or one in another container, keeps its own.
import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { dropDatabasesAfterRun } from '#tests/setup/drop-databases'
import {
  dropDatabasesOfEndedRuns,
  FILE_DATABASE_INFIX,
  PID_NAMESPACE,
  TEMPLATE_PREFIX,
} from '#tests/setup/global-db'

const serverUrl = process.env.TEST_DATABASE_URL as string
let admin: postgres.Sql

beforeAll(() => {
  // Six connections, so the cleanup's drops go at once: each DROP DATABASE waits for a checkpoint,
  // and drops waiting together share one (one at a time, this file took 13 s on a busy machine).
  admin = postgres(serverUrl, { max: 6, onnotice: () => {} })
})
afterAll(async () => {
  await admin.end()
})

async function exists(name: string) {
  const rows = await admin`select 1 from pg_database where datname = ${name}`
  return rows.length === 1
}

test("this file's database is named after the run's template, for its teardown to drop", () => {
  const database = new URL(process.env.TEST_FILE_DATABASE_URL as string).pathname.slice(1)
  expect(database.startsWith(`${inject('postgresTemplate')}${FILE_DATABASE_INFIX}`)).toBe(true)
})

test('the databases of a run whose process is gone are dropped; a live run keeps its own', async () => {
  const run = (namespace: string, pid: number) =>
    `${TEMPLATE_PREFIX}${namespace}_${pid}_${randomBytes(3).toString('hex')}`
  // No process has this id (above the kernel's largest, pid_max, 4194304).
  const ended = run(PID_NAMESPACE, 4194305)
  const live = run(PID_NAMESPACE, process.pid)
  // Another container's run: its process ids are not this namespace's to judge.
  const elsewhere = run('zz', 4194305)
  const names = [ended, `${ended}${FILE_DATABASE_INFIX}a1`, live, `${live}${FILE_DATABASE_INFIX}b2`]
  names.push(elsewhere, `${elsewhere}${FILE_DATABASE_INFIX}c3`)
  for (const name of names) await admin.unsafe(`create database "${name}"`)
  try {
    await dropDatabasesOfEndedRuns(serverUrl, admin)
    expect(await Promise.all(names.map(exists))).toEqual([false, false, true, true, true, true])
  } finally {
    await Promise.all(names.map((name) => admin.unsafe(`drop database if exists "${name}"`)))
  }
})

test("the run's databases are dropped by a process of their own, which the run does not wait for", async () => {
  const names = [1, 2].map(() => `${TEMPLATE_PREFIX}probe_${randomBytes(4).toString('hex')}`)
  for (const name of names) await admin.unsafe(`create database "${name}"`)
  try {
    dropDatabasesAfterRun(serverUrl, names)
    // Polled: the drops happen in the other process. A hang watchdog, not a speed check.
    await expect
      .poll(async () => (await Promise.all(names.map(exists))).some(Boolean), {
        timeout: 120_000,
        interval: 200,
      })
      .toBe(false)
  } finally {
    await Promise.all(names.map((name) => admin.unsafe(`drop database if exists "${name}"`)))
  }
})
