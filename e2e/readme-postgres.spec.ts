// The deployment guide's "On a real Postgres server" block, where the README sends readers,
// works as written: it is read from docs/deployment.md and run with bash on the server
// TEST_DATABASE_URL names, changing only the database name (a
// throwaway one), the port (PORT in the environment, which the block leaves to the user) and
// APP_SECRET (the tests' one: the brandcard_app login's password derives from it and that role
// is shared by every database on the server, see tests/app-secret.ts). `npm start` is run as
// `npm run serve` once package.json shows it is `<build if stale> && <serve>`: a build would
// rewrite build/ under the e2e servers running from it, and `npm run test:e2e` has just built it
// (that the check builds only a stale build is tests/unit/build-if-stale.test.ts).
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import postgres from 'postgres'
import { TEST_APP_SECRET } from '../tests/app-secret'
import { enterDemoTwoFactorCode } from './page-helpers'
import { freePort } from './postgres-cluster'

const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const serverUrl = process.env.TEST_DATABASE_URL

/** The shell block under the heading, exactly as the deployment guide shows it. */
function postgresBlock() {
  const guide = readFileSync(`${repoRoot}/docs/deployment.md`, 'utf8')
  const block = /^## On a real Postgres server\n+```sh\n([\s\S]*?)\n```$/m.exec(guide)?.[1]
  if (!block) {
    throw new Error('docs/deployment.md has no sh block under "## On a real Postgres server"')
  }
  return block
}

/** Replaces the one match of pattern; the test fails when the guide no longer has it once. */
function replaceOnce(text: string, pattern: RegExp, replacement: string) {
  const matches = text.match(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))
  expect(matches?.length ?? 0, `one match of ${pattern} in the guide's block`).toBe(1)
  return text.replace(pattern, replacement)
}

// What a fresh shell would not have: every variable the app reads (docs/configuration.md).
const appVariables = [
  'PORT',
  'ROOT_DOMAIN',
  'DATA_DIR',
  'DATABASE_URL',
  'DATABASE_APP_URL',
  'APP_SECRET',
  'RESEND_API_KEY',
  'EMAIL_FROM',
  'TRUST_PROXY',
  'SEED_DEMO',
  'OUTBOX_PAGE',
  'LOG_LEVEL',
  'SHUTDOWN_DRAIN_MS',
  'SHUTDOWN_TIMEOUT_MS',
  'DISK_MIN_FREE_MB',
  'PGLITE_FSYNC',
  'TENANT_CACHE_TTL_MS',
  'MEDIA_QUOTA_USER_MB',
  'MEDIA_QUOTA_TENANT_MB',
  'NODE_ENV',
]

test.skip(!serverUrl, 'runs the block on the server TEST_DATABASE_URL names')
test.setTimeout(120_000)

test("the deployment guide's Postgres block starts the server with the demo, as written", async ({
  browser,
}) => {
  const { scripts } = JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')) as {
    scripts: Record<string, string>
  }
  expect(scripts.start).toBe(`node scripts/build-if-stale.ts && ${scripts.serve}`)

  const block = postgresBlock()
  // The block's server must be the tests' one: the database is dropped through it.
  const readmeUrl = /DATABASE_URL=(postgres:\/\/\S+)/.exec(block)?.[1] ?? ''
  expect(new URL(readmeUrl).host).toBe(new URL(serverUrl ?? '').host)

  const database = `brandcard_readme_${randomBytes(4).toString('hex')}`
  const port = await freePort()
  let script = replaceOnce(block, /^(createdb\s.*\s)brandcard$/m, `$1${database}`)
  script = replaceOnce(script, /(DATABASE_URL=postgres:\/\/\S+\/)brandcard(?=\s)/, `$1${database}`)
  script = replaceOnce(script, /^export APP_SECRET=.*$/m, `export APP_SECRET=${TEST_APP_SECRET}`)
  script = replaceOnce(script, /\bnpm start$/m, 'npm run serve')
  script = `export PORT=${port}\n${script}`

  const env = { ...process.env }
  for (const name of appVariables) delete env[name]
  const admin = postgres(serverUrl ?? '', { max: 1, onnotice: () => {} })
  let shell: ChildProcess | undefined
  let output = ''
  try {
    // Its own process group, so SIGTERM reaches npm and the server under bash.
    shell = spawn('bash', ['-eu', '-c', script], {
      cwd: repoRoot,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const closed = new Promise<number | null>((resolve) => shell?.on('close', resolve))
    shell.stdout?.on('data', (chunk: Buffer) => {
      output += chunk
    })
    shell.stderr?.on('data', (chunk: Buffer) => {
      output += chunk
    })

    const health = `http://localhost:${port}/api/health-check`
    const status = () =>
      fetch(health).then(
        (r) => r.status,
        () => 0,
      )
    const deadline = Date.now() + 180_000
    while ((await status()) !== 200) {
      if (shell.exitCode !== null || shell.signalCode !== null) {
        throw new Error(`the block exited before the server answered:\n${output}`)
      }
      if (Date.now() > deadline) throw new Error(`no healthy server after 180 s:\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }

    // A demo agency, with its seeded logo.
    const page = await browser.newPage()
    await page.goto(`http://acme.localhost:${port}/`)
    await expect(page.getByTestId('tenant-name')).toHaveText('Acme Cards')
    const logo = page.getByTestId('tenant-logo')
    // Soft: on failure the sign-in and shutdown below are still checked.
    await expect.soft(logo).toBeVisible()
    if (await logo.isVisible()) {
      expect
        .soft(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0)
    }

    // A demo account (README, Demo accounts) signs in on its tenant's host, with the code of the
    // demo's two-factor key the README prints (an agency admin owes the second step by default).
    await page.goto(`http://acme.localhost:${port}/auth/login`)
    await page.getByLabel('Email').fill('admin@acme.test')
    await page.getByLabel('Password').fill('demo1234')
    await page.getByRole('button', { name: 'Sign In' }).click()
    await enterDemoTwoFactorCode(page)
    await expect(page.getByText('Signed in successfully!')).toBeVisible()
    await expect(page).toHaveURL(`http://acme.localhost:${port}/dashboard/agency`)
    await page.close()

    // SIGTERM: the server finishes, closes the database and exits.
    process.kill(-(shell.pid ?? 0), 'SIGTERM')
    await Promise.race([
      closed,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`no exit 20 s after SIGTERM:\n${output}`)), 20_000),
      ),
    ])
    expect(output).toContain('shutdown complete')
    expect(await status()).toBe(0)
  } finally {
    // Whatever is left of the group (nothing, when the server stopped as it should).
    try {
      if (shell?.pid) process.kill(-shell.pid, 'SIGKILL')
    } catch {}
    await admin.unsafe(`drop database if exists "${database}" with (force)`)
    await admin.end()
  }
})
