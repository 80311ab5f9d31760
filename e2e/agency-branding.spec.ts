// Issue 14's acceptance, through the real UI: the owner of a new agency (as the super admin's Add
// Agency leaves it, seeded with its owner signed in: e2e/spec-accounts.ts; adding one and the
// owner's first sign-in are e2e/super-admin-agencies.spec.ts's) uploads a logo, sets colours and
// a custom domain, verifies it against a local DNS server; the custom domain then serves the
// branded site; the super admin deactivates the agency and both its hosts show "site
// unavailable".
import { expect, type Page, test } from '@playwright/test'
import sharp from 'sharp'
import { type FakeDns, startFakeDnsWhenFree } from '../tests/fake-dns'
import { dnsPort, E2E_DOMAIN_SUFFIX, SUPER_ADMIN, urlFor } from './fixtures'
import { expectAccessible, signedInAs, waitForHydration } from './page-helpers'
import { SPEC_AGENCIES } from './spec-accounts'

test.describe.configure({ timeout: 720_000 })

const AGENCIES = '/dashboard/super-admin/agencies'
const BRANDING = '/dashboard/agency/branding'
const unique = () => Math.random().toString(36).slice(2, 8)

/** The DNS server lives only as long as the test that needs it (parallel workers share ports). */
async function withDns<T>(work: (dns: FakeDns) => Promise<T>): Promise<T> {
  const dns = await startFakeDnsWhenFree(dnsPort())
  try {
    return await work(dns)
  } finally {
    await dns.close()
  }
}

async function rowAction(page: Page, name: string, item: string) {
  await page.getByRole('button', { name: `Actions for ${name}` }).click()
  await page.getByRole('menuitem', { name: item }).click()
}

const brandPrimary = (page: Page) =>
  page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue('--brand-primary').trim(),
  )

