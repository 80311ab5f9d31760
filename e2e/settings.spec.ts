// The settings pages of every role (roles-teams-admin.md §2.6, §8; issue 14 points 1 and 4): each
// tab's fields and save toast, reached from the sidebar; the dark theme applied to the page; the
// end user's hidden email gone from their public card; agency members read but cannot save.
import { type Browser, expect, type Page, test } from '@playwright/test'
import { rolePaths } from '#app/validation/roles'
import { HOSTS, urlFor } from './fixtures'
import { expectNewToast, sessionOf, signedInAs, signInWithSession } from './page-helpers'
import { PLATFORM_ROLE_USERS, type RoleUser, SETTINGS_USERS } from './role-users'
import { SPEC_ACCOUNTS } from './spec-accounts'

test.describe.configure({ timeout: 360_000 })

/** Starts signed in (a session made in the database), on the role's dashboard, hydrated. */
const signIn = (page: Page, user: RoleUser) =>
  signInWithSession(page, user, rolePaths(user.role).dashboard)

/** Opens the sidebar's Settings entry of the role's area (Dashboard group). */
async function openSettings(page: Page, user: RoleUser, label = 'Settings') {
  const sidebar = page.getByRole('navigation', { name: /dashboard/i }).first()
  const link = sidebar.getByRole('link', { name: label, exact: true })
  if (await link.isVisible()) await link.click()
  else
    await page.goto(
      urlFor(user.host, `/dashboard/${rolePaths(user.role).settings.split('/')[2]}/settings`),
    )
  await expect(page).toHaveURL(
    urlFor(user.host, `/dashboard/${rolePaths(user.role).settings.split('/')[2]}/settings`),
  )
}

async function tab(page: Page, name: string) {
  await page.getByRole('tab', { name }).click()
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true')
}

async function save(page: Page, toast: string, button = 'Save Changes') {
  await expectNewToast(page, toast, () =>
    page.getByRole('tabpanel').getByRole('button', { name: button }).click(),
  )
}

