// Backups that restore (ADR 018, issue 15 point 6): the seeded database is dumped, the dump is
// loaded into a fresh empty database, and every table (rows and their hash), the migrations
// table, the schema, the row-level security policies and the grants compare equal. Runs on
// PGlite and, with TEST_DATABASE_URL, on Postgres, where it also backs up and restores as an
// owner login that is not a superuser (row-level security is forced on its tables).
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs, { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import { eq } from 'drizzle-orm'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import {
  BackupError,
  type DatabaseLocation,
  restoreBackup,
  takeBackup,
  takeDailyBackup,
} from '#app/backups/backups.server'
import { backupCommand, restoreCommand } from '#app/backups/commands.server'
import { seedDemo } from '#app/demo/seed.server'
import { resetEnvForTests } from '#app/env.server'
import { runJobsNow } from '#app/job-handlers.server'
import { enqueueDailyJobs } from '#app/jobs/worker.server'
import { createOrganization } from '#app/models/organizations.server'
import { getDatabaseHandle, getDb, openPostgres } from '#drizzle/db.server'
import { contacts, jobs } from '#drizzle/schema'
import { makeCard, makeOrganization, makeUser } from '#tests/factories'
import { withDatabase as databaseUrl } from '#tests/setup/global-db'
import { emptyPglite } from '#tests/setup/pglite-snapshot'

const onPostgres = process.env.TEST_DB_DRIVER === 'postgres'
const serverUrl = process.env.TEST_DATABASE_URL as string

// Text a naive dump reader would break: quotes, semicolons, comment markers, a line that looks
// like a psql command (pglite-tools deleted such lines until patched) or a statement, dollar
// quotes, a CRLF.
const AWKWARD =
  "O'Brien; -- not a comment\n\\restrict x\nALTER TABLE ONLY public.users FORCE ROW LEVEL SECURITY;\r\n$$ $t$ é 😀"

let workDir: string
let source: DatabaseLocation
let dump: string
const cleanups: (() => Promise<void>)[] = []

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'brandcard-backups-'))
  await seedDemo(getDb())
  const organization = await makeOrganization({ name: AWKWARD })
  const user = await makeUser(organization.id, { firstName: AWKWARD })
  await makeCard(organization.id, user.id, { lastName: AWKWARD })
  await getDb()
    .insert(contacts)
    .values(
      ['Ada Lovelace', 'Grace Hopper', 'Alan Turing'].map((fullName) => ({
        organizationId: organization.id,
        userId: user.id,
        fullName,
      })),
    )
  source = onPostgres
    ? { driver: 'postgres', url: process.env.TEST_FILE_DATABASE_URL as string }
    : { driver: 'pglite', client: (getDatabaseHandle() as unknown as { client: PGlite }).client }
  dump = (await takeBackup({ dir: path.join(workDir, 'shared'), retention: 7, database: source }))
    .file
})

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  await rm(workDir, { recursive: true, force: true })
})

