// Postgres only (a *.postgres.test.ts file): the app login is a real server's role. Servers that
// start together each set up brandcard_app's login (issue 26 point 14): every one must end on
// that login, none on the owner's connection (where row-level security does not hold), and a
// set-up that cannot work fails the start without writing the password anywhere.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { inspect } from 'node:util'
import { sql } from 'drizzle-orm'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { appLoginPassword, connectWithDerivedLogin } from '#app/prepare-database.server'
import { type DatabaseHandle, openPostgres } from '#drizzle/db.server'
import { rowsOf } from '#tests/checksum'
import { freePort, PostgresCluster, postgresBinDir } from '../../e2e/postgres-cluster'

const SECRET = 'app-role-setup-test-secret-0123456789abcdef'
const STARTS = 8

// A server of its own, so the role starts without a login (as on a fresh deployment), the app
// login has to pass a real password check (SCRAM), and the shared test server's brandcard_app,
// which other test files log in as, is left alone.
let cluster: PostgresCluster
let superuser: postgres.Sql

beforeAll(async () => {
  if (!postgresBinDir) throw new Error('needs PostgreSQL server binaries (initdb, pg_ctl; PG_BIN)')
  cluster = new PostgresCluster(await freePort())
  cluster.init()
  // The owners are trusted (they stand for the deployment's own credentials); brandcard_app
  // must present its password.
  writeFileSync(
    path.join(cluster.dir, 'data', 'pg_hba.conf'),
    [
      'local all all trust',
      'host all postgres 127.0.0.1/32 trust',
      'host all brandcard_owner_limited 127.0.0.1/32 trust',
      'host all all 127.0.0.1/32 scram-sha-256',
      '',
    ].join('\n'),
  )
  superuser = postgres(cluster.url, { max: 1, onnotice: () => {} })
  await superuser`select pg_reload_conf()`
}, 120_000)

afterAll(async () => {
  await superuser?.end({ timeout: 1 })
  cluster?.destroy()
})

async function freshDatabase(name: string, owner = 'postgres') {
  await superuser.unsafe(`drop database if exists ${name} with (force)`)
  await superuser.unsafe(`create database ${name} owner ${owner}`)
  const url = new URL(cluster.url)
  url.pathname = `/${name}`
  url.username = owner
  return url.toString()
}

async function currentUser(handle: DatabaseHandle) {
  const [row] = rowsOf<{ name: string }>(await handle.db.execute(sql`select current_user as name`))
  return row?.name
}

test('servers starting together all end on the brandcard_app login, never the owner', async () => {
  const url = await freshDatabase('brandcard_race')
  const migrator = openPostgres(url, { max: 1 })
  await migrator.migrate()
  await migrator.close()
  // As a fresh deployment has it (the migration creates it so).
  await superuser.unsafe('alter role brandcard_app nologin password null')
  const owners = Array.from({ length: STARTS }, () => openPostgres(url, { max: 2 }))
  const logged: string[] = []
  const outcomes = await Promise.allSettled(
    owners.map((owner) => connectWithDerivedLogin(owner, url, SECRET, (m) => logged.push(m))),
  )
  try {
    const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []))
    expect(failures).toEqual([])
    const apps = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []))
    expect(await Promise.all(apps.map(currentUser))).toEqual(Array(STARTS).fill('brandcard_app'))
    expect(logged.join('\n')).not.toContain(appLoginPassword(SECRET))
  } finally {
    await Promise.all([
      ...owners.map((owner) => owner.close()),
      ...outcomes.map((o) => (o.status === 'fulfilled' ? o.value.close() : undefined)),
    ])
  }
})

test('an owner that may not give the login: the start fails, names what to do, and no password is written', async () => {
  await superuser.unsafe(`
    do $$ begin
      if not exists (select 1 from pg_roles where rolname = 'brandcard_owner_limited') then
        create role brandcard_owner_limited login nosuperuser nocreaterole;
      end if;
    end $$`)
  const url = await freshDatabase('brandcard_limited', 'brandcard_owner_limited')
  // Migrations as the limited owner find the role there (created by the first test's migration).
  await superuser.unsafe(`
    do $$ begin
      if not exists (select 1 from pg_roles where rolname = 'brandcard_app') then
        create role brandcard_app nologin nosuperuser nobypassrls;
      end if;
    end $$`)
  await superuser.unsafe('grant brandcard_app to brandcard_owner_limited with admin option')
  const migrator = openPostgres(url, { max: 1 })
  await migrator.migrate()
  await migrator.close()
  // The role has no login yet, so the set-up must ask the owner, who may not alter roles.
  await superuser.unsafe('alter role brandcard_app nologin password null')
  const owner = openPostgres(url, { max: 1 })
  const logged: string[] = []
  const password = appLoginPassword(SECRET)
  try {
    const failure = await connectWithDerivedLogin(owner, url, SECRET, (m) => logged.push(m)).then(
      () => null,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(Error)
    expect(String(failure)).toMatch(/could not give brandcard_app its login.*DATABASE_APP_URL/)
    // Whatever a logger would print of it: message, stack, properties, causes.
    expect(inspect(failure, { depth: 10, showHidden: true })).not.toContain(password)
    expect(JSON.stringify(failure)).not.toContain(password)
    expect(logged.join('\n')).not.toContain(password)
    // Nor the server's own log of the refused statement (the role gets a SCRAM verifier).
    expect(readFileSync(path.join(cluster.dir, 'server.log'), 'utf8')).toMatch(/alter role/i)
    expect(readFileSync(path.join(cluster.dir, 'server.log'), 'utf8')).not.toContain(password)
  } finally {
    await owner.close()
  }
})
