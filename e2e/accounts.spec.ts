import { expect, type Page, test } from '@playwright/test'
import sharp from 'sharp'
import { rolePaths } from '#app/validation/roles'
import { EXPIRED_RESET, HOSTS, SUPER_ADMIN, TENANTS, urlFor } from './fixtures'
import { linkIn, newestEmailTo } from './inbox'
import { signedInAs, waitForHydration } from './page-helpers'
import { ALPHA_ROLE_USERS, PLATFORM_ROLE_USERS } from './role-users'
import { SPEC_ACCOUNTS } from './spec-accounts'

const unique = () => Math.random().toString(36).slice(2, 8)

async function register(page: Page, host: string, account: { email: string; password: string }) {
  await page.goto(urlFor(host, '/auth/register'))
  await page.getByLabel('First name').fill('Erin')
  await page.getByLabel('Last name').fill('Example')
  await page.getByLabel('Email').fill(account.email)
  await page.getByLabel('Password').fill(account.password)
  await page.getByLabel('Company (optional)').fill('Example Co')
  await page.getByRole('button', { name: 'Create Account' }).click()
  // Signed in at once, on the wizard (ADR 071).
  await expect(page).toHaveURL(urlFor(host, '/onboarding'))
  await expect(
    page.getByText(
      'Account created successfully! Please check your email to confirm your account.',
    ),
  ).toBeVisible()
}

async function signIn(page: Page, host: string, account: { email: string; password: string }) {
  await page.goto(urlFor(host, '/auth/login'))
  await page.getByLabel('Email').fill(account.email)
  await page.getByLabel('Password').fill(account.password)
  await page.getByRole('button', { name: 'Sign In' }).click()
}

async function signOut(page: Page) {
  await page.getByTestId('user-menu-trigger').click()
  await page.getByRole('menuitem', { name: 'Log out' }).click()
  await expect(page).toHaveURL(/\/auth\/login$/)
  await expect(page.getByText('Signed out successfully')).toBeVisible()
}

test('register on an agency (signed in, welcomed as new), sign out, sign in, land on the end-user dashboard', async ({
  page,
}) => {
  const account = { email: `erin-${unique()}@example.test`, password: 'first-pass' }
  // At a phone's width, kept for the run's artifacts (issue 41 point 10).
  await page.setViewportSize({ width: 375, height: 740 })
  await register(page, HOSTS.alpha, account)
  await expect(page.getByRole('heading', { name: 'Create Your Profile' })).toBeVisible()
  await page.screenshot({ path: test.info().outputPath('375-sign-up-wizard.jpg'), quality: 60 })
  // The wizard's work email starts as the account's address (issue 41 point 14), and the card's
  // preview shows it once.
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByLabel('Work email')).toHaveValue(account.email)
  await expect(
    page.getByRole('complementary', { name: 'Card preview' }).getByText(account.email),
  ).toHaveCount(1)
  // The first dashboard welcomes a new person and shows no tile that cannot apply yet.
  await page.goto(urlFor(HOSTS.alpha, '/dashboard/end-user'))
  await expect(page.getByText('Welcome, Erin!')).toBeVisible()
  await expect(page.getByText('Welcome back')).toHaveCount(0)
  await expect(page.getByText('Digital cards', { exact: true })).toBeVisible()
  await expect(page.getByText('Team members', { exact: true })).toHaveCount(0)
  await page.screenshot({ path: test.info().outputPath('375-first-dashboard.jpg'), quality: 60 })
  await page.setViewportSize({ width: 1280, height: 720 })
  // Signing up again with the address: told to sign in, next to the field, nothing signed out.
  await signOut(page)
  await page.goto(urlFor(HOSTS.alpha, '/auth/register'))
  await page.getByLabel('First name').fill('Erin')
  await page.getByLabel('Last name').fill('Again')
  await page.getByLabel('Email').fill(account.email.toUpperCase())
  await page.getByLabel('Password').fill('another-pass')
  await page.getByRole('button', { name: 'Create Account' }).click()
  await expect(
    page.getByText('An account with this email already exists. Please sign in instead.'),
  ).toBeVisible()
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/auth/register'))

  await signIn(page, HOSTS.alpha, account)
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/dashboard/end-user'))
  await expect(page.getByText('Signed in successfully!')).toBeVisible()

  await page.getByTestId('user-menu-trigger').click()
  await expect(page.getByTestId('user-menu-name')).toHaveText('Erin Example')
  await expect(page.getByRole('menu')).toContainText(account.email)
  await expect(page.getByTestId('user-menu-role')).toHaveText('(end user)')
  for (const item of ['Dashboard', 'Profile', 'Digital Cards', 'Settings']) {
    await expect(page.getByRole('menuitem', { name: item })).toBeVisible()
  }
  await page.keyboard.press('Escape')

  // Home shows the signed-in tiles; NFC only where the browser has NDEFReader (not desktop).
  await page.goto(urlFor(HOSTS.alpha, '/'))
  for (const tile of ['Update Profile', 'Digital Cards', 'QR Code']) {
    await expect(page.getByRole('link', { name: new RegExp(`^${tile}`) })).toBeVisible()
  }
  await expect(page.getByRole('link', { name: /^NFC Sharing/ })).toHaveCount(0)
  // With Web NFC the tile appears; on iOS it does not, as the QR screen's NFC button (spec §5).
  await page.addInitScript(() => {
    Object.assign(window, { NDEFReader: class {} })
  })
  await page.reload()
  await expect(page.getByRole('link', { name: /^NFC Sharing/ })).toBeVisible()
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'userAgent', {
      get: () => 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15',
    })
  })
  await page.reload()
  // Hydrated (the tile is decided in the browser), then still no tile.
  await page.waitForFunction(() => 'NDEFReader' in window && '__remixRouter' in window)
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)))
  await expect(page.getByRole('link', { name: /^NFC Sharing/ })).toHaveCount(0)

  await signOut(page)
  await page.goto(urlFor(HOSTS.alpha, '/dashboard/end-user'))
  await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fdashboard%2Fend-user$/)

  await signIn(page, HOSTS.alpha, account)
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/dashboard/end-user'))
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible()
})

