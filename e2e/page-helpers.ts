// Steps most specs share: waiting for hydration, an axe check once animations have settled,
// starting signed in (a session made in the database) or signing in through the form.
import { existsSync, readFileSync } from 'node:fs'
import { type Browser, type BrowserContext, expect, type Page } from '@playwright/test'
import { demoTotpCode } from '#app/demo/demo-totp'
import { axeViolations } from './axe'
import { e2ePort, HOSTS, urlFor } from './fixtures'
import { sessionUser, storageStateFile } from './sessions'

/**
 * How the in-page waits below poll: on a timer, not on animation frames (Playwright's default),
 * which a page that produces no frame never runs; and within a minute, a hang watchdog (ADR 059),
 * not the crawl's half-hour test limit. One crawl on 2026-12-02 sat idle for its whole limit in
 * such a wait, with no request in flight.
 */
export const IN_PAGE_WAIT = { polling: 100, timeout: 60_000 }

/**
 * Resolves once the page's scripts are ready: React hydrated, or on a page served without React
 * (a signed-out visitor's card page, ADR 022) its visitor script has run.
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(
    () =>
      Boolean((window as { __remixRouter?: unknown }).__remixRouter) ||
      document.documentElement.hasAttribute('data-enhanced'),
    undefined,
    IN_PAGE_WAIT,
  )
}

/** Resolves once no finite animation or transition is running (a spinner may go on). */
export async function animationsSettled(page: Page) {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== 'running' ||
            animation.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
        ),
    undefined,
    IN_PAGE_WAIT,
  )
}

/**
 * Runs `action` and waits for a toast saying `text` that was not on screen before it. A toast
 * stays about four seconds (longer on a busy machine), so the same toast from an earlier step of
 * the page could answer for this one, or make its text match twice (a strict-mode failure, seen
 * on a loaded machine when a staff member was added twice within four seconds).
 */
export async function expectNewToast(page: Page, text: string, action: () => Promise<unknown>) {
  await page.locator('[data-sonner-toast]').evaluateAll((toasts) => {
    for (const toast of toasts) toast.setAttribute('data-shown-before', '')
  })
  await action()
  await expect(
    page.locator('[data-sonner-toast]:not([data-shown-before])').filter({ hasText: text }),
  ).toBeVisible()
}

/**
 * axe's WCAG 2.2 A and AA rules, judged after transitions have finished. Toasts are left out:
 * each fades away on its own timer, which can start while axe is still reading the page, and a
 * half-faded text fails colour contrast (seen on a loaded CI machine).
 */
export async function expectAccessible(page: Page, label: string) {
  await page.mouse.move(0, 0)
  await animationsSettled(page)
  const violations = await axeViolations(page, { exclude: ['[data-sonner-toaster]'] })
  const problems = violations.map(
    (violation) =>
      `${violation.id}: ${violation.help}\n${violation.nodes.map((node) => `  ${node.target.join(' ')}`).join('\n')}`,
  )
  expect(problems, label).toEqual([])
}

/**
 * The storage state of `user`'s session on the running project's server (e2e/sessions.ts), for
 * `browser.newContext({ storageState })`. Call it inside a test or hook.
 */
export function sessionOf(user: { email: string }): string {
  const file = storageStateFile(e2ePort(), sessionUser(user.email).email)
  if (!existsSync(file)) {
    throw new Error(`No session file ${file}: e2e/start-server.ts writes it when the server starts`)
  }
  return file
}

/**
 * For `test.use({ storageState: storageStateOf(user) })`: every test of the block starts with
 * its `page` signed in as `user`.
 */
export function storageStateOf(user: { email: string }) {
  // Playwright reads a fixture's dependencies from its first parameter: it has none.
  // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
  return async ({}, use: (file: string) => Promise<void>) => use(sessionOf(user))
}

/**
 * A new browser context signed in as `user`, a seeded account (e2e/sessions.ts), without the
 * sign-in form; with `path`, its page is open there on the user's host, hydrated.
 */
export async function signedInAs(
  browser: Browser,
  user: { email: string },
  path?: string,
  options: OpenOptions = {},
) {
  const context = await browser.newContext({
    storageState: sessionOf(user),
    javaScriptEnabled: options.javaScript ?? true,
  })
  const page = await context.newPage()
  if (path) await openSignedIn(page, user, path, options)
  return { context, page }
}

/**
 * Signs `page`'s browser context in as `user` (a seeded account, e2e/sessions.ts) by giving it
 * the session cookie, then opens `path` on the user's host: the `page` fixture, signed in.
 */
export async function openAs(
  page: Page,
  user: { email: string },
  path: string,
  options: OpenOptions = {},
) {
  const state = JSON.parse(readFileSync(sessionOf(user), 'utf8')) as {
    cookies: Parameters<ReturnType<Page['context']>['addCookies']>[0]
  }
  await page.context().addCookies(state.cookies)
  await openSignedIn(page, user, path, options)
}

