// Issue 41 point 17 at a phone's width: the home pages lead to the prices and to a privacy
// policy. From each host's home, the footer's Pricing opens the plans this host sells (Agency Pro
// on the platform's, Team Member Basic on an agency's), and Privacy Policy opens the built-in
// notice under the host's own name when the host has set no policy of its own (ADR 087). The
// rules (which plans, the redirect to a host's own policy): tests/unit/price-list.test.ts and
// tests/integration/legal-links.test.ts.
import { expect, type Page, test } from '@playwright/test'
import { AGENCY_PRO, TEAM_MEMBER_BASIC } from '#app/billing/plan-limits'
import { PLANS } from '#app/validation/plans'
import { HOSTS, TENANTS, urlFor } from './fixtures'
import { expectAccessible } from './page-helpers'

const PHONE = { width: 375, height: 812 }

async function fitsThePhone(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }))
  expect(widths.scroll, 'no sideways scrolling at 375 px').toBeLessThanOrEqual(widths.client)
}

for (const [host, name, sold, notSold] of [
  [HOSTS.platform, TENANTS.platform.name, AGENCY_PRO, TEAM_MEMBER_BASIC],
  [HOSTS.alpha, TENANTS.alpha.name, TEAM_MEMBER_BASIC, AGENCY_PRO],
] as const) {
  test(`${host}: the home page's footer leads to pricing and the privacy notice`, async ({
    page,
  }) => {
    await page.setViewportSize(PHONE)
    await page.goto(urlFor(host, '/'))
    const footer = page.getByRole('contentinfo')
    await footer.getByRole('link', { name: 'Pricing' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Pricing' })).toBeVisible()
    for (const plan of [PLANS.free, PLANS.team_basic, PLANS.team_pro, sold]) {
      const card = page.getByRole('listitem').filter({
        has: page.getByRole('heading', { level: 3, name: plan.name, exact: true }),
      })
      await expect(card).toContainText(`$${plan.price}/month`)
    }
    await expect(page.getByRole('heading', { name: notSold.name, exact: true })).toHaveCount(0)
    await expect(page.getByRole('link', { name: 'Get Started' })).toHaveAttribute(
      'href',
      '/auth/register',
    )
    await fitsThePhone(page)
    await expectAccessible(page, `${host} /pricing`)
    await page.emulateMedia({ colorScheme: 'dark' })
    await expectAccessible(page, `${host} /pricing (dark)`)
    await page.emulateMedia({ colorScheme: 'light' })
    await page.screenshot({
      path: test.info().outputPath(`375-pricing-${host}.jpg`),
      quality: 60,
      fullPage: true,
    })

    // The notice, under this host's name. settings.spec.ts sets the platform's own policy for a
    // few seconds on the embedded server (every host then links it): retried past that window.
    await expect(async () => {
      await page.goto(urlFor(host, '/'))
      await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
        'href',
        '/privacy',
        { timeout: 1_000 },
      )
    }).toPass({ timeout: 60_000 })
    await footer.getByRole('link', { name: 'Privacy Policy' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible()
    await expect(page.getByText(`What ${name} stores about you`)).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Your choices' })).toBeVisible()
    await fitsThePhone(page)
    await expectAccessible(page, `${host} /privacy`)
    await page.screenshot({
      path: test.info().outputPath(`375-privacy-${host}.jpg`),
      quality: 60,
      fullPage: true,
    })
  })
}