test('end user: privacy hides the email on the public card; the dark theme applies', async ({
  page,
}) => {
  const erin = SETTINGS_USERS.endUser
  await signIn(page, erin)
  await openSettings(page, erin)
  await expect(page.getByRole('heading', { name: 'Account Settings', level: 1 })).toBeVisible()
  for (const name of ['Privacy', 'Appearance', 'API']) {
    await expect(page.getByRole('tab', { name })).toBeVisible()
  }

  // Privacy: visibility, show email, show phone.
  const visibility = page.getByLabel('Profile visibility')
  await expect(visibility.locator('option')).toHaveText([
    'Public: anyone with the link',
    'Contacts: only people in your contacts, signed in with that email',
    'Private: only you',
  ])
  await expect(page.getByLabel('Show email')).toBeChecked()
  await page.getByLabel('Show email').uncheck()
  await expect(page.getByLabel('Show phone')).toBeChecked()
  await save(page, 'Privacy settings saved successfully')
  await page.reload()
  await expect(page.getByLabel('Show email')).not.toBeChecked()

  const visitor = await page.context().browser()?.newContext()
  const card = await visitor?.newPage()
  if (!card) throw new Error('no visitor page')
  await card.goto(urlFor(HOSTS.alpha, '/card/erin-settings'))
  await expect(card.getByRole('heading', { name: 'Erin Settings' })).toBeVisible()
  await expect(card.getByText(erin.email)).toHaveCount(0)
  await expect(card.getByText('+1 555 0100').first()).toBeVisible()
  await visitor?.close()

  // Appearance: theme, font size, animations; dark applies to the whole page at once.
  await tab(page, 'Appearance')
  await expect(page.getByLabel('Theme').locator('option')).toHaveText(['Light', 'Dark', 'System'])
  await expect(page.getByLabel('Font size').locator('option')).toHaveText([
    'Small',
    'Medium',
    'Large',
  ])
  await expect(page.getByLabel('Animations')).toBeChecked()
  await page.getByLabel('Theme').selectOption('dark')
  await page.getByLabel('Font size').selectOption('large')
  await save(page, 'Appearance settings saved successfully')
  await expect(page.locator('html')).toHaveClass(/\bdark\b/)
  await expect(page.locator('html')).toHaveAttribute('data-font-size', 'large')
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
  expect(background).not.toBe('rgb(255, 255, 255)')

  // Motion: the buttons' colour transition runs, until the device asks for less motion, or the
  // person turns Animations off (stored, so it holds with the device's wish withdrawn).
  const saveButton = page.getByRole('tabpanel').getByRole('button', { name: 'Save Changes' })
  const transition = () =>
    saveButton.evaluate((button) => getComputedStyle(button).transitionDuration)
  expect(await transition()).toBe('0.15s')
  await page.emulateMedia({ reducedMotion: 'reduce' })
  expect(await transition()).toBe('1e-05s')
  await page.emulateMedia({ reducedMotion: 'no-preference' })
  expect(await transition()).toBe('0.15s')
  await page.getByLabel('Animations').uncheck()
  await save(page, 'Appearance settings saved successfully')
  await expect(page.locator('html')).toHaveAttribute('data-motion', 'reduce')
  expect(await transition()).toBe('1e-05s')

  // API: the CRM card leads to the integration page (e2e/crm.spec.ts drives that page).
  await tab(page, 'API')
  await expect(page.getByRole('heading', { name: 'CRM Integration' })).toBeVisible()
  await expect(
    page.getByText('Connect to a CRM to automatically add new contacts you meet.'),
  ).toBeVisible()
  await page.getByRole('link', { name: 'Set up CRM integration' }).click()
  await expect(page).toHaveURL(/\/api-settings$/)
  await expect(page.getByRole('heading', { name: 'CRM Integration', level: 1 })).toBeVisible()
  await page.goBack()

  // Back to light for whoever looks next.
  await tab(page, 'Appearance')
  await page.getByLabel('Theme').selectOption('light')
  await page.getByLabel('Font size').selectOption('medium')
  await page.getByLabel('Animations').check()
  await save(page, 'Appearance settings saved successfully')
  await expect(page.locator('html')).not.toHaveClass(/\bdark\b/)
  await expect(page.locator('html')).not.toHaveAttribute('data-motion')
})