// Issue 41 point 1: a message shown as the pointer left a field moved the links below it between
// the press and the release, and the first click landed on nothing. Forms check on submit, then on
// input (app/components/forms.tsx FORM_VALIDATION): leaving a field moves nothing.
test('links under the sign-in forms work on the first click with a field left invalid; messages come on submit, go on input', async ({
  page,
}) => {
  for (const [from, link, to] of [
    ['/auth/login', 'Forgot password', '/auth/forgot-password'],
    ['/auth/login', 'Sign up', '/auth/register'],
    ['/auth/forgot-password', 'Back to sign in', '/auth/login'],
  ] as const) {
    await page.goto(urlFor(HOSTS.alpha, from))
    await waitForHydration(page)
    // The pointer goes to the link from a field still being typed in.
    await page.getByLabel('Email').fill('not-an-email')
    await page.getByRole('link', { name: link, exact: true }).click()
    await expect(page, `${link} on ${from}`).toHaveURL(urlFor(HOSTS.alpha, to))
  }
  await page.goto(urlFor(HOSTS.alpha, '/auth/login'))
  await waitForHydration(page)
  const email = page.getByLabel('Email')
  await email.fill('not-an-email')
  await email.blur()
  await expect(page.getByText('Please enter a valid email address')).toBeHidden()
  await page.getByRole('button', { name: 'Sign In' }).click()
  await expect(page.getByText('Please enter a valid email address')).toBeVisible()
  await email.fill('someone@example.com')
  await expect(page.getByText('Please enter a valid email address')).toBeHidden()
})

test('the same email on another agency is a separate account', async ({ page }) => {
  const email = `dual-${unique()}@example.test`
  await register(page, HOSTS.alpha, { email, password: 'alpha-pass' })
  await signOut(page)
  await register(page, HOSTS.betaSubdomain, { email, password: 'beta-pass' })
  await signOut(page)

  // Alpha's password does not open Beta's account.
  await signIn(page, HOSTS.betaSubdomain, { email, password: 'alpha-pass' })
  await expect(page.getByText('Failed to sign in. Please check your credentials.')).toBeVisible()

  await signIn(page, HOSTS.betaSubdomain, { email, password: 'beta-pass' })
  await expect(page).toHaveURL(urlFor(HOSTS.betaSubdomain, '/dashboard/end-user'))

  // Beta's session is not a session on Alpha.
  await page.goto(urlFor(HOSTS.alpha, '/dashboard/end-user'))
  await expect(page).toHaveURL(/\/auth\/login/)
})

