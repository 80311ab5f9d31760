import { expect, type Locator, type Page, test } from '@playwright/test'
import sharp from 'sharp'
import { HOSTS, urlFor } from './fixtures'
import { expectAccessible, openAs } from './page-helpers'
import { SPEC_ACCOUNTS } from './spec-accounts'

// Each test starts as a new end user of its own, as a sign-up leaves them, already signed in
// (seeded with a session, e2e/spec-accounts.ts): signing up is e2e/accounts.spec.ts's journey.
const DASHBOARD = '/dashboard/end-user'

async function photo(color: string) {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: color } })
    .jpeg()
    .toBuffer()
}

/** Drops a file on a drop zone the way a drag from the desktop ends: dragenter, then drop. */
async function dropImage(zone: Locator, file: { name: string; mimeType: string; buffer: Buffer }) {
  const dataTransfer = await zone.page().evaluateHandle(
    ({ base64, name, mimeType }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
      const transfer = new DataTransfer()
      transfer.items.add(new File([bytes], name, { type: mimeType }))
      return transfer
    },
    { base64: file.buffer.toString('base64'), name: file.name, mimeType: file.mimeType },
  )
  await zone.dispatchEvent('dragenter', { dataTransfer })
  await expect(zone).toContainText('Drop the image here')
  await zone.dispatchEvent('drop', { dataTransfer })
}

async function walkWizard(page: Page, values: { first: string; last: string; company: string }) {
  await page.getByLabel('First name').fill(values.first)
  await page.getByLabel('Last name').fill(values.last)
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByText('Step 2 of 5')).toBeVisible()
  await page.getByLabel('Work email').fill('work@example.test')
  await page.getByLabel('Phone number').fill('+1 555 0199')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByText('Step 3 of 5')).toBeVisible()
  await page.getByLabel('Company').fill(values.company)
  await page.getByLabel('Job title').fill('Director')
  await page.getByLabel('Website').fill('example.com')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByText('Step 4 of 5')).toBeVisible()
}