/** `javaScript: false` for a context without JavaScript: nothing hydrates, nothing is awaited. */
type OpenOptions = { javaScript?: boolean }

/**
 * Opens `path` on `user`'s host with `page` (signed in as `user`) and waits for hydration,
 * failing plainly when the shared session is gone.
 */
export async function openSignedIn(
  page: Page,
  user: { email: string },
  path: string,
  { javaScript = true }: OpenOptions = {},
) {
  const { host } = sessionUser(user.email)
  await page.goto(urlFor(host, path))
  if (new URL(page.url()).pathname === '/auth/login' && !path.startsWith('/auth/login')) {
    throw new Error(
      `The shared session of ${user.email} has ended: a spec signed it out or changed its password (such specs sign in their own account through the form)`,
    )
  }
  if (javaScript) await waitForHydration(page)
}

/**
 * Gives `page`'s context the session of `user` (e2e/sessions.ts) and opens `path` there: for a
 * test that already has its page, or signs a second person in on a context it used signed out.
 */
export async function signInWithSession(page: Page, user: { email: string }, path: string) {
  const state = JSON.parse(readFileSync(sessionOf(user), 'utf8')) as {
    cookies: Parameters<BrowserContext['addCookies']>[0]
  }
  await page.context().addCookies(state.cookies)
  await openSignedIn(page, user, path)
}

/**
 * A new browser context signed in through the sign-in form as `email` on `host`, landed on
 * `expectedPath`: for specs about signing in, or whose account ends its own sessions.
 */
export async function signInOn(
  browser: Browser,
  host: string,
  credentials: { email: string; password: string },
  expectedPath: string,
) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(urlFor(host, '/auth/login'))
  await waitForHydration(page)
  await page.getByLabel('Email').fill(credentials.email)
  await page.getByLabel('Password').fill(credentials.password)
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page).toHaveURL(urlFor(host, expectedPath), { timeout: 60_000 })
  return { context, page }
}

/**
 * Starts recording whether `text` ever appears on the page; the returned check polls that record.
 * For texts that show only for a moment (a loading state that the auth guard's 3-second panel
 * replaces), which a loaded machine may not get to look at while they are on screen.
 */
export async function recordAppearance(page: Page, text: string) {
  const key = `appeared:${text}`
  await page.evaluate(
    ([name, wanted]) => {
      const seen = window as unknown as Record<string, boolean>
      const look = () => {
        if (document.body.textContent.includes(wanted)) seen[name] = true
      }
      look()
      new MutationObserver(look).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      })
    },
    [key, text] as const,
  )
  return () =>
    expect
      .poll(
        () => page.evaluate((name) => (window as unknown as Record<string, boolean>)[name], key),
        {
          message: `"${text}" appeared`,
        },
      )
      .toBe(true)
}

/** A new end user of Alpha, signed in on their dashboard. */
export async function registerAndSignIn(page: Page) {
  const email = `cards-${Math.random().toString(36).slice(2, 8)}@example.test`
  await page.goto(urlFor(HOSTS.alpha, '/auth/register'))
  await page.getByLabel('First name').fill('Casey')
  await page.getByLabel('Last name').fill('Cardmaker')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill('cards-pass')
  await page.getByRole('button', { name: 'Create Account' }).click()
  // Sign-up signs in and opens the wizard (ADR 071).
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/onboarding'))
  await page.goto(urlFor(HOSTS.alpha, '/dashboard/end-user'))
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/dashboard/end-user'))
}

/**
 * The second step the demo's admins owe after their password (README, Demo accounts): the code
 * an authenticator app holding the demo's key shows now, as `npm run demo:totp` prints it.
 */
export async function enterDemoTwoFactorCode(page: Page) {
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible()
  await page.getByLabel('Authentication code').fill(demoTotpCode())
  await page.getByRole('button', { name: 'Verify' }).click()
}

/**
 * A list's search and filter form (the people screens): the term typed, each filter chosen by its
 * option's label, Filter pressed, and back once the page shows that query. Waiting for the term
 * alone was not enough: going back to "All roles" from a search with the same term already shows
 * it, and a row action taken before the new list landed was revalidated against the old filter.
 */
export async function filterList(page: Page, term: string, filters: Record<string, string> = {}) {
  await page.getByRole('searchbox', { name: 'Search' }).fill(term)
  const expected: [string, string][] = [['q', term]]
  for (const [label, option] of Object.entries(filters)) {
    const select = page.getByLabel(label, { exact: true })
    const [value = ''] = await select.selectOption({ label: option })
    expected.push([(await select.getAttribute('name')) ?? label, value])
  }
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page).toHaveURL((url) =>
    expected.every(([name, value]) => (url.searchParams.get(name) ?? '') === value),
  )
}
