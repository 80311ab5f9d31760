// No page scrolls sideways on a phone, a tablet or a laptop (issue 30, point 3), checked inside
// the accessibility crawl (e2e/accessibility.spec.ts, ADR 110) on the page it has loaded: the
// viewport resized in place (a new layout, media queries included, without loading the page
// again), the document measured at each width, a screenshot of each kept in the test's output
// folder (test-results/…/screens/{width}/…) as the run's artifacts for a reviewer to look through.
// A page wider than the viewport gets a full-page screenshot attached and names its widest
// elements.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { type CDPSession, type Page, test } from '@playwright/test'
import { homeTiles, sidebarNavigation, userMenuEntries } from '#app/navigation/role-navigation'
import { rolePaths } from '#app/validation/roles'
import type { RoleUser } from './role-users'

export const WIDTHS = [375, 768, 1280] as const

/** The width axe audits at (Desktop Chrome's viewport): the crawl puts it back after measuring. */
const AUDIT_WIDTH = 1280

/**
 * The role's pages, each once: what its sidebar, user menu and home tiles link to, from
 * app/navigation/role-navigation.ts, so a new entry is measured without being listed here.
 */
export function navigationPagesOf(role: RoleUser['role']) {
  const navigation = sidebarNavigation(role)
  const entries = [
    ...navigation.dashboard,
    ...navigation.account,
    ...userMenuEntries(role),
    ...homeTiles(role, { nfc: false }),
  ]
  return [
    ...new Set(
      ['/', ...entries.map((entry) => entry.to), rolePaths(role).profile].map(
        (to) => new URL(to, 'http://host').pathname,
      ),
    ),
  ]
}

type Overflow = { scrollWidth: number; clientWidth: number; widest: string[] }

/** The document's widths and, when it is too wide, the elements that reach past the viewport. */
function measure(page: Page): Promise<Overflow> {
  return page.evaluate(() => {
    const root = document.documentElement
    const widest: string[] = []
    if (root.scrollWidth > root.clientWidth) {
      for (const element of document.body.querySelectorAll('*')) {
        const box = element.getBoundingClientRect()
        if (box.right <= root.clientWidth + 0.5 || box.width === 0) continue
        // Only the outermost offenders: a child of one already listed says nothing new.
        const parent = element.parentElement?.getBoundingClientRect()
        if (parent && parent.right > root.clientWidth + 0.5) continue
        // Inside a box that scrolls or clips (a tab list, a table), it widens nothing.
        let clipped = false
        for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
          if (getComputedStyle(up).overflowX !== 'visible') clipped = true
        }
        if (clipped) continue
        const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${[...element.classList].slice(0, 4).join('.')}`
        widest.push(`${name} (right edge ${Math.round(box.right)} px)`)
        if (widest.length >= 5) break
      }
    }
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, widest }
  })
}

async function tooWide(page: Page, label: string, problems: string[]) {
  const { scrollWidth, clientWidth, widest } = await measure(page)
  if (scrollWidth <= clientWidth) return
  problems.push(
    `${label}: ${scrollWidth} px wide in ${clientWidth} px\n    ${widest.join('\n    ')}`,
  )
  await test.info().attach(`${label.replaceAll('/', '_')}.png`, {
    body: await page.screenshot({ fullPage: true }),
    contentType: 'image/png',
  })
}

const sessions = new WeakMap<Page, CDPSession>()

/**
 * What the page looks like at this width, for the run's artifacts (JPEG: a fifth of a PNG),
 * taken by Chromium's DevTools protocol: Playwright's screenshot hides the caret with a style
 * it adds and removes and waits for fonts each time, a third of the crawl's screenshot time.
 */
async function keepScreenshot(page: Page, width: number, label: string) {
  const name = label.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '')
  let session = sessions.get(page)
  if (!session) {
    session = await page.context().newCDPSession(page)
    sessions.set(page, session)
  }
  const { data } = await session.send('Page.captureScreenshot', { format: 'jpeg', quality: 60 })
  const file = test.info().outputPath('screens', String(width), `${name || 'home'}.jpg`)
  await mkdir(path.dirname(file), { recursive: true })
  await writeFile(file, Buffer.from(data, 'base64'))
}

async function resize(page: Page, width: number) {
  const height = page.viewportSize()?.height ?? 720
  await page.setViewportSize({ width, height })
  // Two frames: the resize's layout, then anything that React re-renders for the new width.
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  )
}

/**
 * Measures the page as it is now at each width, widest first (the audit's own width needs no
 * resize), keeps a screenshot of each, and leaves the page at the audit's width again.
 * `problems` gains a line for each width at which the document is wider than the viewport.
 */
export async function checkWidths(page: Page, label: string, problems: string[]) {
  for (const width of [...WIDTHS].reverse()) {
    if (page.viewportSize()?.width !== width) await resize(page, width)
    await tooWide(page, `${label} at ${width} px`, problems)
    await keepScreenshot(page, width, label)
  }
  await resize(page, AUDIT_WIDTH)
}