describe('a backup restores', () => {
  test('into an empty database with every table, row, policy and grant', async () => {
    const taken = await takeBackup({
      dir: path.join(workDir, 'daily'),
      retention: 7,
      database: source,
    })
    expect(path.basename(taken.file)).toMatch(
      /^brandcard-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.sql$/,
    )
    const file = await stat(taken.file)
    expect(taken.bytes).toBe(file.size)
    expect(file.mode & 0o777).toBe(0o600)
    expect(taken.deleted).toEqual([])

    const target = await emptyDatabase()
    await restoreBackup({ file: taken.file, into: target })

    const before = await fingerprint(source)
    const after = await fingerprint(target)
    expect(after).toEqual(before)
    // The comparison saw real data: the demo's people and the migrations.
    expect(before.tables['public.users']?.rows).toBeGreaterThan(10)
    expect(before.tables['drizzle.__drizzle_migrations']?.rows).toBeGreaterThan(0)
    expect(before.policies.length).toBeGreaterThan(10)
    // The awkward text came back byte for byte.
    const names = await rowsOf<{ name: string }>(
      target,
      "select name from public.organizations where name like 'O''Brien%'",
    )
    expect(names).toEqual([{ name: AWKWARD }])
  })

  test('row-level security holds in the restored database', async () => {
    const target = await emptyDatabase()
    await restoreBackup({ file: dump, into: target })
    const users = 'select count(*)::int as n from public.users'
    const asApp = 'set local role brandcard_app'
    const [all] = await rowsOf<{ n: number }>(target, users)
    const [tenantless] = await rowsOf<{ n: number }>(target, users, [
      asApp,
      "select set_config('app.platform_scope', '', true)",
    ])
    const [platform] = await rowsOf<{ n: number }>(target, users, [
      asApp,
      "select set_config('app.platform_scope', 'on', true)",
    ])
    expect(all?.n).toBeGreaterThan(10)
    expect({ tenantless: tenantless?.n, platform: platform?.n }).toEqual({
      tenantless: 0,
      platform: all?.n,
    })
  })

  test.runIf(!onPostgres)(
    'leaves the PGlite session as it was, for the requests after it',
    async () => {
      const settings = async () =>
        rowsOf<{ name: string; setting: string; source: string }>(
          source,
          "select name, setting, source from pg_settings where source <> 'default' order by name",
        )
      const before = await settings()
      await takeBackup({ dir: path.join(workDir, 'session'), retention: 1, database: source })
      expect(await settings()).toEqual(before)
      // pg_dump's read-only transaction is over too.
      expect(source.driver === 'pglite' && source.client.isInTransaction()).toBe(false)
    },
  )

  test.runIf(onPostgres)(
    'as an owner login that is neither superuser nor BYPASSRLS, with row-level security forced',
    async () => {
      const { asOwner } = await ownerLogin()
      const databases = [await asOwner(), await asOwner()] as const
      const migrated = openPostgres(databases[0], { max: 2 })
      await migrated.migrate()
      await seedDemo(migrated.db)
      await migrated.close()

      const from: DatabaseLocation = { driver: 'postgres', url: databases[0] }
      const into: DatabaseLocation = { driver: 'postgres', url: databases[1] }
      const taken = await takeBackup({
        dir: path.join(workDir, 'owner'),
        retention: 1,
        database: from,
      })
      await restoreBackup({ file: taken.file, into })
      const before = await fingerprint(from)
      expect(before.tables['public.users']?.rows).toBeGreaterThan(10)
      expect(await fingerprint(into)).toEqual(before)
      const [forced] = await rowsOf<{ forced: boolean }>(
        into,
        "select relforcerowsecurity as forced from pg_class where oid = 'public.users'::regclass",
      )
      expect(forced).toEqual({ forced: true })

      // A table whose policy does not admit the platform scope would be dumped in part: refused.
      await rowsOf(from, 'select 1', [
        'create table public.hidden (x int)',
        'alter table public.hidden enable row level security',
        'alter table public.hidden force row level security',
        'create policy hidden_nobody on public.hidden using (false)',
      ])
      await expect(
        takeBackup({ dir: path.join(workDir, 'owner'), retention: 1, database: from }),
      ).rejects.toThrow(
        'Backup refused: row-level security would hide rows of public.hidden from this login (its policies do not admit app.platform_scope). Back up as a superuser or a role with BYPASSRLS.',
      )
    },
  )
  test.runIf(!onPostgres && Boolean(serverUrl))(
    'from PGlite onto a Postgres server, owned by the (non-superuser) login that restores it',
    async () => {
      const { owner, asOwner } = await ownerLogin()
      const into: DatabaseLocation = { driver: 'postgres', url: await asOwner() }
      await restoreBackup({ file: dump, into })
      expect(await tableSums(into)).toEqual(await tableSums(source))
      expect(await rowsOf(into, OWNERSHIP)).toEqual([{ owners: owner, defaults: owner }])
      // The app starts on it: the migrations table says everything is applied already.
      const app = openPostgres(into.url, { max: 1 })
      await app.migrate()
      await app.close()
      expect(await tableSums(into)).toEqual(await tableSums(source))
    },
  )

  test.runIf(onPostgres)('from a Postgres server into PGlite', async () => {
    const into = await emptyDatabase('pglite')
    await restoreBackup({ file: dump, into })
    expect(await tableSums(into)).toEqual(await tableSums(source))
  })
})

