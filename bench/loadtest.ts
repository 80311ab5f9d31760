// `npm run loadtest`: a bounded mixed load on loopback against the built server: public card
// views, sign-ins and card edits across 3 tenants. Fails on any 5xx or any response that shows
// another tenant's name. Prints the p99. Build first: `npm run build`.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { SERVER_ARGS } from '../scripts/server-command'

const PORT = Number(process.env.LOADTEST_PORT ?? 3291)
const SECONDS = Number(process.env.LOADTEST_SECONDS ?? 60)

const TENANTS = [
  { host: 'acme.localhost', name: 'Acme Cards', email: 'alice@acme.test', card: 'alice-anderson' },
  {
    host: 'globex.localhost',
    name: 'Globex Networking',
    email: 'bob@globex.test',
    card: 'bob-brown',
  },
  { host: 'localhost', name: 'Brandcard', email: 'pat@example.test', card: 'pat-platform' },
]

function request(host: string, method: string, pathname: string, body?: string, cookie?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const headers: Record<string, string> = {
        host: `${host}:${PORT}`,
        origin: `http://${host}:${PORT}`,
      }
      if (body) headers['content-type'] = 'application/x-www-form-urlencoded'
      if (cookie) headers.cookie = cookie
      const req = http.request(
        { host: '127.0.0.1', port: PORT, method, path: pathname, headers },
        (res) => {
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (c) => {
            text += c
          })
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
          )
        },
      )
      req.on('error', reject)
      req.end(body)
    },
  )
}

async function waitForHealthy(child: ChildProcess) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`)
    try {
      if ((await request('localhost', 'GET', '/api/health-check')).status === 200) return
    } catch {}
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('server did not become healthy')
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'brandcard-load-'))
const server = spawn(process.execPath, SERVER_ARGS, {
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(PORT),
    DATA_DIR: dataDir,
    SEED_DEMO: '1',
    LOG_LEVEL: 'warn',
  },
  stdio: 'inherit',
})
let failed = false
try {
  await waitForHealthy(server)
  const requests: autocannon.Request[] = []
  let fiveXx = 0
  let crossTenant = 0
  let bodiesChecked = 0
  for (const tenant of TENANTS) {
    const others = TENANTS.filter((t) => t !== tenant).map((t) => t.name)
    const signIn = `email=${encodeURIComponent(tenant.email)}&password=demo1234`
    const login = await request(tenant.host, 'POST', '/auth/login', signIn)
    const cookie = (login.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ')
    const cards = await request(
      tenant.host,
      'GET',
      '/dashboard/end-user/digital-cards',
      undefined,
      cookie,
    )
    const cardId = /\/qrcode\/([0-9a-f-]{36})/.exec(cards.body)?.[1]
    if (!cardId) throw new Error(`no card for ${tenant.email}`)
    const check = (status: number, body: string) => {
      if (status >= 500) fiveXx++
      if (body) bodiesChecked++
      if (others.some((name) => body.includes(name))) crossTenant++
    }
    const headers = { host: `${tenant.host}:${PORT}`, origin: `http://${tenant.host}:${PORT}` }
    requests.push(
      { method: 'GET', path: `/card/${tenant.card}`, headers, onResponse: check },
      { method: 'GET', path: `/card/${cardId}`, headers, onResponse: check },
      {
        method: 'POST',
        path: '/auth/login',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: signIn,
        onResponse: check,
      },
      {
        method: 'POST',
        path: `/dashboard/end-user/digital-cards/edit/${cardId}`,
        headers: { ...headers, cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: `intent=details&title=Loaded&firstName=Load&lastName=Test&website=example.com`,
        onResponse: check,
      },
    )
  }
  const result = await autocannon({
    url: `http://127.0.0.1:${PORT}`,
    connections: 30,
    duration: SECONDS,
    requests,
  })
  console.log(`\n${SECONDS} s, 30 connections, ${result.requests.total} requests over 3 tenants`)
  console.log(
    `req/s ${Math.round(result.requests.average)}  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms`,
  )
  console.log(
    `5xx ${fiveXx}  cross-tenant responses ${crossTenant} (of ${bodiesChecked} bodies)  errors ${result.errors}  timeouts ${result.timeouts}`,
  )
  // The tenant check means nothing if no bodies reached it.
  failed = fiveXx > 0 || crossTenant > 0 || result.errors > 0 || bodiesChecked === 0
} finally {
  server.kill('SIGTERM')
  await new Promise((r) => server.on('exit', r))
  rmSync(dataDir, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)
