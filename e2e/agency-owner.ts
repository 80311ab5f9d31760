// A new agency, created by the super admin through the Agencies screen, whose owner sets a
// password from the emailed link and signs in on the agency's subdomain.
import { type Browser, expect, type Page } from '@playwright/test'
import { HOSTS, urlFor } from './fixtures'
import { linkIn, newestEmailTo } from './inbox'
import { waitForHydration } from './page-helpers'

const AGENCIES = '/dashboard/super-admin/agencies'

export async function createAgency(admin: Page, browser: Browser, name: string, slug: string) {
  const ownerEmail = `${slug}-owner@example.test`
  await admin.goto(urlFor(HOSTS.platform, AGENCIES))
  await waitForHydration(admin)
  await admin.getByRole('button', { name: 'Add Agency' }).click()
  const add = admin.getByRole('dialog', { name: 'Add Agency' })
  await add.getByLabel('Agency name').fill(name)
  await add.getByLabel('Owner name').fill('Brenda Brand')
  await add.getByLabel('Owner email').fill(ownerEmail)
  await add.getByLabel('Subscription').selectOption('starter')
  await add.getByRole('button', { name: 'Add Agency' }).click()
  await expect(admin.getByText('Agency added')).toBeVisible()
  // The owner's set-password link from their inbox, then sign-in on the new subdomain.
  const link = linkIn(await newestEmailTo(ownerEmail, 'Set your password'), '/auth/reset-password')
  const context = await browser.newContext()
  const owner = await context.newPage()
  await owner.goto(link)
  await waitForHydration(owner)
  await owner.getByLabel('New password').fill('brand-owner-pass-1')
  await owner.getByLabel('Confirm password').fill('brand-owner-pass-1')
  await owner.getByRole('button', { name: 'Reset Password' }).click()
  await expect(owner).toHaveURL(/\/auth\/login/)
  await waitForHydration(owner)
  await owner.getByLabel('Email').fill(ownerEmail)
  await owner.getByLabel('Password').fill('brand-owner-pass-1')
  await owner.getByRole('button', { name: 'Sign In' }).click()
  await expect(owner).toHaveURL(urlFor(`${slug}.localhost`, '/dashboard/agency'), {
    timeout: 60_000,
  })
  return { context, owner }
}