describe('retention', () => {
  test('deletes our oldest dumps beyond the count and leaves every other file alone', async () => {
    const dir = path.join(workDir, 'retention')
    await mkdir(path.join(dir, 'brandcard-2019-12-31T00-00-00-000Z.sql'), { recursive: true })
    const old = [1, 2, 3, 4].map((day) => `brandcard-2020-01-0${day}T03-00-00-000Z.sql`)
    const others = [
      'notes.txt',
      'brandcard-manual.sql',
      'brandcard-2020-01-01T03-00-00-000Z.sql.gz',
    ]
    for (const name of [...old, ...others]) await writeFile(path.join(dir, name), 'x')

    const taken = await takeBackup({ dir, retention: 3, database: source })

    expect(taken.deleted).toEqual(old.slice(0, 2).map((name) => path.join(dir, name)))
    expect((await readdir(dir)).sort()).toEqual(
      [
        'brandcard-2019-12-31T00-00-00-000Z.sql', // a directory, not a dump of ours
        ...old.slice(2),
        path.basename(taken.file),
        ...others,
      ].sort(),
    )
  })

  test('keeps at least one dump', async () => {
    await expect(
      takeBackup({ dir: path.join(workDir, 'none'), retention: 0, database: source }),
    ).rejects.toThrow(new BackupError('The retention must be a whole number of at least 1 (got 0)'))
  })
})

describe('restore refuses', () => {
  test('a database that is not empty, and changes nothing in it', async () => {
    const before = await fingerprint(source)
    await expect(restoreBackup({ file: dump, into: source })).rejects.toThrow(
      /^The target database is not empty \(it has \d+ tables in schema public and a drizzle migrations schema\): restore only into an empty database\. Nothing was changed\.$/,
    )
    expect(await fingerprint(source)).toEqual(before)
  })

  test('a missing, garbled, truncated or failing dump, with a clear message, leaving the target empty', async () => {
    const target = await emptyDatabase()
    const text = await readFile(dump, 'utf8')
    const file = (name: string, content: string | Buffer) =>
      writeFile(path.join(workDir, name), content).then(() => path.join(workDir, name))
    const cases: [string, RegExp][] = [
      [path.join(workDir, 'missing.sql'), /^No such file: .*missing\.sql$/],
      [workDir, /^Not a file: /],
      [await file('garbled.sql', randomBytes(4000)), /is not a SQL dump written by pg_dump/],
      [await file('custom.dump', Buffer.from('PGDMP\u0001\u000e')), /custom format.*pg_restore/],
      [
        await file('cut.sql', text.slice(0, text.length / 2)),
        /is incomplete: it lacks pg_dump's closing line/,
      ],
      [
        // Whole, but one statement in the middle fails: the rows before it are rolled back too.
        await file(
          'failing.sql',
          text.replace(
            /\nCREATE TABLE public\.users /,
            '\nCREATE TABLE public.organizations_again AS SELECT nothing;\nCREATE TABLE public.users ',
          ),
        ),
        /failing\.sql, line \d+: column "nothing" does not exist\. Nothing was restored\.$/,
      ],
      [
        await file(
          'unterminated.sql',
          text.replace(
            '-- PostgreSQL database dump complete',
            "INSERT INTO x VALUES ('\n-- PostgreSQL database dump complete",
          ),
        ),
        /unterminated\.sql: the dump ends inside a statement \(the statement on line \d+\)\. Nothing was restored\.$/,
      ],
    ]
    for (const [name, message] of cases) {
      await expect(restoreBackup({ file: name, into: target }), name).rejects.toThrow(message)
      await expect(restoreBackup({ file: name, into: target })).rejects.toBeInstanceOf(BackupError)
    }
    expect(await rowsOf(target, TABLES)).toEqual([])
    // And the target still takes the real dump afterwards.
    await restoreBackup({ file: dump, into: target })
  })
})

