// Steps most specs share: waiting for hydration, an axe check once animations have settled,
// and signing in on a host.
import AxeBuilder from '@axe-core/playwright'
import { type Browser, expect, type Page } from '@playwright/test'
import { urlFor } from './fixtures'

export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter))
}

/** axe's WCAG 2.2 AA rules, judged after toasts and transitions have finished. */
export async function expectAccessible(page: Page, label: string) {
  await page.mouse.move(0, 0)
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running'),
  )
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze()
  const problems = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
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
