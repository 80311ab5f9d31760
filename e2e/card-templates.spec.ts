// Issue 31 point 1 (ADR 048) on the production project (Postgres, the app login): an agency
// admin locks the company on the agency's default template and applies it to an end user's
// card; the end user sees the company read only, and an edit of it sent anyway is kept out by
// the server; the admin changes the template's company and the card follows in place: its
// public page (cached for visitors) shows the new company, dropped by the change feed.
import { expect, test } from '@playwright/test'
import { urlFor } from './fixtures'
import { signedInAs } from './page-helpers'
import { SPEC_AGENCIES } from './spec-accounts'

const agency = SPEC_AGENCIES.templater
const [tess] = agency.endUsers
const PATH = '/dashboard/agency/templates'

test('a locked company: the owner edit is kept out, the template change reaches the card', async ({
  browser,
}) => {
  test.setTimeout(90_000)
  // The admin opens Card Templates from the sidebar and makes the default template.
  const { context: adminContext, page: admin } = await signedInAs(
    browser,
    agency.owner,
    '/dashboard/agency',
  )
  await admin
    .getByRole('navigation', { name: 'Sidebar' })
    .getByRole('link', { name: 'Card Templates', exact: true })
    .click()
  await expect(admin).toHaveURL(urlFor(agency.host, PATH))
  await expect(admin.getByRole('heading', { name: 'Card Templates', level: 1 })).toBeVisible()
  await expect(admin.getByRole('heading', { name: 'No templates yet' })).toBeVisible()
  await admin.getByLabel('Template name').fill('Templater standard')
  await admin.getByLabel('Company', { exact: true }).fill('Templater Inc')
  await admin.getByLabel('Company on cards').selectOption('locked')
  await admin.getByRole('button', { name: 'Create template' }).click()
  await expect(admin.getByText('Template created').first()).toBeVisible()
  // Tess's card was made before it: applied, it follows the template.
  // Asked first (issue 41 point 9): Cancel rewrites nothing; Apply does.
  await admin.getByRole('button', { name: 'Apply to 1 card' }).click()
  const ask = admin.getByRole('alertdialog', { name: 'Apply Templater standard to 1 card?' })
  await expect(ask).toContainText('Fields the template leaves free stay as they are.')
  await ask.getByRole('button', { name: 'Cancel' }).click()
  await expect(ask).toBeHidden()
  await expect(admin.getByText('0 cards follow this template; 0 deviate.')).toBeVisible()
  await admin.getByRole('button', { name: 'Apply to 1 card' }).click()
  await ask.getByRole('button', { name: 'Apply' }).click()
  await expect(admin.getByText('1 card now follow this template.').first()).toBeVisible()
  await expect(admin.getByText('1 card follow this template; 0 deviate.')).toBeVisible()

  // Tess's editor shows the company read only, with the template's words.
  const { context: tessContext, page } = await signedInAs(
    browser,
    tess as NonNullable<typeof tess>,
    '/dashboard/end-user/digital-cards',
  )
  await page.getByRole('link', { name: /^Edit / }).click()
  const company = page.getByLabel('Company', { exact: true })
  await expect(company).toHaveValue('Templater Inc')
  await expect(company).toHaveAttribute('readonly', '')
  await expect(page.getByText("Company is set by your organization's card template")).toBeVisible()
  const editUrl = page.url()
  const cardId = /edit\/([0-9a-f-]{36})/.exec(editUrl)?.[1] ?? ''
  // Sent anyway (the attribute taken off, as a crafted form would): the server keeps it.
  await company.evaluate((input) => input.removeAttribute('readonly'))
  await company.fill('Evil Inc')
  await page.getByLabel('Job title').fill('Designer')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Locked fields kept').first()).toBeVisible()
  await page.goto(editUrl)
  await expect(company).toHaveValue('Templater Inc')
  await expect(page.getByLabel('Job title')).toHaveValue('Designer')

  // A visitor's view of the card (the page cache keeps it) shows the template's company.
  const visitorContext = await browser.newContext()
  const visitor = await visitorContext.newPage()
  await visitor.goto(urlFor(agency.host, `/card/${cardId}`))
  await expect(visitor.getByTestId('card-display')).toContainText('Templater Inc')

  // The admin changes the template's company: the card follows in place.
  await admin.reload()
  await admin.getByText('Edit template').click()
  const form = admin.locator('details')
  await form.getByLabel('Company', { exact: true }).fill('Templater Group')
  await form.getByRole('button', { name: 'Save template' }).click()
  await expect(admin.getByText('1 card updated to follow it.').first()).toBeVisible()
  await visitor.reload()
  await expect(visitor.getByTestId('card-display')).toContainText('Templater Group')
  await page.goto(editUrl)
  await expect(company).toHaveValue('Templater Group')
  await Promise.all([adminContext.close(), tessContext.close(), visitorContext.close()])
})
