// The public card page's download weight on the built app (issue 16, point 2; ADR 022): every
// <script src>, modulepreload and stylesheet of the page, each gzipped at the default level, the
// way `npm run bench` sums them (bench/budgets.ts), held to the budgets. A signed-out visitor's
// card page is not hydrated: its one script is app/components/cards/card-visitor.js (ADR 022).
// And how the built scripts travel (ADR 117): in the brotli form the build wrote, cached for a
// year, and not sent again to a browser that holds them.
import { brotliDecompressSync } from 'node:zlib'
import { expect, test } from '@playwright/test'
import {
  assetLinks,
  CSS_BUDGET_BYTES,
  gzipWeight,
  inlineStyles,
  JS_BUDGET_BYTES,
} from '../bench/budgets'
import { request } from '../bench/http'
import { e2ePort, HOSTS, urlFor } from './fixtures'
import { sessionOf } from './page-helpers'
import { ALPHA_ROLE_USERS } from './role-users'

test('a signed-out visitor of a card downloads at most the card page budgets', async ({ page }) => {
  const response = await page.goto(urlFor(HOSTS.alpha, '/card/olivia-owner'))
  expect(response?.status()).toBe(200)
  const html = (await response?.text()) ?? ''
  const assets = []
  for (const { kind, href } of assetLinks(html)) {
    const bytes = await page.evaluate(async (src) => {
      const answer = await fetch(src)
      if (!answer.ok) throw new Error(`${src} answered ${answer.status}`)
      return Array.from(new Uint8Array(await answer.arrayBuffer()))
    }, href)
    assets.push({ kind, body: Uint8Array.from(bytes) })
  }
  // The stylesheet comes inline, so the name paints without waiting for a file (ADR 022).
  expect(assetLinks(html).filter((asset) => asset.kind === 'css')).toEqual([])
  expect(html).toMatch(/<style>\/\*! tailwindcss/)
  for (const body of inlineStyles(html)) assets.push({ kind: 'css' as const, body })
  const weight = gzipWeight(assets)
  test.info().annotations.push({
    type: 'card page weight',
    description: `JS ${weight.js.files} files ${weight.js.gzipBytes} B (budget ${JS_BUDGET_BYTES}), CSS ${weight.css.files} files ${weight.css.gzipBytes} B (budget ${CSS_BUDGET_BYTES})`,
  })
  expect(weight.css.files).toBeGreaterThan(0)
  expect(weight.css.gzipBytes).toBeLessThanOrEqual(CSS_BUDGET_BYTES)
  expect(weight.js.files).toBeGreaterThan(0)
  expect(weight.js.gzipBytes).toBeLessThanOrEqual(JS_BUDGET_BYTES)
})

/** A raw GET (bench/http.ts): Playwright's and the browser's requests add encodings and decode. */
const rawGet = (host: string, path: string, headers: Record<string, string> = {}) =>
  request(e2ePort(), { host: `${host}:${e2ePort()}`, path, headers })

test('the built scripts come in the brotli form the build wrote, immutable, and 304 once held', async () => {
  const login = await rawGet(HOSTS.alpha, '/auth/login')
  expect(login.status).toBe(200)
  const scripts = assetLinks(login.body.toString())
    .filter(({ kind, href }) => kind === 'js' && href.startsWith('/assets/'))
    .map(({ href }) => href)
  expect(scripts.length).toBeGreaterThan(2)
  let compressed = 0
  for (const script of scripts) {
    const plain = await rawGet(HOSTS.alpha, script)
    expect(plain.status, script).toBe(200)
    expect(plain.headers['content-type'], script).toMatch(/javascript/)
    expect(plain.headers['cache-control'], script).toBe('public, max-age=31536000, immutable')
    const etag = plain.headers.etag ?? ''
    expect(etag, script).toMatch(/^W\/"/)

    const br = await rawGet(HOSTS.alpha, script, { 'accept-encoding': 'gzip, deflate, br' })
    if (br.headers['content-encoding'] === 'br') {
      compressed++
      expect(brotliDecompressSync(br.body).equals(plain.body), script).toBe(true)
      expect(br.headers.vary, script).toBe('Accept-Encoding')
    } else {
      // Only a file too small to be worth compressing comes whole.
      expect(plain.body.length, script).toBeLessThan(1024)
    }

    const held = await rawGet(HOSTS.alpha, script, { 'if-none-match': etag })
    expect(held.status, script).toBe(304)
    expect(held.body.length, script).toBe(0)
  }
  expect(compressed).toBeGreaterThan(0)
  // The compressed forms are the server's to choose, never files of their own.
  expect((await rawGet(HOSTS.alpha, `${scripts[0]}.br`)).status).toBe(404)
})

/**
 * The scripts a signed-in dashboard names in its document (modulepreload and script tags): what
 * every page runs first is one chunk (ADR 125), and chunks under 20 KB are merged where that keeps
 * every module's order (ADR 119). 76 without either, 59 with the merge, 16 with both: each is a
 * request in every new browser, a few milliseconds of its CPU.
 */
const DASHBOARD_SCRIPTS_AT_MOST = 18

test(`a signed-in dashboard names at most ${DASHBOARD_SCRIPTS_AT_MOST} scripts`, async ({
  browser,
}) => {
  const user = ALPHA_ROLE_USERS.find((candidate) => candidate.role === 'end_user')
  if (!user) throw new Error('no Alpha end user')
  const context = await browser.newContext({ storageState: sessionOf(user) })
  // Loaded by the browser: Node's resolver does not know the tenants' *.localhost hosts.
  const page = await context.newPage()
  const answer = await page.goto(urlFor(user.host, '/dashboard/end-user'))
  expect(answer?.status()).toBe(200)
  const scripts = assetLinks((await answer?.text()) ?? '').filter(({ kind }) => kind === 'js')
  test.info().annotations.push({ type: 'dashboard scripts', description: String(scripts.length) })
  // The client entry, the shell and the root route at least: the document was read.
  expect(scripts.length).toBeGreaterThan(2)
  expect(scripts.length).toBeLessThanOrEqual(DASHBOARD_SCRIPTS_AT_MOST)
  await context.close()
})
