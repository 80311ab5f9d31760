// The page cache (ADR 021) through the real server: a visitor without cookies is answered from
// memory, an edit shows on the very next request, and the cached page keeps a strict policy
// (its scripts' hashes instead of a nonce) under which it still hydrates.
import { createHash } from 'node:crypto'
import http from 'node:http'
import { expect, test } from '@playwright/test'
import { e2ePort, HOSTS, urlFor } from './fixtures'
import { registerAndSignIn, waitForHydration } from './page-helpers'

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string }

/** A visitor with no cookies, over plain HTTP (Node does not resolve alpha.localhost itself). */
function visit(path: string, headers: Record<string, string> = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.get(
      {
        host: '127.0.0.1',
        port: e2ePort(),
        path,
        headers: { host: `${HOSTS.alpha}:${e2ePort()}`, ...headers },
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => {
          body += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      },
    )
    req.on('error', reject)
  })
}

/**
 * Visits until the cache answers: other specs editing cards of the same tenant empty its entries
 * (a tenant's edit drops all of its pages), so one answer in between may be rendered afresh.
 */
async function visitCached(path: string) {
  let answer: Answer | undefined
  await expect
    .poll(async () => {
      answer = await visit(path)
      return answer.headers['x-cache']
    })
    .toBe('HIT')
  return answer as Answer
}

/** The path of the og:image a card page names (an absolute URL on the tenant's origin). */
function previewPath(html: string) {
  const url = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1] ?? ''
  return url ? new URL(url).pathname : ''
}

test('a card edit shows on the next public request; the cached page hydrates under its hashes', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000)
  await registerAndSignIn(page)
  await page.goto(urlFor(HOSTS.alpha, '/dashboard/end-user/digital-cards'))
  await page.getByRole('button', { name: 'Create Card' }).first().click()
  await page.getByRole('button', { name: 'Create', exact: true }).click()
  await expect(page).toHaveURL(/\/qrcode\/[0-9a-f-]{36}$/)
  const cardId = page.url().split('/').at(-1) ?? ''
  const cardPath = `/card/${cardId}`

  // A visitor with no cookies: the first answer is rendered and kept, the next comes from memory.
  const first = await visit(cardPath)
  expect(first.status).toBe(200)
  const second = await visitCached(cardPath)
  expect(second.body).toBe(first.body.replace(/ nonce="[^"]*"/g, ''))
  for (const internal of ['x-page-cache', 'x-page-cache-view', 'x-page-cache-ttl']) {
    expect(first.headers[internal]).toBeUndefined()
    expect(second.headers[internal]).toBeUndefined()
  }

  // The stored policy lists exactly the hashes of the page's inline scripts, and no nonce.
  const csp = String(second.headers['content-security-policy'] ?? '')
  expect(csp).not.toContain("'nonce-")
  const inline = [...second.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes]) => !/\bsrc=/.test(attributes ?? ''))
    .map(
      ([, , content]) =>
        `'sha256-${createHash('sha256')
          .update(content ?? '')
          .digest('base64')}'`,
    )
  expect(inline.length).toBeGreaterThan(0)
  const listed = /script-src ([^;]*)/.exec(csp)?.[1]?.split(' ') ?? []
  expect(listed[0]).toBe("'strict-dynamic'")
  expect(new Set(listed.slice(1))).toEqual(new Set(inline))
  // Revalidation is cheap: the same version answers 304.
  const revalidated = await visit(cardPath, { 'If-None-Match': String(second.headers.etag) })
  expect(revalidated.status).toBe(304)

  // In a browser without cookies, the cached page runs its scripts with no violation.
  const context = await browser.newContext()
  const anonymous = await context.newPage()
  const problems: string[] = []
  anonymous.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
  })
  anonymous.on('pageerror', (error) => problems.push(error.message))
  await expect
    .poll(async () => (await anonymous.goto(urlFor(HOSTS.alpha, cardPath)))?.headers()['x-cache'])
    .toBe('HIT')
  await waitForHydration(anonymous)
  await expect(anonymous.getByTestId('card-display')).toContainText('Casey Cardmaker')
  expect(problems).toEqual([])

  // The owner edits the card; the next visitor request shows it.
  const jobTitle = `Cache Tester ${Date.now()}`
  await page.getByRole('link', { name: 'Edit' }).click()
  await expect(page.getByRole('link', { name: 'Card Details' })).toBeVisible()
  await page.getByLabel('Job title').fill(jobTitle)
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Card updated successfully')).toBeVisible()
  const afterEdit = await visit(cardPath)
  expect(afterEdit.headers['x-cache']).toBeUndefined()
  expect(afterEdit.body).toContain(jobTitle)
  // The link preview shows the title, so its address changed with it (ADR 024); the new image
  // is rendered once, then answered from memory; the old address leads to the new one.
  const previewBefore = previewPath(second.body)
  const previewAfter = previewPath(afterEdit.body)
  expect(previewAfter).toMatch(new RegExp(`^/card/${cardId}/og/[0-9a-f]{20}\\.png$`))
  expect(previewAfter).not.toBe(previewBefore)
  const image = await visit(previewAfter)
  expect([image.status, image.headers['content-type']]).toEqual([200, 'image/png'])
  expect(image.headers['cache-control']).toBe('public, max-age=300, must-revalidate')
  await visitCached(previewAfter)
  const stale = await visit(previewBefore)
  expect([stale.status, stale.headers.location]).toEqual([302, previewAfter])
  const cachedAgain = await visitCached(cardPath)
  expect(cachedAgain.body).toContain(jobTitle)
  await anonymous.reload()
  await expect(anonymous.getByTestId('card-display')).toContainText(jobTitle)

  // Someone signed in (a cookie) is never answered from the cache.
  const owner = await page.evaluate(async (path) => {
    const response = await fetch(path, { credentials: 'same-origin' })
    return {
      cache: response.headers.get('x-cache'),
      control: response.headers.get('cache-control'),
    }
  }, cardPath)
  expect(owner).toEqual({ cache: null, control: 'private, no-store' })
  await context.close()
})