test('forgot password: a branded email in the outbox whose link resets the password once', async ({
  page,
  browser,
}) => {
  const account = { email: `reset-${unique()}@example.test`, password: 'old-password' }
  await register(page, HOSTS.alpha, account)
  await signOut(page)

  await page.goto(urlFor(HOSTS.alpha, '/auth/forgot-password'))
  await page.getByLabel('Email').fill(account.email)
  await page.getByRole('button', { name: 'Send Reset Link' }).click()
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/auth/login'))
  await expect(page.getByText('Password reset link sent! Please check your email.')).toBeVisible()

  // The super admin reads the outbox on the platform host (OUTBOX_PAGE=1).
  const { context: adminContext, page: admin } = await signedInAs(browser, SUPER_ADMIN)
  const email = admin.getByTestId('outbox-email').filter({ hasText: account.email }).first()
  // The job queue's worker writes the reset email a moment after the answer.
  await expect(async () => {
    await admin.goto(urlFor(HOSTS.platform, '/dev/outbox'))
    await expect(email).toContainText(`Reset your ${TENANTS.alpha.name} password`, {
      timeout: 2_000,
    })
  }).toPass()
  // Delivered by the queue: without an email provider, the outbox is the delivery.
  await expect(async () => {
    await admin.reload()
    await expect(email.getByTestId('outbox-state')).toHaveText('Sent', { timeout: 2_000 })
  }).toPass()
  // The outbox shows the link removed: only the account's owner has it (ADR 028).
  await expect(email.getByTestId('outbox-removed-link')).toContainText(
    '/auth/reset-password?token=',
  )
  await expect(email.getByRole('link').filter({ hasText: '/auth/reset-password' })).toHaveCount(0)
  const href = linkIn(
    await newestEmailTo(account.email, `Reset your ${TENANTS.alpha.name} password`),
    '/auth/reset-password?token=',
  )
  expect(href.startsWith(urlFor(HOSTS.alpha, '/auth/reset-password?token='))).toBe(true)
  const html = await email.locator('iframe').getAttribute('srcdoc')
  expect(html).toContain(TENANTS.alpha.primaryColor)
  // The agency's logo, as an absolute URL on the agency's own origin that serves the image.
  const logoSrc = /<img\b[^>]*\bsrc="([^"]+)"/.exec(html ?? '')?.[1] ?? ''
  const mediaUrl = urlFor(HOSTS.alpha, '/media/').replaceAll('.', '\\.')
  expect(logoSrc).toMatch(new RegExp(`^${mediaUrl}[0-9a-f]{64}\\.png$`))
  const logo = await admin.goto(logoSrc)
  expect(logo?.status()).toBe(200)
  expect(logo?.headers()['content-type']).toBe('image/png')
  expect((await sharp(await logo?.body()).metadata()).format).toBe('png')
  await adminContext.close()

  await page.goto(href)
  await page.getByLabel('New password').fill('new-password')
  await page.getByLabel('Confirm password').fill('new-password')
  await page.getByRole('button', { name: 'Reset Password' }).click()
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/auth/login'))
  await expect(
    page.getByText(
      'Password has been reset successfully! You can now log in with your new password.',
    ),
  ).toBeVisible()

  await signIn(page, HOSTS.alpha, { ...account, password: 'old-password' })
  await expect(page.getByText('Failed to sign in. Please check your credentials.')).toBeVisible()
  await signIn(page, HOSTS.alpha, { ...account, password: 'new-password' })
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/dashboard/end-user'))
  await signOut(page)

  // The link works once.
  await page.goto(href)
  await expect(page.getByRole('heading', { name: 'Invalid Reset Link' })).toBeVisible()
  await page.getByRole('link', { name: 'Request New Link' }).click()
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/auth/forgot-password'))
})

test('an expired or missing reset token shows "Invalid Reset Link"', async ({ page }) => {
  await page.goto(urlFor(HOSTS.alpha, `/auth/reset-password?token=${EXPIRED_RESET.token}`))
  await expect(page.getByRole('heading', { name: 'Invalid Reset Link' })).toBeVisible()
  await page.goto(urlFor(HOSTS.alpha, '/auth/reset-password'))
  await expect(page.getByRole('heading', { name: 'Invalid Reset Link' })).toBeVisible()
})

