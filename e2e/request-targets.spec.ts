// Issue 39 point 3, against a production server of this file's own (its log is read, and it runs
// in maintenance mode, which the shared servers cannot): requests written byte for byte on raw
// sockets, since HTTP clients normalise a path before sending it (`%2e%2e` and `..` resolved).
// - The guards decide on the path Remix routes: a POST below the wallet prefix that leaves it
//   through encoded dot segments is not exempt from the Origin check, and maintenance does not
//   serve a page through the `/media/` exemption.
// - An absolute-form target (`GET http://host/path`) is a 400, not Express's 500 with a stack.
// - Every answer to a signed-in request is `no-store`, resource routes included.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { SERVER_ARGS, TEST_V8_FLAGS } from '../scripts/server-command'
import { freePort } from './postgres-cluster'

const ADMIN = { email: 'root@targets.test', password: 'targets-pass-1' }
const AGENCY = 'acme'

type Reply = {
  status: number
  headers: Record<string, string>
  cookies: string[]
  body: string
}

let port = 0
let server: ChildProcess
let output = ''
let dataDir = ''

/** One request exactly as written (Connection: close), over its own socket. */
function raw(head: string, body = '') {
  return new Promise<Reply>((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port })
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const [top = '', ...rest] = text.split('\r\n\r\n')
      const [statusLine = '', ...lines] = top.split('\r\n')
      const headers: Record<string, string> = {}
      const cookies: string[] = []
      for (const line of lines) {
        const at = line.indexOf(':')
        const name = line.slice(0, at).trim().toLowerCase()
        const value = line.slice(at + 1).trim()
        headers[name] = value
        if (name === 'set-cookie') cookies.push(value.split(';')[0] ?? '')
      }
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        cookies,
        body: rest.join('\r\n\r\n'),
      })
    })
    socket.write(`${head}\r\nConnection: close\r\n\r\n${body}`)
  })
}

const hostOf = (name: string) => `${name}:${port}`

async function signInAdmin() {
  const form = new URLSearchParams(ADMIN).toString()
  const reply = await raw(
    [
      'POST /auth/login HTTP/1.1',
      `Host: ${hostOf('localhost')}`,
      `Origin: http://${hostOf('localhost')}`,
      'Content-Type: application/x-www-form-urlencoded',
      `Content-Length: ${Buffer.byteLength(form)}`,
    ].join('\r\n'),
    form,
  )
  expect(reply.status, output).toBe(302)
  const cookie = reply.cookies.find((value) => /session=[a-z2-7]{32}$/.test(value))
  expect(cookie, reply.cookies.join('; ')).toBeDefined()
  return cookie ?? ''
}

// In order, on one server; a failure restarts the worker (and the server) for the rest.
test.describe.configure({ mode: 'default' })

test.beforeAll(async () => {
  test.setTimeout(300_000)
  dataDir = path.resolve(`tests/.tmp/request-targets-${process.pid}`)
  rmSync(dataDir, { recursive: true, force: true })
  mkdirSync(dataDir, { recursive: true })
  // The database the server starts on: a platform with its super admin, one agency, and
  // maintenance mode on. Its module is loaded here, not with the spec: the app's server modules
  // it needs are a second or two of every Playwright process that loads the spec (the runner,
  // to list the tests, included).
  const { prepareTargetsDatabase } = await import('./request-targets-database')
  await prepareTargetsDatabase(path.join(dataDir, 'pglite'), { admin: ADMIN, agency: AGENCY })

  port = await freePort()
  const env = { ...process.env }
  for (const name of ['DATABASE_URL', 'DATABASE_APP_URL', 'APP_SECRET', 'SEED_DEMO']) {
    delete env[name]
  }
  server = spawn(process.execPath, [...TEST_V8_FLAGS, ...SERVER_ARGS], {
    env: {
      ...env,
      NODE_ENV: 'production',
      PORT: String(port),
      ROOT_DOMAIN: 'localhost',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      SEED_DEMO: '0',
      DOMAIN_RECHECK_SECONDS: '0',
      BACKUP_RETENTION: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  server.stdout?.on('data', (chunk) => {
    output += chunk
  })
  server.stderr?.on('data', (chunk) => {
    output += chunk
  })
  const deadline = Date.now() + 270_000
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited:\n${output}`)
    if (Date.now() > deadline) throw new Error(`server not healthy:\n${output}`)
    const healthy = await raw(`GET /api/health-check HTTP/1.1\r\nHost: ${hostOf('localhost')}`)
      .then((reply) => reply.status === 200)
      .catch(() => false)
    if (healthy) break
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
})

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve))
    server.kill('SIGTERM')
    await exited
  }
  rmSync(dataDir, { recursive: true, force: true })
})

test('maintenance: encoded dot segments after /media/ do not reach a page', async () => {
  const host = hostOf(`${AGENCY}.localhost`)
  // Maintenance is on: a page answers 503.
  expect((await raw(`GET /auth/register HTTP/1.1\r\nHost: ${host}`)).status, output).toBe(503)
  for (const target of [
    '/media/%2e%2e/auth/register',
    '/media/%2E%2e/auth/register',
    '/media/.%2e/auth/register',
    '/media/x/%2e%2e/%2e%2e/auth/register',
  ]) {
    const reply = await raw(`GET ${target} HTTP/1.1\r\nHost: ${host}`)
    expect(reply.status, target).toBe(503)
    expect(reply.body, target).toContain('Down for maintenance')
  }
})

test('a POST below the wallet prefix that leaves it through encoded dot segments needs an Origin', async () => {
  const cookie = await signInAdmin()
  const host = hostOf('localhost')
  const signedIn = async () =>
    (await raw(`GET /account/data-export HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}`)).status
  expect(await signedIn()).toBe(200)
  // No Origin, as a forged request from a page that hides it, or a script, would send it.
  const forged = await raw(
    [
      'POST /wallet/apple/v1/%2e%2e/%2e%2e/%2e%2e/auth/logout HTTP/1.1',
      `Host: ${host}`,
      `Cookie: ${cookie}`,
      'Content-Type: application/x-www-form-urlencoded',
      'Content-Length: 0',
    ].join('\r\n'),
  )
  expect(forged.status).toBe(403)
  // Still signed in.
  expect(await signedIn()).toBe(200)
})

test('an absolute-form request target is a 400, and no stack reaches the log', async () => {
  const before = output.length
  for (const target of [
    `http://${hostOf('localhost')}/auth/login`,
    `http://${hostOf(`${AGENCY}.localhost`)}/api/health-check`,
  ]) {
    const reply = await raw(`GET ${target} HTTP/1.1\r\nHost: ${hostOf('localhost')}`)
    expect(reply.status, target).toBe(400)
  }
  // The server answers the next request: the log so far is all there is of those two.
  expect((await raw(`GET /api/health-check HTTP/1.1\r\nHost: ${hostOf('localhost')}`)).status).toBe(
    200,
  )
  const logged = output.slice(before)
  expect(logged).not.toMatch(/\n\s+at /)
  expect(logged).not.toContain('"statusCode":500')
  expect(logged).not.toContain('Invalid URL')
})

test('every answer to a signed-in request is no-store, resource routes included', async () => {
  const cookie = await signInAdmin()
  const host = hostOf('localhost')
  // /account/data-export is a resource route (JSON): entry.server never sees it.
  for (const target of ['/account/data-export', '/dashboard/super-admin', '/profile']) {
    const reply = await raw(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}`)
    expect(reply.status, target).toBeLessThan(400)
    expect(reply.headers['cache-control'], target).toContain('no-store')
  }
})