describe('restore checks the manifest', () => {
  // Damage a loader cannot see: every statement still runs. The manifest (read in the dump's
  // own snapshot) names what the restored database lacks, and the load is rolled back.
  test("a dump missing a table's rows, half its schema or with altered rows is refused, naming the difference, and the target stays empty", async () => {
    const target = await emptyDatabase()
    const text = await readFile(dump, 'utf8')
    const contactRows = await rowsOf<{ n: number }>(
      source,
      'select count(*)::int as n from public.contacts',
    )
    expect(contactRows[0]?.n).toBeGreaterThan(0)
    const changed: Record<string, boolean> = {}
    const damaged = async (name: string, content: string) => {
      const file = path.join(workDir, name)
      changed[file] = content !== text
      await writeFile(file, content)
      return file
    }
    const cases: [string, RegExp][] = [
      [
        await damaged(
          'no-contacts.sql',
          text.replace(/^INSERT INTO public\.contacts [\s\S]*?;\n/gm, ''),
        ),
        new RegExp(
          `does not match its manifest: .*public\\.contacts has 0 rows, the backup had ${contactRows[0]?.n}.*Nothing was restored\\.$`,
        ),
      ],
      [
        await damaged(
          'half-schema.sql',
          text.replace(/^CREATE (?:POLICY|TRIGGER) [\s\S]*?;\n/gm, ''),
        ),
        /does not match its manifest: policies missing \(\d+\): public\.\w+ \w+.*; triggers missing \(\d+\): public\.\w+ \w+.*Nothing was restored\.$/,
      ],
      [
        await damaged('altered.sql', text.replaceAll("'O''Brien;", "'O''Brian;")),
        /does not match its manifest: .*public\.organizations has \d+ rows as the backup had, but their checksum differs/,
      ],
      [
        await damaged(
          'no-manifest.sql',
          text.slice(0, text.lastIndexOf('\n-- brandcard-manifest: ')),
        ),
        /no-manifest\.sql has no Brandcard manifest .*Restore it with --unverified/,
      ],
      [
        await damaged(
          'bad-manifest.sql',
          text.replace('-- brandcard-manifest: {', '-- brandcard-manifest: {{'),
        ),
        /bad-manifest\.sql: its manifest is damaged/,
      ],
    ]
    for (const [file, message] of cases) {
      const refused = await restoreBackup({ file, into: target }).catch((error: unknown) => error)
      expect(refused, file).toBeInstanceOf(BackupError)
      expect((refused as Error).message, (refused as Error).message).toMatch(message)
      expect(await rowsOf(target, TABLES), file).toEqual([])
      expect(changed[file], `${file} differs from the dump`).toBe(true)
    }
    // A dump without a manifest loads when asked to (the intact dump: every test above).
    await restoreBackup({ file: cases[3]?.[0] as string, into: target, unverified: true })
    expect(await tableSums(target)).toEqual(await tableSums(source))
  }, 120_000)
})

