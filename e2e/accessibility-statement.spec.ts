// The accessibility statement on two tenants (issue 45 point 6, ADR 100): each host's footer
// leads to /accessibility, which names the host and its own address for accessibility requests:
// the platform's (set when the servers start), and Alpha's, which its admin names on the Branding
// screen; a recipient's card page links it too. At a phone's width, light and dark, axe-clean.
// The facts it lists are the suite's own (tests/unit/accessibility-statement.test.ts); the
// contact's fallbacks: tests/integration/accessibility-statement.test.ts.
import { expect, type Page, test } from '@playwright/test'
import { HOSTS, PLATFORM_ACCESSIBILITY_EMAIL, TENANTS, urlFor } from './fixtures'
import { expectAccessible, signedInAs, waitForHydration } from './page-helpers'
import { ALPHA_ROLE_USERS } from './role-users'

const PHONE = { width: 375, height: 812 }

async function fitsThePhone(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }))
  expect(widths.scroll, 'no sideways scrolling at 375 px').toBeLessThanOrEqual(widths.client)
}

/** The statement as it must read on any host: its parts, the build's date, axe-clean. */
async function expectStatement(page: Page, host: string, name: string, contact: string) {
  await expect(page).toHaveURL(urlFor(host, '/accessibility'))
  await expect(
    page.getByRole('heading', { level: 1, name: 'Accessibility Statement' }),
  ).toBeVisible()
  await expect(page.getByText(`${name} wants everyone to be able to use this site`)).toBeVisible()
  await expect(page.getByText('WCAG 2.2 level AA', { exact: true })).toBeVisible()
  for (const section of ['What is checked', 'Known limitations', 'Feedback and contact']) {
    await expect(page.getByRole('heading', { level: 2, name: section })).toBeVisible()
  }
  const link = page.getByTestId('accessibility-contact')
  await expect(link).toHaveText(contact)
  await expect(link).toHaveAttribute('href', `mailto:${contact}`)
  // The build's date (the commit it was made from), not the clock's.
  await expect(page.getByTestId('accessibility-checked-on')).toContainText('Last checked:')
  await expect(page.getByTestId('accessibility-checked-on').locator('time')).toHaveAttribute(
    'datetime',
    /^\d{4}-\d{2}-\d{2}$/,
  )
  await fitsThePhone(page)
  await expectAccessible(page, `${host} /accessibility`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await expectAccessible(page, `${host} /accessibility (dark)`)
  await page.emulateMedia({ colorScheme: 'light' })
  await page.screenshot({
    path: test.info().outputPath(`375-accessibility-${host}.jpg`),
    quality: 60,
    fullPage: true,
  })
}

test("the platform's home page footer leads to its statement, with the platform's contact", async ({
  page,
}) => {
  await page.setViewportSize(PHONE)
  await page.goto(urlFor(HOSTS.platform, '/'))
  await page.getByRole('contentinfo').getByRole('link', { name: 'Accessibility' }).click()
  await expectStatement(page, HOSTS.platform, TENANTS.platform.name, PLATFORM_ACCESSIBILITY_EMAIL)
})

test("Alpha's admin names its contact; a card page's footer leads to Alpha's statement, with no trace of the platform", async ({
  browser,
}) => {
  const admin = ALPHA_ROLE_USERS.find((user) => user.role === 'agency_admin')
  if (!admin) throw new Error('no Alpha agency admin')
  const address = `access-${Math.random().toString(36).slice(2, 8)}@alpha-help.example.test`

  const { context, page } = await signedInAs(
    browser,
    admin,
    '/dashboard/agency/branding?tab=domain',
  )
  const field = page.getByLabel('Accessibility Email')
  await field.fill('not an email')
  await page.getByRole('button', { name: 'Save Changes' }).click()
  await expect(page.getByText('Please enter a valid email address')).toBeVisible()
  await field.fill(address)
  await page.getByRole('button', { name: 'Save Changes' }).click()
  await expect(page.getByText('Branding Updated')).toBeVisible()
  await context.close()

  // A recipient of Olivia's card, signed out, on a phone.
  const visitor = await browser.newContext({ viewport: PHONE })
  const card = await visitor.newPage()
  await card.goto(urlFor(HOSTS.alpha, '/card/olivia-owner'))
  await waitForHydration(card)
  await card.getByRole('contentinfo').getByRole('link', { name: 'Accessibility' }).click()
  await expectStatement(card, HOSTS.alpha, TENANTS.alpha.name, address)
  const text = (await card.locator('body').textContent()) ?? ''
  expect(text).not.toContain(TENANTS.platform.name)
  expect(text).not.toMatch(/brandcard/i)
  expect(text).not.toContain(PLATFORM_ACCESSIBILITY_EMAIL)
  await visitor.close()
})
