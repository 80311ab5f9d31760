// `npm run bench`: requests per second and latency of the built production server on
// loopback (50 connections, bounded duration). Build first: `npm run build`.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'

const PORT = Number(process.env.BENCH_PORT ?? 3290)
const DURATION = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = 50
const base = `http://127.0.0.1:${PORT}`

type Target = { name: string; path: string; host: string }

async function waitForHealthy(child: ChildProcess) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`)
    try {
      if ((await fetch(`${base}/api/health-check`)).ok) return
    } catch {}
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('server did not become healthy')
}

// fetch() may not set Host, so the page is read with node:http.
function getHtml(host: string, pathname = '/') {
  return new Promise<string>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: PORT, path: pathname, headers: { host } }, (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => {
          body += chunk
        })
        res.on('end', () => resolve(body))
      })
      .on('error', reject)
  })
}

async function logoPath(host: string) {
  const html = await getHtml(host)
  const match = /src="(\/media\/[0-9a-f]{64}\.png)"/.exec(html)
  if (!match?.[1]) throw new Error(`no logo on ${host}`)
  return match[1]
}

async function measure(target: Target) {
  const result = await autocannon({
    url: `${base}${target.path}`,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { host: target.host },
  })
  return {
    target: target.name,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'non-2xx': result.non2xx,
    errors: result.errors + result.timeouts,
  }
}

if (!existsSync('build/server.js')) {
  console.error('Run `npm run build` first.')
  process.exit(1)
}
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'brandcard-bench-'))
const server = spawn(process.execPath, ['build/server.js'], {
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
try {
  await waitForHealthy(server)
  const cardHtml = await getHtml('acme.localhost', '/card/alice-anderson')
  const cardId = /\/card\/([0-9a-f-]{36})\/vcard/.exec(cardHtml)?.[1]
  if (!cardId) throw new Error('demo card not found')
  const targets: Target[] = [
    { name: 'public card page (by id)', path: `/card/${cardId}`, host: 'acme.localhost' },
    { name: 'public card page (by name)', path: '/card/alice-anderson', host: 'acme.localhost' },
    { name: 'card QR code (PNG)', path: `/card/${cardId}/qr.png`, host: 'acme.localhost' },
    { name: 'home page (agency subdomain)', path: '/', host: 'acme.localhost' },
    { name: 'home page (custom domain)', path: '/', host: 'cards.acme.test' },
    { name: 'tenant logo (media)', path: await logoPath('acme.localhost'), host: 'acme.localhost' },
    { name: 'health check', path: '/api/health-check', host: 'localhost' },
  ]
  const rows = []
  for (const target of targets) rows.push(await measure(target))
  console.log(
    `\n${CONNECTIONS} connections, ${DURATION} s each, embedded database, ${os.cpus().length} cores`,
  )
  console.table(rows)
} finally {
  server.kill('SIGTERM')
  await new Promise((r) => server.on('exit', r))
  rmSync(dataDir, { recursive: true, force: true })
}