describe('npm run backup and npm run restore', () => {
  const output = () => {
    const lines: string[] = []
    return {
      lines,
      out: {
        info: (line: string) => lines.push(line),
        error: (line: string) => lines.push(`! ${line}`),
      },
    }
  }

  test('back up and restore on the configured driver; expected errors are one line and exit 1', async () => {
    const base = path.join(workDir, 'cli')
    const restored = output()
    const env: Record<string, string> = onPostgres
      ? { DATABASE_URL: await emptyDatabaseUrl() }
      : { DATA_DIR: base }
    const fsync = vi.spyOn(fs, 'fsyncSync')
    expect(await restoreCommand([dump], env, restored.out)).toBe(0)
    const fsyncCalls = fsync.mock.calls.length
    fsync.mockRestore()
    expect(restored.lines[0]).toMatch(/^Restored .* \(\d+ statements\)$/)
    // PGlite's directory opened as the server opens it (drizzle/db.server.ts's pgliteStorage):
    // fsync reaches the files (ADR 033), where PGlite's own file system ignores it.
    if (!onPostgres) expect(fsyncCalls).toBeGreaterThan(0)

    const again = output()
    expect(await restoreCommand([dump], env, again.out)).toBe(1)
    expect(again.lines).toEqual([expect.stringMatching(/^! The target database is not empty/)])

    const backedUp = output()
    expect(await backupCommand([], { ...env, DATA_DIR: base }, backedUp.out)).toBe(0)
    const files = await readdir(path.join(base, 'backups'))
    expect(files).toHaveLength(1)
    expect(backedUp.lines).toEqual([
      expect.stringMatching(new RegExp(`^Backup written: .*${files[0]} \\(\\d+\\.\\d kB\\)$`)),
    ])
    const exists = output()
    const written = path.join(base, 'backups', files[0] as string)
    expect(await backupCommand([written], { ...env, DATA_DIR: base }, exists.out)).toBe(1)
    expect(exists.lines).toEqual([`! ${written} exists already: choose another name`])

    const missing = output()
    expect(await restoreCommand(['nope.sql'], env, missing.out)).toBe(1)
    expect(missing.lines).toEqual([`! No such file: ${path.resolve('nope.sql')}`])

    const usage = output()
    expect(await restoreCommand([], env, usage.out)).toBe(2)
    expect(usage.lines[0]).toMatch(/^! Usage: npm run restore -- FILE/)
  })

  test.runIf(!onPostgres)(
    'PGlite: a directory in use or missing is refused; a failed restore leaves no directory',
    async () => {
      const inUse = path.join(workDir, 'in-use')
      await mkdir(path.join(inUse, 'pglite'), { recursive: true })
      await writeFile(path.join(inUse, 'pglite', 'PG_VERSION'), '18')
      await writeFile(path.join(inUse, 'pglite', 'postmaster.pid'), '-42')
      const busy = { lines: [] as string[] }
      const out = { info: () => {}, error: (line: string) => busy.lines.push(line) }
      expect(await backupCommand([], { DATA_DIR: inUse }, out)).toBe(1)
      expect(busy.lines[0]).toMatch(
        /pglite is open in another process \(the server\?\): stop it first/,
      )

      expect(await backupCommand([], { DATA_DIR: path.join(workDir, 'nothing') }, out)).toBe(1)
      expect(busy.lines[1]).toMatch(/^No embedded database in .*nothing\/pglite/)

      const fresh = path.join(workDir, 'fresh')
      const failing = path.join(workDir, 'failing-cli.sql')
      const text = await readFile(dump, 'utf8')
      await writeFile(
        failing,
        text.replace(
          /\nCREATE TABLE public\.users /,
          '\nSELECT nothing;\nCREATE TABLE public.users ',
        ),
      )
      expect(await restoreCommand([failing, '--data-dir', fresh], {}, out)).toBe(1)
      expect(busy.lines[2]).toMatch(/Nothing was restored\.$/)
      expect(existsSync(fresh)).toBe(false)
    },
  )

  test.runIf(!onPostgres)('the script prints the message alone and exits 1', () => {
    const run = spawnSync(
      path.resolve('node_modules/.bin/tsx'),
      ['scripts/restore.ts', path.join(workDir, 'missing.sql')],
      { encoding: 'utf8', env: { ...process.env, DATA_DIR: path.join(workDir, 'script') } },
    )
    expect(run.status).toBe(1)
    expect(run.stderr.trim()).toBe(`No such file: ${path.join(workDir, 'missing.sql')}`)
    expect(existsSync(path.join(workDir, 'script'))).toBe(false)
  })
})

// ---------------------------------------------------------------------------------------------

const TABLES = `select format('%I.%I', table_schema, table_name) as name
  from information_schema.tables
  where table_type = 'BASE TABLE'
    and (table_schema = 'public' or (table_schema = 'drizzle' and table_name = '__drizzle_migrations'))
  order by 1`

const OWNERSHIP = `select
    (select string_agg(distinct tableowner, ',') from pg_tables
      where schemaname in ('public', 'drizzle')) as owners,
    (select string_agg(distinct defaclrole::regrole::text, ',') from pg_default_acl) as defaults`

/** Each table's row count and a hash of its rows (as text, timestamps in UTC on either driver). */
async function tableSums(location: DatabaseLocation) {
  const tables: Record<string, { rows: number; sum: string }> = {}
  for (const { name } of await rowsOf<{ name: string }>(location, TABLES)) {
    const [row] = await rowsOf<{ rows: number; sum: string }>(
      location,
      `select count(*)::int as rows, coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as sum from ${name} t`,
      ["set local timezone to 'UTC'"],
    )
    tables[name] = row as { rows: number; sum: string }
  }
  return tables
}

