// PgBouncer (Debian's package) in transaction mode in front of a Postgres server: what the
// cluster drill runs its processes through, and `npm run serve:cluster` with CLUSTER_PGBOUNCER=1.
// A stand-in for the pooler of a deployment (or of a managed Postgres): trust authentication on
// loopback, for a local server that trusts loopback too; deploy/pgbouncer.ini is the template of
// a real one (ADR 096).
import { type ChildProcess, spawn } from 'node:child_process'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { keepOutput, waitUntilListening } from './child-output'

export const PGBOUNCER = process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer'

export type PgBouncerProcess = {
  port: number
  /** `serverUrl`'s database through the pooler, with no login in it (the app adds its own). */
  urlFor(serverUrl: string): string
  output(): string
  stop(): Promise<void>
}

export async function startPgBouncer(options: {
  port: number
  /** The Postgres server: host and port of TEST_DATABASE_URL or DATABASE_URL. */
  serverUrl: string
  dir: string
  /** Server connections per database and login: the point of a pooler is that this is small. */
  poolSize?: number
  /** The logins it lets through (trust: the server itself checks nothing on loopback either). */
  users: string[]
}): Promise<PgBouncerProcess> {
  const server = new URL(options.serverUrl)
  mkdirSync(options.dir, { recursive: true })
  // PgBouncer refuses to run as root: then it switches to the postgres system user (`user =`),
  // which must be able to read its files.
  chmodSync(options.dir, 0o755)
  const asRoot = process.getuid?.() === 0
  const userlist = path.join(options.dir, 'userlist.txt')
  writeFileSync(userlist, options.users.map((user) => `"${user}" ""\n`).join(''), { mode: 0o644 })
  const ini = path.join(options.dir, 'pgbouncer.ini')
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${options.port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${userlist}`,
      // Each transaction gets whichever server connection is free: the mode that multiplies
      // what a Postgres server's connections can carry, and the one the app must be ready for.
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize ?? 8}`,
      'max_client_conn = 500',
      // postgres.js names itself in the start-up packet; nothing else of it needs passing on.
      'ignore_startup_parameters = extra_float_digits,options',
      'server_reset_query =',
      ...(asRoot ? ['user = postgres'] : []),
      '',
    ].join('\n'),
    { mode: 0o644 },
  )
  const child: ChildProcess = spawn(PGBOUNCER, [ini], { stdio: ['ignore', 'pipe', 'pipe'] })
  const output = keepOutput(child)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  await waitUntilListening('PgBouncer', child, options.port, output)
  return {
    port: options.port,
    urlFor(serverUrl) {
      const url = new URL(serverUrl)
      url.hostname = '127.0.0.1'
      url.port = String(options.port)
      url.username = ''
      url.password = ''
      return url.toString()
    },
    output,
    async stop() {
      // SIGINT: PgBouncer's "safe shutdown" waits for every client; SIGTERM closes at once.
      if (child.exitCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}