test('a signed-in page is kept for its session: a reload comes from memory and hydrates, a new card shows at once, and a signed-out cookie meets no stored page', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  await registerAndSignIn(page)
  const cardsPath = '/dashboard/end-user/digital-cards'
  await page.goto(urlFor(HOSTS.alpha, cardsPath))
  // ADR 109: the same session asking again for the same page is answered from memory.
  await expect.poll(async () => (await page.reload())?.headers()['x-cache']).toBe('HIT')
  await waitForHydration(page)
  await expect(page.getByRole('heading', { name: 'Digital Cards', level: 1 })).toBeVisible()
  const cookie = (await page.context().cookies()).find((c) => c.name.endsWith('session'))
  const sessionCookie = `${cookie?.name}=${cookie?.value}`
  // Asked the same way twice (the key holds the other cookies and languages a browser sends).
  let stored = await visit(cardsPath, { cookie: sessionCookie })
  await expect
    .poll(async () => {
      stored = await visit(cardsPath, { cookie: sessionCookie })
      return stored.headers['x-cache']
    })
    .toBe('HIT')
  expect([stored.status, stored.headers['x-cache'], stored.headers['cache-control']]).toEqual([
    200,
    'HIT',
    'private, no-store',
  ])
  expect(stored.headers['set-cookie']).toBeUndefined()
  expect(String(stored.headers['content-security-policy'])).not.toContain("'nonce-")

  // A card created through the app shows on the next request: the write retired the page.
  await page.getByRole('button', { name: 'Create Card' }).first().click()
  await page.getByRole('button', { name: 'Create', exact: true }).click()
  await expect(page).toHaveURL(/\/qrcode\/[0-9a-f-]{36}$/)
  const cardId = page.url().split('/').at(-1) ?? ''
  const fresh = await page.goto(urlFor(HOSTS.alpha, cardsPath))
  expect(fresh?.headers()['x-cache']).toBeUndefined()
  await expect(page.locator(`a[href*="${cardId}"]`).first()).toBeVisible()

  // Signed out, the same cookie is a stranger's: the sign-in page, never the stored list.
  await page.getByTestId('user-menu-trigger').click()
  await page.getByRole('menuitem', { name: 'Log out' }).click()
  await expect(page).toHaveURL(/\/auth\/login$/)
  const afterSignOut = await visit(cardsPath, { cookie: sessionCookie })
  expect(afterSignOut.headers['x-cache']).toBeUndefined()
  expect([afterSignOut.status, afterSignOut.headers.location]).toEqual([
    302,
    `/auth/login?redirectTo=${encodeURIComponent(cardsPath)}`,
  ])
  expect(problems).toEqual([])
})
