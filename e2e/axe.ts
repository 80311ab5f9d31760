// axe-core run in the page itself, its source injected once per document. @axe-core/playwright
// evaluates axe's source twice on every analyze() (and configures it a third time), so a
// page audited again (each tab, dialog and state the crawl opens) parsed and set up axe anew each
// time: about a fifth of the accessibility spec's CPU (ADR 067). The run itself is the one
// AxeBuilder's legacy mode makes: axe.run on the page's own document, same-origin frames only (the
// app has no other), with the same options.

import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from '@playwright/test'
import type axe from 'axe-core'
import type { AxeResults, ElementContext, RunOptions } from 'axe-core'

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa']

const OPTIONS: RunOptions = {
  runOnly: { type: 'tag', values: WCAG_TAGS },
  // Label in name (WCAG 2.5.3, level A) is still marked experimental in axe-core, so the tags
  // alone leave it out; it is switched on by name.
  rules: { 'label-content-name-mismatch': { enabled: true } },
  // Only the violations are wanted: axe then lists no passing or inapplicable nodes, which is
  // most of its work and of what crosses over from the browser on a large page.
  resultTypes: ['violations'],
}

// The minified build: axe-core's `source` export is its unminified axe.js, 1.3 MB against 580 KB,
// sent over the DevTools protocol and parsed again in every document audited.
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)

// Defines window.axe unless this document has it already (a new page load starts without it).
const INJECT = `if (typeof window.axe?.run !== 'function') {
${AXE_SOURCE}
;window.axe.configure({ allowedOrigins: ['<same_origin>'] })
}`

/** axe's WCAG 2.2 A and AA violations on the page as it is now, within `include` if given. */
export async function axeViolations(
  page: Page,
  { include = [], exclude = [] }: { include?: string[]; exclude?: string[] } = {},
): Promise<AxeResults['violations']> {
  const injected = await page.evaluate(
    () => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function',
  )
  if (!injected) await page.evaluate(INJECT)
  const context: ElementContext = { exclude, ...(include.length ? { include } : {}) }
  // Typed as unknown in the page: Playwright's serialisable type of AxeResults is too deep for tsc.
  const violations = await page.evaluate(
    ({ context, options }): Promise<unknown> =>
      (window as unknown as { axe: typeof axe }).axe
        .run(context as ElementContext, options as RunOptions)
        .then((results) => results.violations),
    { context: context as unknown, options: OPTIONS as unknown },
  )
  return violations as AxeResults['violations']
}