test('wizard with a real upload, then duplicate, new, default and delete', async ({ page }) => {
  test.setTimeout(90_000)
  await openAs(page, SPEC_ACCOUNTS.cardWizard, DASHBOARD)
  await page.getByRole('link', { name: 'Get Started' }).click()
  await expect(page.getByRole('heading', { name: 'Create Your Profile' })).toBeVisible()

  // Step 1 starts from the profile and refuses empty names.
  await expect(page.getByLabel('First name')).toHaveValue('Casey')
  await page.getByLabel('First name').fill('')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByText('Please enter your first and last name')).toBeVisible()

  // Issue 30: a live card preview beside each step, on the agency's colour (Alpha's #e11d48),
  // below the step on a phone, and never a sideways scroll.
  const livePreview = page.getByRole('complementary', { name: 'Card preview' })
  await page.getByLabel('First name').fill('Casimir')
  await expect(livePreview.getByRole('heading', { name: /^Casimir\b/ })).toBeVisible()
  await expect(livePreview.getByTestId('card-display')).toHaveCSS(
    'background-color',
    'rgb(225, 29, 72)',
  )
  const continueButton = page.getByRole('button', { name: 'Continue' })
  const box = async (locator: Locator) => (await locator.boundingBox()) ?? { x: 0, y: 0 }
  expect((await box(livePreview)).x).toBeGreaterThan((await box(continueButton)).x)
  await page.setViewportSize({ width: 375, height: 740 })
  expect((await box(livePreview)).y).toBeGreaterThan((await box(continueButton)).y)
  expect(
    await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    ),
  ).toBe(0)
  await page.setViewportSize({ width: 1280, height: 720 })

  await walkWizard(page, { first: 'Casey', last: 'Cardmaker', company: 'Alpha Widgets' })
  // Issue 41 point 17: the preview's action rows (work email, phone and its label) keep white
  // text at 4.5:1 on the brand's red, not only the bare card colour.
  await expect(livePreview.locator('[data-action="email"]')).toBeVisible()
  await expectAccessible(page, "the wizard's card preview on Alpha's red")
  // The drop zone (issue 30 point 6): the size rule is shown, a file over it is refused in the
  // browser with its size before anything is sent.
  const pictureZone = page
    .getByTestId('image-drop-zone')
    .filter({ has: page.getByLabel('Profile picture') })
  await expect(pictureZone).toContainText('JPG, PNG, WebP or GIF, up to 5MB.')
  page.on('filechooser', () => {})
  let uploads = 0
  await page.route('**/resources/upload', async (route) => {
    uploads++
    // Slow enough to see the progress while the answer is on its way.
    await new Promise((resolve) => setTimeout(resolve, 800))
    await route.continue()
  })
  await page.getByLabel('Profile picture').setInputFiles({
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(6 * 1024 * 1024),
  })
  await expect(page.getByText('"huge.png" is 6 MB; the limit is 5 MB.')).toBeVisible()
  await expect(
    page.getByText('Invalid file. Please upload a JPG, PNG, or WebP image under 5MB.'),
  ).toBeVisible()
  expect(uploads).toBe(0)
  // The keyboard's way: Space or Enter on the focused zone opens the browser's file picker.
  // (Playwright intercepts the picker once a listener exists, which it sets up asynchronously:
  // the listener added early above has it in place before the first key.)
  await page.getByLabel('Profile picture').focus()
  const spaceChooser = page.waitForEvent('filechooser')
  await page.keyboard.press(' ')
  await spaceChooser
  const chooser = page.waitForEvent('filechooser')
  await page.keyboard.press('Enter')
  await (await chooser).setFiles({
    name: 'me.jpg',
    mimeType: 'image/jpeg',
    buffer: await photo('#c026d3'),
  })
  await expect(page.getByRole('progressbar', { name: 'Uploading Profile picture' })).toBeVisible()
  await expect(page.getByAltText('Profile picture preview')).toHaveAttribute(
    'src',
    /^\/media\/[0-9a-f]{64}\.jpg$/,
  )
  expect(uploads).toBe(1)
  await expect(page.getByText('"huge.png" is 6 MB; the limit is 5 MB.')).toHaveCount(0)
  await page.unrouteAll()
  await expect(livePreview.getByRole('img', { name: 'Casey Cardmaker' })).toHaveAttribute(
    'src',
    /^\/media\//,
  )
  await expect(page.getByRole('radio', { name: 'Brand' })).toBeChecked()
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByText('Step 5 of 5')).toBeVisible()
  const review = page.getByTestId('card-display')
  await expect(review).toContainText('Casey Cardmaker')
  // The review card stands out from the white page: it is on the agency's colour.
  await expect(review).toHaveCSS('background-color', 'rgb(225, 29, 72)')
  await expect(review).toContainText('Alpha Widgets')
  await expect(page.getByRole('link', { name: 'Edit Contact' })).toHaveAttribute(
    'href',
    '/onboarding?step=2',
  )
  await expect(page.getByRole('link', { name: 'Edit Images' })).toHaveAttribute(
    'href',
    '/onboarding?step=4',
  )
  await page.getByRole('button', { name: 'Create Profile' }).click()
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/qrcode'))
  await expect(page.getByText('Profile created successfully!')).toBeVisible()
  const picture = page.getByTestId('card-display').getByRole('img', { name: 'Casey Cardmaker' })
  expect(await picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(500)

  // Second card: duplicate from the profile.
  await page.getByRole('link', { name: 'Manage Your Digital Cards' }).click()
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/dashboard/end-user/digital-cards'))
  await page.getByRole('button', { name: 'Create Card' }).first().click()
  await page.getByLabel('Card title').fill('Duplicate card')
  await page.getByRole('button', { name: 'Create', exact: true }).click()
  await expect(page).toHaveURL(/\/qrcode\/[0-9a-f-]{36}$/)
  await expect(page.getByText('Digital card created successfully')).toBeVisible()

  // Third card: new, through the wizard in card-creation mode.
  await page.goto(urlFor(HOSTS.alpha, '/dashboard/end-user/digital-cards'))
  await page.getByRole('button', { name: 'Create Card' }).first().click()
  await page.getByLabel('Card title').fill('Side project')
  await page.getByLabel('Create new with the wizard').check()
  await page.getByRole('button', { name: 'Create', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Create New Digital Card' })).toBeVisible()
  await walkWizard(page, { first: 'Casey', last: 'Cardmaker', company: 'Side Co' })
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.getByRole('button', { name: 'Create Card' }).click()
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/dashboard/end-user/digital-cards'))
  await expect(page.getByText('Digital card created successfully!')).toBeVisible()

  const items = page.getByTestId('card-item')
  await expect(items).toHaveCount(3)
  const first = items.filter({ hasText: "Casey's Card" })
  const third = items.filter({ hasText: 'Side project' })
  await expect(first.getByText('Default', { exact: true })).toBeVisible()
  await expect(first.getByRole('button', { name: 'Set as Default' })).toHaveCount(0)

  await third.getByRole('button', { name: 'Set as Default' }).click()
  await expect(page.getByText('Default card updated')).toBeVisible()
  await expect(
    items.filter({ hasText: 'Side project' }).getByText('Default', { exact: true }),
  ).toBeVisible()
  await expect(
    items.filter({ hasText: "Casey's Card" }).getByText('Default', { exact: true }),
  ).toHaveCount(0)

  await items
    .filter({ hasText: 'Side project' })
    .getByRole('button', { name: /^Delete/ })
    .click()
  await expect(page.getByText('Are you sure you want to delete this card?')).toBeVisible()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Card deleted successfully')).toBeVisible()
  await expect(items).toHaveCount(2)
  await expect(
    items.filter({ hasText: "Casey's Card" }).getByText('Default', { exact: true }),
  ).toBeVisible()

  // Archive the default card (ADR 095): asked first, listed apart, its page gone, the default
  // handed to the other card; restored, it is back and live again.
  await items
    .filter({ hasText: "Casey's Card" })
    .getByRole('button', { name: /^Archive/ })
    .click()
  await expect(page.getByText('Its views and contacts are kept.')).toBeVisible()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Archive' }).click()
  await expect(page.getByText('Card archived: its link and QR code show nothing')).toBeVisible()
  await expect(items).toHaveCount(1)
  await expect(items.getByText('Default', { exact: true })).toBeVisible()
  const archived = page.getByTestId('archived-card').filter({ hasText: "Casey's Card" })
  await expect(archived).toBeVisible()
  const editHref = (await archived.getByRole('link', { name: /^Edit/ }).getAttribute('href')) ?? ''
  const archivedId = editHref.split('/').pop() ?? ''
  const cardPage = urlFor(HOSTS.alpha, `/card/${archivedId}`)
  expect((await page.goto(cardPage))?.status()).toBe(404)
  await page.goto(urlFor(HOSTS.alpha, '/dashboard/end-user/digital-cards'))
  await archived.getByRole('button', { name: /^Restore/ }).click()
  await expect(page.getByText('Card restored')).toBeVisible()
  await expect(items).toHaveCount(2)
  await expect(page.getByTestId('archived-card')).toHaveCount(0)
  expect((await page.goto(cardPage))?.status()).toBe(200)
})

test('card text stays readable on light, dark, gradient and image backgrounds', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000)
  const cody = SPEC_ACCOUNTS.cardBackgrounds
  await openAs(page, cody, '/dashboard/end-user/digital-cards')
  await page.getByRole('button', { name: 'Create Card' }).first().click()
  await page.getByRole('button', { name: 'Create', exact: true }).click()
  await expect(page).toHaveURL(/\/qrcode\/[0-9a-f-]{36}$/)
  await page.getByRole('link', { name: 'Edit' }).click()
  await expect(page.getByRole('link', { name: 'Card Details' })).toBeVisible()
  await page.getByRole('link', { name: 'Visuals & Images' }).click()
  const preview = page.getByRole('complementary', { name: 'Preview' }).getByTestId('card-display')
  // The Visuals tab ends with its own action (issue 30): Save below the background's image.
  const next = page.getByRole('button', { name: 'Save', exact: true })
  await expect(page.getByLabel('Background image')).toBeAttached()
  await expect(next).toBeVisible()
  const nextBox = await next.boundingBox()
  const lastZone = await page.getByTestId('image-drop-zone').last().boundingBox()
  expect(nextBox?.y ?? 0).toBeGreaterThan((lastZone?.y ?? 0) + (lastZone?.height ?? 0))

  const cases = [
    ['Dark', 'light', /rgb\(255, 255, 255\)/],
    // Tailwind's gray-900 (near black), in oklch.
    ['White', 'dark', /oklch\(0\.21 /],
    ['Blue Ocean', 'light', /rgb\(255, 255, 255\)/],
  ] as const
  for (const [swatch, tone, color] of cases) {
    await page.getByTitle(swatch, { exact: true }).click()
    await expect(page.getByText('Background updated').last()).toBeVisible()
    await expect(preview).toHaveAttribute('data-text-tone', tone)
    await expect(
      preview.getByRole('heading', { name: `${cody.firstName} ${cody.lastName}` }),
    ).toHaveCSS('color', color)
    await testInfo.attach(`card-${swatch}`, {
      body: await preview.screenshot(),
      contentType: 'image/png',
    })
  }

  // Dropped on the zone, as a file dragged from the desktop (a drop event with a DataTransfer).
  await dropImage(
    page.getByTestId('image-drop-zone').filter({ has: page.getByLabel('Background image') }),
    { name: 'bg.jpg', mimeType: 'image/jpeg', buffer: await photo('#fde68a') },
  )
  await expect(preview).toHaveAttribute('data-text-tone', 'light')
  await page.getByRole('button', { name: 'Apply Changes' }).click()
  await expect(page.getByText('Changes applied successfully')).toBeVisible()
  await testInfo.attach('card-image', {
    body: await preview.screenshot(),
    contentType: 'image/png',
  })

  // Persisted: a reload shows the image background.
  await page.reload()
  await expect(preview).toHaveAttribute('data-text-tone', 'light')
  await expect(preview).toHaveCSS('background-image', /\/media\/[0-9a-f]{64}\.jpg/)

  // Visuals' Save saves and stays (issue 41 point 5); the review looks, and Done returns to the list.
  await next.click()
  await expect(page.getByText('Changes saved')).toBeVisible()
  await page.getByRole('link', { name: 'Review Card' }).click()
  await expect(page.getByRole('heading', { name: 'Review Card' })).toBeVisible()
  await page.getByRole('link', { name: 'Done' }).click()
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/dashboard/end-user/digital-cards'))
})

test('an unknown card id in the editor says so and returns to the list', async ({ page }) => {
  await openAs(page, SPEC_ACCOUNTS.cardMissing, DASHBOARD)
  await page.goto(
    urlFor(
      HOSTS.alpha,
      '/dashboard/end-user/digital-cards/edit/00000000-0000-4000-8000-000000000000',
    ),
  )
  await expect(page).toHaveURL(urlFor(HOSTS.alpha, '/dashboard/end-user/digital-cards'))
  await expect(page.getByText('Digital card not found')).toBeVisible()
  await expect(page.getByText('No digital cards yet')).toBeVisible()
})
