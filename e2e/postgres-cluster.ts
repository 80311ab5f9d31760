// A throwaway PostgreSQL server for the fault tests: its own data directory and port, so the
// test can stop and start it without touching the machine's shared server.
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

function findBinDir(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined
}

export const postgresBinDir = findBinDir()

/** A port nothing listens on now, so a leftover server from a killed run cannot collide. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()))
    })
  })
}

export class PostgresCluster {
  readonly dir: string
  readonly port: number
  private readonly bin: string

  constructor(port: number) {
    if (!postgresBinDir) throw new Error('PostgreSQL server binaries not found (set PG_BIN)')
    this.bin = postgresBinDir
    this.port = port
    this.dir = mkdtempSync(path.join(os.tmpdir(), 'brandcard-pg-'))
  }

  get url() {
    return `postgres://postgres@127.0.0.1:${this.port}/brandcard`
  }

  // initdb refuses to run as root: the server runs as the postgres system user then.
  private run(program: string, args: string[]) {
    const binary = path.join(this.bin, program)
    const asRoot = process.getuid?.() === 0
    const [command, commandArgs] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', binary, ...args]]
      : [binary, args]
    return execFileSync(command, commandArgs, { stdio: 'pipe', timeout: 60_000 }).toString()
  }

  init() {
    if (process.getuid?.() === 0) {
      execFileSync('chown', ['postgres:postgres', this.dir])
      chmodSync(this.dir, 0o700)
    }
    const data = path.join(this.dir, 'data')
    this.run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'])
    this.start()
    this.run('createdb', [
      '-h',
      '127.0.0.1',
      '-p',
      String(this.port),
      '-U',
      'postgres',
      'brandcard',
    ])
  }

  start() {
    const options = [
      `-p ${this.port}`,
      `-k ${this.dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c full_page_writes=off',
    ].join(' ')
    const log = path.join(this.dir, 'server.log')
    this.run('pg_ctl', ['-D', path.join(this.dir, 'data'), '-o', options, '-l', log, '-w', 'start'])
  }

  stop() {
    this.run('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', 'fast', '-w', 'stop'])
  }

  destroy() {
    try {
      this.stop()
    } catch {}
    rmSync(this.dir, { recursive: true, force: true })
  }
}
