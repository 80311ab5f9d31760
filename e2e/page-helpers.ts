// Steps most specs share: waiting for hydration, an axe check once animations have settled,
// and signing in on a host.
import AxeBuilder from '@axe-core/playwright'
import { type Browser, expect, type Page } from '@playwright/test'
import { HOSTS, urlFor } from './fixtures'

/**
 * Resolves once the page's scripts are ready: React hydrated, or on a page served without React
 * (a signed-out visitor's card page, ADR 022) its visitor script has run.
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(
    () =>
      Boolean((window as { __remixRouter?: unknown }).__remixRouter) ||
      document.documentElement.hasAttribute('data-enhanced'),
  )
}

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa']

/** Resolves once no finite animation or transition is running (a spinner may go on). */
export async function animationsSettled(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
      ),
  )
}

/**
 * axe's WCAG 2.2 A and AA rules, judged after transitions have finished. Toasts are left out:
 * each fades away on its own timer, which can start while axe is still reading the page, and a
 * half-faded text fails colour contrast (seen on a loaded CI machine).
 */
export async function expectAccessible(page: Page, label: string) {
  await page.mouse.move(0, 0)
  await animationsSettled(page)
  const results = await new AxeBuilder({ page })
    // Label in name (WCAG 2.5.3, level A) is still marked experimental in axe-core, so the tags
    // alone leave it out; it is switched on by name. (options() first: it replaces all options.)
    // Only the violations are wanted: axe then lists no passing or inapplicable nodes, which
    // is most of its work and of what crosses over from the browser on a large page.
    .options({
      rules: { 'label-content-name-mismatch': { enabled: true } },
      resultTypes: ['violations'],
    })
    .withTags(WCAG_TAGS)
    .exclude('[data-sonner-toaster]')
    .analyze()
  const problems = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help}\n${violation.nodes.map((node) => `  ${node.target.join(' ')}`).join('\n')}`,
  )
  expect(problems, label).toEqual([])
}

/** A new browser context signed in as `email` on `host`, landed on `expectedPath`. */
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
  await expect(page).toHaveURL(urlFor(host, expectedPath), { timeout: 20_000 })
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
        if (document.body.innerText.includes(wanted)) seen[name] = true
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
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/auth/login'))
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill('cards-pass')
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/dashboard/end-user'))
}
