// Postgres only: the run's test databases. Each file's database is named after the run's template,
// so the run's teardown finds and drops it (tests/setup/global-db.ts), and a run that ended
// without its teardown has its databases dropped by the next run, while a run still going keeps
// its own.
import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import {
  dropDatabasesOfEndedRuns,
  FILE_DATABASE_INFIX,
  TEMPLATE_PREFIX,
} from '#tests/setup/global-db'

const serverUrl = process.env.TEST_DATABASE_URL as string
let admin: postgres.Sql

beforeAll(() => {
  admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
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
  // No process has this id (above the kernel's largest, pid_max, 4194304).
  const ended = `${TEMPLATE_PREFIX}4194305_${randomBytes(3).toString('hex')}`
  const live = `${TEMPLATE_PREFIX}${process.pid}_${randomBytes(3).toString('hex')}`
  const names = [ended, `${ended}${FILE_DATABASE_INFIX}a1`, live, `${live}${FILE_DATABASE_INFIX}b2`]
  for (const name of names) await admin.unsafe(`create database "${name}"`)
  try {
    await dropDatabasesOfEndedRuns(serverUrl, admin)
    expect(await Promise.all(names.map(exists))).toEqual([false, false, true, true])
  } finally {
    for (const name of names) await admin.unsafe(`drop database if exists "${name}"`)
  }
})