/** Everything a restore must bring back, read the same way from any database. */
async function fingerprint(location: DatabaseLocation) {
  const read = (query: string) => rowsOf(location, query)
  return {
    tables: await tableSums(location),
    columns: await read(`select table_schema, table_name, column_name, data_type, udt_name,
        is_nullable, column_default from information_schema.columns
      where table_schema in ('public', 'drizzle') order by 1, 2, 3`),
    constraints: await read(`select conrelid::regclass::text as on, conname,
        pg_get_constraintdef(oid) as definition from pg_constraint
      where connamespace in ('public'::regnamespace, 'drizzle'::regnamespace) order by 1, 2`),
    indexes: await read(
      `select indexname, indexdef from pg_indexes where schemaname in ('public', 'drizzle') order by 1`,
    ),
    types:
      await read(`select t.typname, string_agg(e.enumlabel, ',' order by e.enumsortorder) as labels
      from pg_type t join pg_enum e on e.enumtypid = t.oid
      where t.typnamespace = 'public'::regnamespace group by 1 order by 1`),
    sequences: await read(
      'select schemaname, sequencename, last_value from pg_sequences order by 1, 2',
    ),
    security: await read(`select relname, relrowsecurity, relforcerowsecurity from pg_class
      where relnamespace = 'public'::regnamespace and relkind = 'r' order by 1`),
    policies:
      await read(`select tablename, policyname, permissive, roles::text, cmd, qual, with_check
      from pg_policies where schemaname = 'public' order by 1, 2`),
    grants: await read(`select table_name, privilege_type from information_schema.role_table_grants
      where grantee = 'brandcard_app' order by 1, 2`),
    schemaUsage: await read(
      "select has_schema_privilege('brandcard_app', 'public', 'USAGE') as usage",
    ),
    defaultPrivileges: await read(
      'select defaclnamespace::regnamespace::text as schema, defaclobjtype, defaclacl::text from pg_default_acl order by 1, 2',
    ),
  }
}

const connections = new Map<string, postgres.Sql>()

/**
 * Rows of a query on a PGlite client or a Postgres URL, in a transaction after `setup`. On
 * Postgres the session is in the platform scope: an owner whose tables force row-level security
 * sees every row, as backups do.
 */
async function rowsOf<T = Record<string, unknown>>(
  location: DatabaseLocation,
  query: string,
  setup: string[] = [],
): Promise<T[]> {
  if (location.driver === 'pglite') {
    return location.client.transaction(async (tx) => {
      for (const statement of setup) await tx.exec(statement)
      return (await tx.query<T>(query)).rows
    })
  }
  let sql = connections.get(location.url)
  if (!sql) {
    const opened = postgres(location.url, {
      max: 1,
      onnotice: () => {},
      connection: { 'app.platform_scope': 'on' },
    })
    cleanups.push(() => opened.end())
    connections.set(location.url, opened)
    sql = opened
  }
  return (await sql.begin(async (tx) => {
    for (const statement of setup) await tx.unsafe(statement)
    return tx.unsafe(query)
  })) as unknown as T[]
}

/**
 * A login like production's owner: no superuser, no BYPASSRLS, CREATEROLE (migration 0001 grants
 * brandcard_app to the migrating login). `asOwner()` makes an empty database it owns.
 */