test('a signed-in user of the wrong role gets 403 on another role area', async ({ browser }) => {
  const endUser = ALPHA_ROLE_USERS.find((user) => user.role === 'end_user')
  if (!endUser) throw new Error('no Alpha end user')
  const { context, page } = await signedInAs(browser, endUser, '/dashboard/end-user')
  const response = await page.goto(urlFor(HOSTS.alpha, '/dashboard/agency'))
  expect(response?.status()).toBe(403)
  await context.close()
})

/** The link of the newest confirmation email to `to`, from its inbox. */
async function confirmationLink(to: string) {
  const email = await newestEmailTo(to, `Confirm your email for ${TENANTS.alpha.name}`)
  return { href: linkIn(email, '/auth/confirm-email?token='), html: email.html ?? '' }
}

test('sign-up confirmation: the emailed link confirms once and the banner is gone', async ({
  page,
}) => {
  const account = { email: `confirm-${unique()}@example.test`, password: 'confirm-pass' }
  await register(page, HOSTS.alpha, account)
  // Signed in without waiting for the confirmation; the banner asks for it.
  await page.goto(urlFor(HOSTS.alpha, '/dashboard/end-user'))
  const banner = page.getByTestId('email-confirmation-banner')
  await expect(banner).toContainText('Your email address is not confirmed yet.')
  await expect(banner.getByRole('button', { name: 'Resend confirmation email' })).toBeVisible()
  await page.goto(urlFor(HOSTS.alpha, '/profile'))
  await expect(page.getByText('Email not confirmed')).toBeVisible()

  const { href, html } = await confirmationLink(account.email)
  expect(href.startsWith(urlFor(HOSTS.alpha, '/auth/confirm-email?token='))).toBe(true)
  expect(html).toContain(TENANTS.alpha.primaryColor)

  await page.goto(href)
  await expect(page.getByRole('heading', { name: 'Confirm your email' })).toBeVisible()
  await page.getByRole('button', { name: 'Confirm my email' }).click()
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/dashboard/end-user'))
  await expect(page.getByText('Your email address has been confirmed.')).toBeVisible()
  await expect(page.getByTestId('email-confirmation-banner')).toHaveCount(0)
  await page.goto(urlFor(HOSTS.alpha, '/profile'))
  await expect(page.getByText('Email confirmed', { exact: true })).toBeVisible()
  await page.getByRole('tab', { name: 'Activity' }).click()
  await expect(page.getByText('Confirmed your email address')).toBeVisible()

  // The second time the link is refused, with the way to a new one.
  await signOut(page)
  await page.goto(href)
  await expect(page.getByRole('heading', { name: 'Invalid Confirmation Link' })).toBeVisible()
  await expect(page.getByText('This confirmation link is invalid or has expired.')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Sign in to request a new link' })).toBeVisible()
})

test('the confirmation banner: resend answers in a toast; dismiss holds without JavaScript', async ({
  browser,
}) => {
  // An account as a sign-up leaves it, its address not confirmed yet (e2e/spec-accounts.ts).
  const account = SPEC_ACCOUNTS.banner
  const { context, page } = await signedInAs(browser, account, '/dashboard/end-user', {
    javaScript: false,
  })
  const banner = page.getByTestId('email-confirmation-banner')
  await banner.getByRole('button', { name: 'Dismiss' }).click()
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/dashboard/end-user'))
  await expect(page.getByTestId('email-confirmation-banner')).toHaveCount(0)
  await page.goto(urlFor(HOSTS.alpha, '/profile'))
  await expect(page.getByTestId('email-confirmation-banner')).toHaveCount(0)
  await expect(page.getByText('Email not confirmed')).toBeVisible()
  await context.close()

  // With JavaScript: the resend button's answer is a toast.
  const { context: jsContext, page: js } = await signedInAs(browser, account, '/dashboard/end-user')
  await js
    .getByTestId('email-confirmation-banner')
    .getByRole('button', { name: 'Resend confirmation email' })
    .click()
  await expect(js.getByText('Confirmation email sent! Please check your email.')).toBeVisible()
  await jsContext.close()
})

// Issue 41 point 9: on Alpha's red brand a destructive button is a red outline, never the brand's
// own fill; on the platform's indigo it is filled red. At a phone's width, screenshots kept.
test('destructive buttons keep a red of their own: an outline on a red brand, a fill elsewhere', async ({
  browser,
}) => {
  for (const [user, outlined] of [
    [ALPHA_ROLE_USERS.find((candidate) => candidate.role === 'end_user'), true],
    [PLATFORM_ROLE_USERS.find((candidate) => candidate.role === 'end_user'), false],
  ] as const) {
    if (!user) throw new Error('no end user')
    const { context, page } = await signedInAs(browser, user, '/profile?tab=security', {})
    await page.setViewportSize({ width: 375, height: 740 })
    const danger = page.getByRole('button', { name: 'Delete My Account' })
    await expect(danger).toBeVisible()
    const style = await danger.evaluate((button) => {
      const computed = getComputedStyle(button)
      return {
        background: computed.backgroundColor,
        color: computed.color,
        border: computed.borderTopColor,
      }
    })
    // The edge is the danger red on both; the fill is red or nothing, never the brand.
    expect(style.border, user.host).toBe('rgb(220, 38, 38)')
    if (outlined) {
      expect(style).toMatchObject({ background: 'rgba(0, 0, 0, 0)', color: 'rgb(185, 28, 28)' })
    } else {
      expect(style).toMatchObject({ background: 'rgb(220, 38, 38)', color: 'rgb(255, 255, 255)' })
    }
    await page.screenshot({
      path: test.info().outputPath(`375-danger-${user.host}.jpg`),
      quality: 60,
    })
    await context.close()
  }
})

// Issue 41 point 15: the team_admin role reads as the spec names it, the same in the sidebar's
// badge and the user menu.
test('a team member (team_admin) is called a Team Member in the sidebar and the user menu', async ({
  browser,
}) => {
  const member = ALPHA_ROLE_USERS.find((user) => user.role === 'team_admin')
  if (!member) throw new Error('no Alpha team member')
  const { context, page } = await signedInAs(browser, member, '/dashboard/team-member')
  await expect(page.getByTestId('sidebar').getByText('Team Member', { exact: true })).toBeVisible()
  await page.getByTestId('user-menu-trigger').click()
  await expect(page.getByTestId('user-menu-role')).toHaveText('(team member)')
  await context.close()
})

// Issue 41 point 17: at a phone's width the profile's tab bar scrolls, with a shade at the edge
// that has more, and a tab chosen by its link is scrolled into the bar's view.
test('tab bars at 375 px: they scroll with a hint, and the chosen tab is in view', async ({
  browser,
}) => {
  const user = ALPHA_ROLE_USERS.find((candidate) => candidate.role === 'end_user')
  if (!user) throw new Error('no end user')
  const { context, page } = await signedInAs(browser, user, '/profile?tab=notifications')
  await page.setViewportSize({ width: 375, height: 740 })
  await page.reload()
  const bar = page.getByRole('tablist', { name: /./ }).first()
  const geometry = () =>
    bar.evaluate((list) => ({
      overflows: list.scrollWidth > list.clientWidth,
      attachments: getComputedStyle(list).backgroundAttachment,
      images: getComputedStyle(list).backgroundImage,
    }))
  const { overflows, attachments, images } = await geometry()
  expect(overflows).toBe(true)
  // Covers that scroll with the tabs, shades that stay at the edges.
  expect(attachments).toBe('local, local, scroll, scroll')
  expect(images).toContain('radial-gradient')
  // The chosen tab sits wholly inside the bar's visible part.
  const active = page.getByRole('tab', { selected: true })
  await expect(active).toHaveText(/Notifications/)
  await expect
    .poll(async () => {
      const [tab, list] = await Promise.all([active.boundingBox(), bar.boundingBox()])
      return Boolean(
        tab && list && tab.x >= list.x - 1 && tab.x + tab.width <= list.x + list.width + 1,
      )
    })
    .toBe(true)
  await page.screenshot({ path: test.info().outputPath('375-profile-tabs.jpg'), quality: 60 })
  await context.close()
})

// Issue 41 point 11: one profile screen per person. The home tile and the user menu open the same
// screen, the role's (ADR 078); /profile and an old link's ?tab= lead there too. Account safety
// (password, two-factor and passkeys, data export, deletion) sits under Security, and the
// Business Card tab shows the card with a link to its editor instead of a second form of its
// fields. At a phone's width, light and dark, with the screenshots kept.
const ONE_PROFILE_USERS = [
  ALPHA_ROLE_USERS.find((candidate) => candidate.role === 'end_user'),
  // The end-user area in the dark theme, on the platform.
  PLATFORM_ROLE_USERS.find((candidate) => candidate.role === 'super_admin_team'),
  ALPHA_ROLE_USERS.find((candidate) => candidate.role === 'agency_admin'),
]

for (const user of ONE_PROFILE_USERS) {
  if (!user) throw new Error('no role user')
  test(`${user.role}: one profile screen from the tile and the menu, its safety under Security`, async ({
    browser,
  }) => {
    test.setTimeout(90_000)
    const { context, page } = await signedInAs(browser, user, '/')
    await page.setViewportSize({ width: 375, height: 740 })
    const own = urlFor(user.host, rolePaths(user.role).profile)
    const shot = (name: string) =>
      page.screenshot({
        path: test.info().outputPath(`375-profile-${user.role}-${name}.jpg`),
        quality: 60,
      })
    const noSidewaysScroll = async (where: string) =>
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
        ),
        `no sideways scroll at 375 px: ${where}`,
      ).toBe(false)

    // From the home tile.
    await page.getByRole('link', { name: /^Update Profile/ }).click()
    await expect(page).toHaveURL(own)
    const heading = page.getByRole('heading', { level: 1 })
    await expect(heading).toBeVisible()
    // The URL changes before the page renders: wait for the profile's tab list before reading
    // the heading and the tabs' names (the dashboard's heading was read here on a busy machine).
    await expect(page.getByRole('tab', { name: 'Security' })).toBeVisible()
    const title = await heading.textContent()
    const tabs = await page.getByRole('tab').allTextContents()
    await noSidewaysScroll('profile from the tile')
    await shot('from-tile')

    // From the user menu: the very same screen.
    await page.goto(urlFor(user.host, '/'))
    await page.getByTestId('user-menu-trigger').click()
    await page.getByRole('menuitem', { name: 'Profile' }).click()
    await expect(page).toHaveURL(own)
    await expect(heading).toHaveText(title ?? '')
    await expect(page.getByRole('tab')).toHaveText(tabs)
    await noSidewaysScroll('profile from the menu')
    await shot('from-menu')

    // An old link to /profile with its tab opens the tab there.
    await page.goto(urlFor(user.host, '/profile?tab=security'))
    await expect(page).toHaveURL(`${own}?tab=security`)
    await expect(page.getByRole('tab', { name: 'Security', selected: true })).toBeVisible()
    const security = page.getByRole('tabpanel')
    await expect(security.getByRole('heading', { name: 'Change Password' })).toBeVisible()
    await expect(security.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible()
    await expect(security.getByText(/passkey/)).toBeVisible()
    await expect(security.getByRole('heading', { name: 'Download my data' })).toBeVisible()
    await expect(security.getByRole('button', { name: 'Delete My Account' })).toBeVisible()
    await noSidewaysScroll('Security tab')
    await shot('security')
    // Two-factor and passkeys are managed one link away, and the way back is the same tab.
    await security.getByRole('link', { name: 'Manage two-factor authentication' }).click()
    await expect(page.getByRole('heading', { name: 'Passkeys' })).toBeVisible()
    await page.getByRole('link', { name: 'Back to Security' }).click()
    await expect(page).toHaveURL(`${own}?tab=security`)

    // The card's fields are the editor's: the profile shows the card and leads there.
    if (tabs.includes('Business Card')) {
      await page.getByRole('tab', { name: 'Business Card' }).click()
      await expect(page.getByTestId('card-display')).toBeVisible()
      await expect(page.getByLabel('Headline or short bio')).toHaveCount(0)
      await expect(page.getByRole('button', { name: 'Save Card Details' })).toHaveCount(0)
      await noSidewaysScroll('Business Card tab')
      await shot('card')
      await page.getByRole('link', { name: 'Edit Card Details' }).click()
      await expect(page.getByRole('heading', { name: 'Edit Digital Card' })).toBeVisible()
    }
    await context.close()
  })
}