test('an agency owner brands the site and verifies a custom domain that then serves it', async ({
  browser,
}) => {
  const suffix = unique()
  const agency = SPEC_AGENCIES.branding
  const { name, slug } = agency
  const domain = `${slug}.${E2E_DOMAIN_SUFFIX}`
  const { context, page: owner } = await signedInAs(browser, agency.owner, '/dashboard/agency')

  // The sidebar's Branding entry; every element the spec names on the screen.
  await owner.getByRole('link', { name: 'Branding' }).first().click()
  await expect(owner).toHaveURL(urlFor(`${slug}.localhost`, BRANDING))
  await waitForHydration(owner)
  await expect(owner.getByRole('heading', { name: 'Branding', level: 1 })).toBeVisible()
  for (const tab of ['Visual Branding', 'Domain Settings', 'Preview']) {
    await expect(owner.getByRole('tab', { name: tab })).toBeVisible()
  }
  await expect(owner.getByRole('button', { name: 'Reset' })).toBeVisible()
  await expect(owner.getByRole('button', { name: 'Save Changes' })).toBeVisible()
  await expect(owner.getByLabel('Logo', { exact: true })).toBeVisible()
  await expect(owner.getByLabel('Favicon', { exact: true })).toBeVisible()
  await expect(owner.getByLabel('Primary Color', { exact: true })).toHaveValue('#3b82f6')
  await expect(owner.getByLabel('Secondary Color', { exact: true })).toHaveValue('#10b981')
  await expect(owner.getByLabel('Primary Color picker')).toBeVisible()
  await expectAccessible(owner, 'visual branding')

  // A logo through the upload pipeline, and new colours; the preview follows them.
  const logo = await sharp({
    create: { width: 400, height: 160, channels: 4, background: '#0f766e' },
  })
    .png()
    .toBuffer()
  await owner
    .getByLabel('Logo', { exact: true })
    .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo })
  await expect(owner.getByRole('img', { name: 'Logo preview' })).toHaveAttribute(
    'src',
    /^\/media\/[0-9a-f]{64}\.png$/,
  )
  await owner.getByLabel('Primary Color', { exact: true }).fill('#0f766e')
  await owner.getByLabel('Secondary Color', { exact: true }).fill('#f97316')
  await owner.getByRole('tab', { name: 'Preview' }).click()
  const preview = owner.getByTestId('branding-preview')
  const previewSubmit = owner.getByTestId('branding-preview-submit')
  await expect(previewSubmit).toHaveCSS('background-color', 'rgb(15, 118, 110)')
  // The real sign-in page's header and words (issue 41 point 17), not a look-alike's.
  await expect(preview.locator(`img[alt="${name}"]`)).toBeVisible()
  await expect(
    preview.getByText('Welcome back. Sign in to manage and share your cards.'),
  ).toBeVisible()
  await expect(preview.getByText('Forgot password')).toBeVisible()
  await expectAccessible(owner, 'preview')
  await preview.screenshot({ path: test.info().outputPath('branding-preview.png') })

  // Reset puts the saved values back; then the colours again.
  await owner.getByRole('button', { name: 'Reset' }).click()
  await expect(owner.getByText('Preview Reset')).toBeVisible()
  await expect(previewSubmit).toHaveCSS('background-color', 'rgb(59, 130, 246)')
  await owner.getByRole('tab', { name: 'Visual Branding' }).click()
  await owner
    .getByLabel('Logo', { exact: true })
    .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo })
  await expect(owner.getByRole('img', { name: 'Logo preview' })).toHaveAttribute(
    'src',
    /^\/media\//,
  )
  await owner
    .getByLabel('Favicon', { exact: true })
    .setInputFiles({ name: 'icon.png', mimeType: 'image/png', buffer: logo })
  await expect(owner.getByRole('img', { name: 'Favicon preview' })).toHaveAttribute(
    'src',
    /^\/media\//,
  )
  await owner.getByLabel('Primary Color', { exact: true }).fill('#0f766e')
  await owner.getByLabel('Secondary Color', { exact: true }).fill('#f97316')

  // A colour that is not hex is refused next to its field.
  await owner.getByLabel('Secondary Color', { exact: true }).fill('orange')
  await owner.getByRole('button', { name: 'Save Changes' }).click()
  await expect(owner.getByText('Please enter a colour such as #3b82f6')).toBeVisible()
  await owner.getByLabel('Secondary Color', { exact: true }).fill('#f97316')

  // Domain Settings: company name, custom domain, white labeling; then save.
  await owner.getByRole('tab', { name: 'Domain Settings' }).click()
  await expect(owner.getByLabel('Company Name')).toHaveValue(name)
  await expect(owner.getByLabel('Activate white labeling')).toBeChecked()
  await expect(owner.getByRole('heading', { name: 'DNS instructions' })).toBeVisible()
  await owner.getByLabel('Company Name').fill(`${name} Studio`)
  await owner.getByLabel('Custom Domain').fill(domain)
  // Legal and support (issue 17 point 5): an address that is not https is refused at its field.
  await expect(owner.getByRole('heading', { name: 'Legal and support' })).toBeVisible()
  await owner.getByLabel('Privacy Policy URL').fill('http://legal.example.test/privacy')
  await owner.getByRole('button', { name: 'Save Changes' }).click()
  await expect(owner.getByText('Please enter a valid URL starting with https://')).toBeVisible()
  await owner.getByLabel('Privacy Policy URL').fill(`https://legal-${suffix}.example.test/privacy`)
  await owner.getByLabel('Terms of Service URL').fill(`https://legal-${suffix}.example.test/terms`)
  await owner.getByLabel('Support Email').fill(`help-${suffix}@example.test`)
  await owner.getByRole('button', { name: 'Save Changes' }).click()
  await expect(owner.getByText('Branding Updated')).toBeVisible()
  // Applied at once to every page of the host.
  expect(await brandPrimary(owner)).toBe('#0f766e')
  await expect(owner.getByRole('link', { name: `${name} Studio home` })).toBeVisible()

  // The DNS instructions: CNAME target and the TXT record; pending until verified.
  await owner.getByRole('tab', { name: 'Domain Settings' }).click()
  await expect(owner.getByText('Pending verification')).toBeVisible()
  const records = owner.getByRole('table', { name: `DNS records for ${domain}` })
  await expect(records.getByRole('row', { name: /CNAME/ })).toContainText('cname.localhost')
  const txt = records.getByRole('row', { name: /TXT/ })
  const txtName = (await txt.getByRole('cell').nth(1).textContent()) ?? ''
  const txtValue = (await txt.getByRole('cell').nth(2).textContent()) ?? ''
  // A neutral record (issue 17): the agency's public DNS must not name the platform.
  expect(txtName).toBe(`_domain-verification.${domain}`)
  expect(txtValue).toMatch(/^domain-verification=[0-9a-f]{32}$/)
  await expectAccessible(owner, 'domain settings')

  // The custom domain serves nothing until it is verified.
  const visitor = await browser.newContext()
  const guest = await visitor.newPage()
  await guest.goto(urlFor(domain, '/auth/login'))
  await expect(guest.getByRole('heading', { name: 'No such site' })).toBeVisible()

  await withDns(async (dns) => {
    await owner.getByRole('button', { name: 'Verify domain' }).click()
    await expect(owner.getByText('The verification record was not found yet.')).toBeVisible()
    dns.setTxt(txtName, [txtValue])
    await owner.getByRole('button', { name: 'Verify domain' }).click()
    await expect(owner.getByText('Domain verified')).toBeVisible()
    await expect(owner.getByText('Verified', { exact: true })).toBeVisible()
    // Issue 41 point 17: when the records were checked, said as people say it.
    await expect(owner.locator('time', { hasText: 'less than a minute ago' }).first()).toBeVisible()
  })

  // The profile's Agency Branding tab summarises what was saved and leads back to the screen;
  // its Teams tab leads to Team Members.
  await owner.goto(urlFor(`${slug}.localhost`, '/profile/agency'))
  await waitForHydration(owner)
  await owner.getByRole('tab', { name: 'Agency Branding' }).click()
  const summary = owner.getByTestId('agency-branding')
  await expect(summary).toContainText(`${name} Studio`)
  await expect(summary).toContainText('#0f766e')
  await expect(summary).toContainText(`${domain} (Verified)`)
  await expect(summary).toContainText('On: your sites show your name, colours and logo')
  await expect(summary.getByRole('img', { name: `${name} Studio logo` })).toBeVisible()
  await owner.getByRole('tab', { name: 'Teams' }).click()
  await expect(owner.getByRole('link', { name: 'Open Team Members' })).toBeVisible()
  await owner.getByRole('tab', { name: 'Agency Branding' }).click()
  await owner.getByRole('link', { name: 'Edit branding' }).click()
  await expect(owner).toHaveURL(urlFor(`${slug}.localhost`, BRANDING))
  await expect(owner.getByRole('heading', { name: 'Branding', level: 1 })).toBeVisible()

  // The custom domain now serves the branded site.
  await guest.goto(urlFor(domain, '/auth/login'))
  await expect(guest.getByRole('link', { name: `${name} Studio home` })).toBeVisible()
  await expect(guest.getByRole('img', { name: `${name} Studio` })).toBeVisible()
  expect(await brandPrimary(guest)).toBe('#0f766e')
  await expect(guest.locator('link[rel="icon"]')).toHaveAttribute(
    'href',
    /^\/media\/[0-9a-f]{64}\.png$/,
  )
  // The agency's legal links and support address in the footer and on the sign-up form.
  const footer = guest.getByRole('contentinfo')
  await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
    'href',
    `https://legal-${suffix}.example.test/privacy`,
  )
  await expect(footer.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
    'href',
    `https://legal-${suffix}.example.test/terms`,
  )
  await expect(footer.getByRole('link', { name: `help-${suffix}@example.test` })).toHaveAttribute(
    'href',
    `mailto:help-${suffix}@example.test`,
  )
  await guest.goto(urlFor(domain, '/auth/register'))
  await expect(guest.getByTestId('sign-up-agreement')).toHaveText(
    'By creating an account you agree to the Terms and Privacy Policy.',
  )
  await expect(
    guest.getByTestId('sign-up-agreement').getByRole('link', { name: 'Terms' }),
  ).toHaveAttribute('href', `https://legal-${suffix}.example.test/terms`)
  const favicon = await guest.goto(urlFor(domain, '/favicon.ico'))
  expect(favicon?.headers()['content-type']).toBe('image/x-icon')

  // "Add to home screen" on the custom domain: the renamed agency, its colour, its logo (on a
  // white disc in the maskable icon's safe zone) (ADR 024).
  await guest.goto(urlFor(domain, '/'))
  const manifest = (await guest.evaluate(async () =>
    (await fetch('/manifest.webmanifest')).json(),
  )) as { name: string; theme_color: string; icons: { src: string; purpose: string }[] }
  expect(manifest).toMatchObject({ name: `${name} Studio`, theme_color: '#0f766e' })
  const maskable = manifest.icons.find((icon) => icon.purpose === 'maskable') ?? { src: '' }
  const iconBytes = await guest.evaluate(
    async (src) => Array.from(new Uint8Array(await (await fetch(src)).arrayBuffer())),
    maskable.src,
  )
  const { data, info } = await sharp(Buffer.from(iconBytes))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const pixel = (x: number, y: number) =>
    Array.from(data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3))
  const middle = Math.floor(info.width / 2)
  expect(pixel(0, 0)).toEqual([15, 118, 110]) // the brand colour, full bleed
  expect(pixel(middle, Math.floor(info.width * 0.15))).toEqual([255, 255, 255]) // the disc
  expect(pixel(middle, middle)).toEqual([15, 118, 110]) // the logo

  // The super admin deactivates the agency: both hosts say "site unavailable" at once.
  const { context: adminContext, page: admin } = await signedInAs(browser, SUPER_ADMIN, AGENCIES)
  await rowAction(admin, `${name} Studio`, 'Deactivate')
  await expect(admin.getByText('Agency deactivated')).toBeVisible()
  for (const host of [`${slug}.localhost`, domain]) {
    await guest.goto(urlFor(host, '/auth/login'))
    await expect(guest.getByRole('heading', { name: 'Site unavailable' })).toBeVisible()
  }
  await visitor.close()
  await context.close()
  await adminContext.close()
})
