// The public card page's download weight on the built app (issue 16, point 2; ADR 022): every
// <script src>, modulepreload and stylesheet of the page, each gzipped at the default level, the
// way `npm run bench` sums them (bench/budgets.ts), held to the budgets. A signed-out visitor's
// card page is not hydrated: its one script is app/components/cards/card-visitor.js (ADR 022).
import { expect, test } from '@playwright/test'
import {
  assetLinks,
  CSS_BUDGET_BYTES,
  gzipWeight,
  inlineStyles,
  JS_BUDGET_BYTES,
} from '../bench/budgets'
import { HOSTS, urlFor } from './fixtures'

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
