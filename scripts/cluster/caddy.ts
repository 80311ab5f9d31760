// Caddy in front of the cluster's processes: deploy/Caddyfile itself, over plain HTTP on one
// port (SITE_ADDRESS=http://), with the global options a run on one machine needs prepended to
// its own (no admin endpoint, state in a directory of the run's own, loopback only).
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { keepOutput, waitUntilListening } from './child-output'

export const CADDY = process.env.CADDY_PATH ?? '/usr/bin/caddy'

export type CaddyProcess = {
  child: ChildProcess
  output(): string
  stop(): Promise<void>
}

export type CaddyOptions = {
  port: number
  upstreams: string[]
  healthInterval: string
  /** Caddy's state and the Caddyfile it runs. */
  dir: string
  /** The loopback port of the TLS ask's listener (unused over HTTP, but it must be free). */
  askPort?: number
  /** Where the site listens: 127.0.0.1 (the drill) or every address (serve:cluster's default). */
  bind?: string
}

/** deploy/Caddyfile with the options of a local run added to its global options block. */
export function localCaddyfile(dir: string, port: number, bind?: string) {
  const deployed = readFileSync(path.resolve(import.meta.dirname, '../../deploy/Caddyfile'), 'utf8')
  const options = [
    '{',
    '\tadmin off',
    ...(bind ? [`\tdefault_bind ${bind}`] : []),
    `\thttp_port ${port}`,
    '\tstorage file_system {',
    `\t\troot ${path.join(dir, 'data')}`,
    '\t}',
  ].join('\n')
  const start = deployed.search(/^\{\s*$/m)
  if (start < 0) throw new Error('deploy/Caddyfile has no global options block')
  return `${deployed.slice(0, start)}${options}${deployed.slice(start + 1)}`
}

export async function startCaddy(options: CaddyOptions): Promise<CaddyProcess> {
  mkdirSync(options.dir, { recursive: true })
  const file = path.join(options.dir, 'Caddyfile')
  writeFileSync(file, localCaddyfile(options.dir, options.port, options.bind))
  const child = spawn(CADDY, ['run', '--config', file, '--adapter', 'caddyfile'], {
    env: {
      ...process.env,
      HOME: options.dir,
      XDG_DATA_HOME: path.join(options.dir, 'xdg-data'),
      XDG_CONFIG_HOME: path.join(options.dir, 'xdg-config'),
      ACME_EMAIL: process.env.ACME_EMAIL || 'ops@localhost',
      SITE_ADDRESS: 'http://',
      APP_UPSTREAMS: options.upstreams.join(' '),
      HEALTH_INTERVAL: options.healthInterval,
      ASK_PORT: String(options.askPort ?? options.port + 999),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output = keepOutput(child)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  await waitUntilListening('Caddy', child, options.port, output)
  return {
    child,
    output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}