async function ownerLogin() {
  const owner = `brandcard_test_owner_${randomBytes(4).toString('hex')}`
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
  const databases: string[] = []
  cleanups.push(async () => {
    for (const name of databases)
      await admin.unsafe(`drop database if exists "${name}" with (force)`)
    await admin.unsafe(`drop role if exists "${owner}"`)
    await admin.end()
  })
  await admin.unsafe(`create role "${owner}" login createrole`)
  const asOwner = async () => {
    const name = `${owner}_${databases.length}`
    databases.push(name)
    await admin.unsafe(`create database "${name}" owner "${owner}"`)
    const url = new URL(databaseUrl(serverUrl, name))
    url.username = owner
    url.password = ''
    return url.toString()
  }
  return { owner, asOwner }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A new database with nothing in it: an in-memory PGlite, or a database on the test server. */
async function emptyDatabase(
  driver: 'pglite' | 'postgres' = onPostgres ? 'postgres' : 'pglite',
): Promise<DatabaseLocation> {
  if (driver === 'postgres') return { driver, url: await emptyDatabaseUrl() }
  const client = emptyPglite()
  cleanups.push(() => client.close())
  return { driver: 'pglite', client }
}

async function emptyDatabaseUrl() {
  const name = `brandcard_restore_${randomBytes(6).toString('hex')}`
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database "${name}"`)
  cleanups.push(async () => {
    await admin.unsafe(`drop database if exists "${name}" with (force)`)
    await admin.end()
  })
  return databaseUrl(serverUrl, name)
}

describe('the daily backup', () => {
  test('goes to DATA_DIR/backups and keeps BACKUP_RETENTION dumps', async () => {
    const saved = { ...process.env }
    const dataDir = path.join(workDir, 'data')
    Object.assign(process.env, { DATA_DIR: dataDir, BACKUP_RETENTION: '2' })
    if (source.driver === 'postgres') process.env.DATABASE_URL = source.url
    resetEnvForTests()
    try {
      const taken = []
      for (let i = 0; i < 3; i++) taken.push(await takeDailyBackup())
      expect(taken[2]?.deleted).toEqual([taken[0]?.file])
      expect((await readdir(path.join(dataDir, 'backups'))).sort()).toEqual(
        taken.slice(1).map((t) => path.basename(t.file)),
      )
    } finally {
      process.env = saved
      resetEnvForTests()
    }
  })

  test('is a job on the queue: enqueued once a day however often asked, run by the worker', async () => {
    const saved = { ...process.env }
    const dataDir = path.join(workDir, 'queued-data')
    Object.assign(process.env, { DATA_DIR: dataDir, BACKUP_RETENTION: '3' })
    if (source.driver === 'postgres') process.env.DATABASE_URL = source.url
    resetEnvForTests()
    try {
      // Asked at 02:00: the run at 03:00 the same day, long past, is due now.
      const day = new Date('2026-11-24T02:00:00Z')
      await enqueueDailyJobs(day)
      await enqueueDailyJobs(day)
      await runJobsNow()
      expect(await readdir(path.join(dataDir, 'backups'))).toHaveLength(1)
      const [job] = await getDb()
        .select()
        .from(jobs)
        .where(eq(jobs.idempotencyKey, 'backup.daily:2026-11-24'))
      expect(job?.state).toBe('done')
    } finally {
      process.env = saved
      resetEnvForTests()
    }
  })

  test.runIf(!onPostgres)(
    'on PGlite shares the one session with requests: a transaction is dumped whole or not at all',
    async () => {
      // A request's transaction that inserts, waits, and inserts again.
      const request = async (slug: string) => {
        await getDb().transaction(async (tx) => {
          await createOrganization(tx, { slug: `${slug}-1`, name: slug, kind: 'agency' })
          await new Promise((resolve) => setTimeout(resolve, 300))
          await createOrganization(tx, { slug: `${slug}-2`, name: slug, kind: 'agency' })
        })
      }
      const backup = () =>
        takeBackup({ dir: path.join(workDir, 'busy'), retention: 5, database: source })
      // The request first, then the backup; and the backup first, the request 20 ms later (while
      // pg_dump loads). Without PGlite's transaction lock, pg_dump would run inside the open
      // transaction: it would see the first row only, and its COMMIT would end the transaction.
      const [, first] = await Promise.all([request('busy-a'), delay(20).then(backup)])
      const [second] = await Promise.all([backup(), delay(20).then(() => request('busy-b'))])
      for (const [taken, slug] of [
        [first, 'busy-a'],
        [second, 'busy-b'],
      ] as const) {
        const text = await readFile(taken.file, 'utf8')
        expect(text.includes(`'${slug}-1'`), slug).toBe(text.includes(`'${slug}-2'`))
        const rows = await rowsOf(source, `select 1 from organizations where name = '${slug}'`)
        expect(rows, slug).toHaveLength(2)
      }
    },
  )
})