test('team member: notifications, privacy, billing and API tabs', async ({ page }) => {
  const toby = SETTINGS_USERS.teamMember
  await signIn(page, toby)
  await openSettings(page, toby)
  await expect(page.getByRole('heading', { name: 'Team Member Settings', level: 1 })).toBeVisible()
  await expect(page.getByLabel('Email Notifications')).toBeChecked()
  await expect(page.getByLabel('New Contact Alerts')).toBeChecked()
  await expect(page.getByLabel('Team Updates')).toBeChecked()
  await expect(page.getByLabel(/^Marketing Communications/)).not.toBeChecked()
  await expect(page.getByText(/Announcements your agency writes to its users/)).toBeVisible()
  await page.getByLabel('New Contact Alerts').uncheck()
  await save(page, 'Notification settings saved successfully')
  await page.reload()
  await expect(page.getByLabel('New Contact Alerts')).not.toBeChecked()

  await tab(page, 'Privacy')
  await expect(page.getByLabel('Profile visibility').locator('option')).toHaveCount(4)
  await expect(page.getByLabel('Profile visibility').locator('option')).toHaveText([
    'Public: anyone with the link',
    'Contacts: only people in your contacts, signed in with that email',
    'Team: only members of your teams, signed in',
    'Private: only you',
  ])
  await page.getByLabel('Profile visibility').selectOption('team')
  await expect(page.getByLabel('Activity tracking')).toBeChecked()
  await save(page, 'Privacy settings saved successfully')

  // 'Team': signed out, the card and its contact file are not found; Tia, in Toby's team, sees it.
  const cardUrl = urlFor(HOSTS.alpha, '/card/toby-settings')
  const guest = await page.context().browser()?.newContext()
  const guestPage = await guest?.newPage()
  if (!guest || !guestPage) throw new Error('no visitor page')
  expect((await guestPage.goto(cardUrl))?.status()).toBe(404)
  await expect(guestPage.getByRole('heading', { name: 'Toby Settings' })).toHaveCount(0)
  // Fetched from the page: the browser resolves *.localhost, the test runner does not.
  const vcardStatus = () =>
    guestPage.evaluate(async (url) => (await fetch(url)).status, `${cardUrl}/vcard`)
  expect(await vcardStatus()).toBe(404)
  await signIn(guestPage, SETTINGS_USERS.teammate)
  expect((await guestPage.goto(cardUrl))?.status()).toBe(200)
  await expect(guestPage.getByRole('heading', { name: 'Toby Settings' })).toBeVisible()
  expect(await vcardStatus()).toBe(200)
  await guest.close()

  await tab(page, 'Billing')
  // The team member's own plan (ADR 051): Free, 5 end users; Team Member Basic offered, granted
  // by the agency's admin on this server, which has no payment provider.
  await expect(page.getByRole('tabpanel')).toContainText('Current planFree')
  await expect(page.getByRole('tabpanel')).toContainText('Up to 5 end users')
  await expect(page.getByTestId('plan-offer')).toHaveText(
    'Team Member Basic: $49/month, up to 10 end users.',
  )
  await expect(
    page.getByText("your agency's administrators grant it", { exact: false }),
  ).toBeVisible()
  await expect(page.getByText('No payment provider is connected', { exact: false })).toBeVisible()
  // No dead end (ADR 079): the plan is asked of the agency's admins, and the request can be
  // taken back.
  await page.getByRole('button', { name: 'Request Team Member Basic' }).click()
  await expect(page.getByText("Request sent to your agency's administrators")).toBeVisible()
  await expect(page.getByTestId('plan-request')).toContainText('Team Member Basic')
  await page.getByRole('button', { name: 'Withdraw request' }).click()
  await expect(page.getByText('Request withdrawn')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Request Team Member Basic' })).toBeVisible()

  await tab(page, 'API')
  await expect(page.getByRole('heading', { name: 'CRM Integration' })).toBeVisible()
})

test('agency: the admin saves team and billing settings; a member only reads them', async ({
  page,
  browser,
}) => {
  const abe = SETTINGS_USERS.agencyAdmin
  await signIn(page, abe)
  await openSettings(page, abe)
  await expect(page.getByRole('heading', { name: 'Agency Settings', level: 1 })).toBeVisible()
  await expect(page.getByLabel('Default team role')).toHaveValue('member')
  await expect(page.getByLabel('Allow members to invite others')).toBeChecked()
  await page.getByLabel('Default team role').selectOption('viewer')
  await page.getByLabel('Auto-approve new members').check()
  await save(page, 'Team settings saved successfully')

  await tab(page, 'Billing')
  // Alpha's own plan (its subscription tier, Enterprise in e2e/start-server.ts), not the spec's
  // sample 'Agency Pro': nothing to buy above it.
  await expect(page.getByRole('tabpanel')).toContainText('Current planEnterprise')
  await expect(page.getByRole('tabpanel')).toContainText('No team member limit')
  await expect(page.getByRole('button', { name: 'Upgrade to Agency Pro' })).toHaveCount(0)
  await expect(page.getByText('No payment provider is connected', { exact: false })).toBeVisible()
  await page.getByLabel('Billing email').fill('billing@alpha.example.test')
  await save(page, 'Billing settings saved successfully')
  await page.reload()
  await expect(page.getByLabel('Billing email')).toHaveValue('billing@alpha.example.test')

  const context = await browser.newContext()
  const member = await context.newPage()
  await signIn(member, SETTINGS_USERS.agencyMember)
  await member.goto(urlFor(HOSTS.alpha, '/dashboard/agency/settings'))
  await expect(member.getByLabel('Default team role')).toHaveValue('viewer')
  await expect(member.getByLabel('Default team role')).toBeDisabled()
  await expect(member.getByText('Only an agency admin can change these settings.')).toBeVisible()
  await expect(member.getByRole('button', { name: 'Save Changes' })).toHaveCount(0)
  await context.close()

  // The default team role applies to the teams of Alpha's users (ADR 015): a team admin's
  // Invite Member dialog preselects it. teams.spec.ts always picks its roles, so this change
  // does not reach it; the default goes back to member at the end all the same.
  const owner = await teamOwner(browser)
  const inviteRole = async () => {
    await owner.page.getByRole('button', { name: 'Invite Member' }).click()
    const dialog = owner.page.getByRole('dialog', { name: 'Invite Member' })
    const role = dialog.getByLabel('Role')
    const value = await role.inputValue()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    return value
  }
  expect(await inviteRole()).toBe('viewer')
  await tab(page, 'Team')
  await page.getByLabel('Default team role').selectOption('member')
  await save(page, 'Team settings saved successfully')
  await owner.page.reload()
  await waitForHydration(owner.page)
  expect(await inviteRole()).toBe('member')
  await owner.context.close()
})

async function waitForHydration(page: Page) {
  await page.waitForFunction(() => Boolean((window as { __remixRouter?: unknown }).__remixRouter))
}

/**
 * Alpha's end user on Team Basic (seeded with a session, e2e/spec-accounts.ts: the plan as the
 * agency's Change Plan leaves it, which teams.spec.ts goes through) with a team of their own, on
 * its team page.
 */
async function teamOwner(browser: Browser) {
  const { context, page } = await signedInAs(
    browser,
    SPEC_ACCOUNTS.policyOwner,
    '/dashboard/end-user/team',
  )
  await page.getByRole('button', { name: 'Create Team' }).click()
  const dialog = page.getByRole('dialog', { name: 'Create Team' })
  await dialog.getByLabel('Team name').fill('Policy Crew')
  await dialog.getByRole('button', { name: 'Create Team' }).click()
  await expect(page.getByText('Team created successfully')).toBeVisible()
  return { context, page }
}

// System Settings' General form holds the platform-wide values (its name, the legal links):
// the super admin's two tests run one after the other, so neither saves over the other's
// values (a form loaded before the other's save would put the old ones back).
test.describe('System Settings', () => {
  test.describe.configure({ mode: 'default' })

  test('super admin: System Settings with General, Security and API', async ({ page }) => {
    const sue = PLATFORM_ROLE_USERS.find((user) => user.role === 'super_admin') as RoleUser
    await signIn(page, sue)
    await openSettings(page, sue, 'System Settings')
    await expect(page.getByRole('heading', { name: 'System Settings', level: 1 })).toBeVisible()
    await expect(page.getByLabel('Platform name')).not.toHaveValue('')
    await expect(page.getByLabel('Maintenance mode')).not.toBeChecked()
    // Saved unchanged: other specs read the product name at the same time.
    await save(page, 'General settings saved successfully')

    await tab(page, 'Security')
    await expect(page.getByLabel('Session timeout (minutes)')).toHaveValue('60')
    // Both toggles take effect (ADR 045) and say what they do. The e2e servers start with
    // two-factor for admins off (e2e/start-server.ts); the spec's default is on.
    await expect(page.getByText('Coming soon')).toHaveCount(0)
    await expect(page.getByLabel(/^Two-factor authentication for admins/)).not.toBeChecked()
    await expect(page.getByLabel(/^Password rotation every 90 days/)).not.toBeChecked()
    await expect(page.getByText(/more than 90 days old chooses a new one at sign-in/)).toBeVisible()
    await page.getByLabel('Session timeout (minutes)').fill('0')
    await page.getByRole('tabpanel').getByRole('button', { name: 'Save Changes' }).click()
    await expect(
      page.getByText('Session timeout must be between 5 and 43200 minutes'),
    ).toBeVisible()
    await page.getByLabel('Session timeout (minutes)').fill('60')
    await save(page, 'Security settings saved successfully')
  })

  test("super admin: the platform's legal links stand in on an agency host that sets none", async ({
    page,
    browser,
  }) => {
    const sue = PLATFORM_ROLE_USERS.find((user) => user.role === 'super_admin') as RoleUser
    const mark = Math.random().toString(36).slice(2, 8)
    // Addresses no other spec asserts on, and that do not name the platform (no-trace.spec.ts
    // crawls Alpha meanwhile).
    const links = {
      privacy: `https://policies-${mark}.example.test/privacy`,
      terms: `https://policies-${mark}.example.test/terms`,
      support: `help-${mark}@policies.example.test`,
    }
    const fields = {
      privacy: page.getByLabel('Privacy Policy URL'),
      terms: page.getByLabel('Terms of Service URL'),
      support: page.getByLabel('Support email'),
    }
    await signIn(page, sue)
    await page.goto(urlFor(HOSTS.platform, '/dashboard/super-admin/settings'))
    await expect(fields.privacy).toBeVisible()
    const before = {
      privacy: await fields.privacy.inputValue(),
      terms: await fields.terms.inputValue(),
      support: await fields.support.inputValue(),
    }
    try {
      await fields.privacy.fill(links.privacy)
      await fields.terms.fill(links.terms)
      await fields.support.fill(links.support)
      await save(page, 'General settings saved successfully')

      // Alpha has set none of its own: the platform's links in its footer and sign-up form,
      // shown to a visitor (a fresh context, no session).
      const guest = await browser.newContext()
      const visitor = await guest.newPage()
      for (const host of [HOSTS.alpha, HOSTS.platform]) {
        await visitor.goto(urlFor(host, '/auth/login'))
        const footer = visitor.getByRole('contentinfo')
        await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
          'href',
          links.privacy,
        )
        await expect(footer.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
          'href',
          links.terms,
        )
        await expect(footer.getByRole('link', { name: links.support })).toHaveAttribute(
          'href',
          `mailto:${links.support}`,
        )
      }
      await visitor.goto(urlFor(HOSTS.alpha, '/auth/register'))
      const agreement = visitor.getByTestId('sign-up-agreement')
      await expect(agreement).toHaveText(
        'By creating an account you agree to the Terms and Privacy Policy.',
      )
      await expect(agreement.getByRole('link', { name: 'Terms' })).toHaveAttribute(
        'href',
        links.terms,
      )
      await expect(agreement.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
        'href',
        links.privacy,
      )
      await expect(
        visitor.getByText(/^Questions\? Contact/).getByRole('link', { name: links.support }),
      ).toHaveAttribute('href', `mailto:${links.support}`)
      await guest.close()
    } finally {
      // Put back what was there, so other specs (and the next run) see the platform as before.
      await page.goto(urlFor(HOSTS.platform, '/dashboard/super-admin/settings'))
      await fields.privacy.fill(before.privacy)
      await fields.terms.fill(before.terms)
      await fields.support.fill(before.support)
      await save(page, 'General settings saved successfully')
    }
    await expect(fields.privacy).toHaveValue(before.privacy)
  })
})

test('the theme follows the device until the person picks one', async ({ browser }) => {
  // The crawl's super admin never saves Appearance: its theme is the default, 'system'.
  const user = PLATFORM_ROLE_USERS.find((candidate) => candidate.role === 'super_admin')
  if (!user) throw new Error('no platform super admin')
  for (const colorScheme of ['dark', 'light'] as const) {
    const context = await browser.newContext({ colorScheme, storageState: sessionOf(user) })
    const page = await context.newPage()
    await page.goto(urlFor(user.host, rolePaths(user.role).dashboard))
    const html = page.locator('html')
    await expect(html).toHaveAttribute('data-theme', 'system')
    if (colorScheme === 'dark') await expect(html).toHaveClass(/\bdark\b/)
    else await expect(html).not.toHaveClass(/\bdark\b/)
    await context.close()
  }
})
