// The axe runner that the accessibility specs share (e2e/axe.ts) finds what axe finds: on a page
// made to fail, the violations of the whole page, the same again on a second run in the same
// document (axe injected once), only those inside `include`, none inside `exclude`.
import { expect, test } from '@playwright/test'
import { axeViolations } from './axe'

const FAILING = `<html lang="en"><head><title>Failing</title></head><body><main>
  <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
  <div role="tablist"><button style="color:#777;background:#888">Low contrast</button></div>
  <p style="color:#eee;background:#fff">Faint text</p>
</main></body></html>`

const summary = (violations: { id: string; nodes: unknown[] }[]) =>
  violations.map((violation) => `${violation.id}: ${violation.nodes.length}`)

test('the shared axe runner reports violations, again in the same document, within include and without exclude', async ({
  page,
}) => {
  await page.setContent(FAILING)
  const whole = summary(await axeViolations(page))
  expect(whole).toEqual(['aria-required-children: 1', 'color-contrast: 2', 'image-alt: 1'])
  expect(summary(await axeViolations(page))).toEqual(whole)
  expect(summary(await axeViolations(page, { include: ['[role="tablist"]'] }))).toEqual([
    'aria-required-children: 1',
    'color-contrast: 1',
  ])
  expect(summary(await axeViolations(page, { exclude: ['img', 'p'] }))).toEqual([
    'aria-required-children: 1',
    'color-contrast: 1',
  ])
})
