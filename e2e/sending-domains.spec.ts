// Issue 17 point 2 through the real UI, against the fake Resend the e2e server sends through
// (tests/fake-resend.ts): a new agency's owner adds a sending domain on the Branding screen, sees
// the DNS records the provider returned, checks verification (pending, then verified once the
// records are "published"); the agency's emails then leave from its own address, go back to the
// platform's when verification fails, and stay there once the domain is removed.
import { expect, type Page, test } from '@playwright/test'
import { createAgency } from './agency-owner'
import { resendPort, SUPER_ADMIN, urlFor } from './fixtures'
import { expectAccessible, signedInAs, waitForHydration } from './page-helpers'

test.describe.configure({ timeout: 720_000 })

const BRANDING = '/dashboard/agency/branding'
const PLATFORM_ADDRESS = 'no-reply@brandcard.localhost'
const unique = () => Math.random().toString(36).slice(2, 8)

type FakeEmail = { from: string; to: string | string[]; subject: string }

const fakeUrl = (path: string) => `http://127.0.0.1:${resendPort()}${path}`

async function fakeState(body: Record<string, unknown>) {
  const response = await fetch(fakeUrl('/__fake/state'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.ok).toBe(true)
}

/** Asks for a reset email on the agency host; the From the provider received for it. */
async function resetEmailFrom(page: Page, host: string, email: string) {
  const sentBefore = await emailsTo(email)
  await page.goto(urlFor(host, '/auth/forgot-password'))
  await waitForHydration(page)
  await page.getByLabel('Email').fill(email)
  await page.getByRole('button', { name: 'Send Reset Link' }).click()
  await expect(page.getByText('Password reset link sent! Please check your email.')).toBeVisible()
  let from = ''
  await expect(async () => {
    const sent = await emailsTo(email)
    expect(sent.length).toBeGreaterThan(sentBefore.length)
    from = sent.at(-1)?.from ?? ''
  }).toPass({ timeout: 60_000 })
  return from
}

async function emailsTo(address: string) {
  const emails = (await (await fetch(fakeUrl('/__fake/emails'))).json()) as FakeEmail[]
  return emails.filter((email) => [email.to].flat().includes(address))
}

test('an agency sends its emails from its own verified domain, and from the platform otherwise', async ({
  browser,
}) => {
  const suffix = unique()
  const name = `Postly ${suffix}`
  const slug = `postly-${suffix}`
  const host = `${slug}.localhost`
  const ownerEmail = `${slug}-owner@example.test`
  const domain = `mail.${slug}.example.test`
  const { context: adminContext, page: admin } = await signedInAs(
    browser,
    SUPER_ADMIN,
    '/dashboard/super-admin',
  )
  const { context, owner } = await createAgency(admin, browser, name, slug)
  await adminContext.close()
  const visitorContext = await browser.newContext()
  const visitor = await visitorContext.newPage()

  // Before any domain: the agency's name on the platform's address.
  expect(await resetEmailFrom(visitor, host, ownerEmail)).toBe(`${name} <${PLATFORM_ADDRESS}>`)

  await owner.goto(urlFor(host, `${BRANDING}?tab=domain`))
  await waitForHydration(owner)
  const section = owner.getByTestId('sending-domain')
  await expect(section.getByRole('heading', { name: 'Email sending domain' })).toBeVisible()
  await expect(owner.getByLabel('Sender Name', { exact: true })).toHaveValue('hello')

  // A name that is not a domain is refused at its field; nothing is registered.
  await owner.getByLabel('Sending Domain', { exact: true }).fill('not a domain')
  await owner.getByRole('button', { name: 'Add sending domain' }).click()
  await expect(section.getByText('Enter a domain such as cards.example.com')).toBeVisible()

  await owner.getByLabel('Sending Domain', { exact: true }).fill(domain)
  await owner.getByLabel('Sender Name', { exact: true }).fill('news')
  await owner.getByRole('button', { name: 'Add sending domain' }).click()
  await expect(owner.getByText(/^Sending domain added/)).toBeVisible()
  await expect(section.getByTestId('sending-status')).toHaveText('Not verified yet')
  await expect(section.getByTestId('sender-address')).toHaveText(`news@${domain}`)
  const records = section.getByRole('table', { name: `Email DNS records for ${domain}` })
  // The DKIM row holds a random key, which can contain "MX": the MX row is the one that starts so.
  await expect(records.getByRole('row', { name: /^MX / })).toContainText(`send.${domain}`)
  await expect(records.getByRole('row', { name: /DKIM|_domainkey/ })).toContainText('p=')
  await expect(records.getByRole('row')).toHaveCount(4)
  await expectAccessible(owner, 'sending domain')

  // Records not published yet: still pending, still the platform's address.
  await owner.getByRole('button', { name: 'Check verification' }).click()
  await expect(owner.getByText(/has not verified the records yet/)).toBeVisible()
  await expect(section.getByTestId('sending-status')).toHaveText('Pending verification')
  expect(await resetEmailFrom(visitor, host, ownerEmail)).toBe(`${name} <${PLATFORM_ADDRESS}>`)

  // Published: verified, and the agency's emails leave from its own address.
  await fakeState({ publish: [domain] })
  await owner.getByRole('button', { name: 'Check verification' }).click()
  await expect(owner.getByText('Sending domain verified')).toBeVisible()
  await expect(section.getByTestId('sending-status')).toHaveText('Verified')
  await expect(section.getByTestId('sending-help')).toHaveText(
    `Your emails leave from news@${domain}.`,
  )
  expect(await resetEmailFrom(visitor, host, ownerEmail)).toBe(`${name} <news@${domain}>`)

  // The records disappear: verification fails and the emails go back to the platform's address.
  await fakeState({ unpublish: [domain] })
  await owner.getByRole('button', { name: 'Check verification' }).click()
  await expect(
    owner.getByText('Verification failed. Check the DNS records and try again.'),
  ).toBeVisible()
  await expect(section.getByTestId('sending-status')).toHaveText('Failed')
  await expect(section.getByTestId('sending-help')).toContainText('no longer verifies this domain')
  expect(await resetEmailFrom(visitor, host, ownerEmail)).toBe(`${name} <${PLATFORM_ADDRESS}>`)

  // Removed, after a confirmation: gone at the provider, and the add form is back.
  await owner.getByRole('button', { name: 'Remove', exact: true }).click()
  const dialog = owner.getByRole('alertdialog', { name: `Remove ${domain}?` })
  await dialog.getByRole('button', { name: 'Remove domain' }).click()
  await expect(owner.getByText(/^Sending domain removed/)).toBeVisible()
  await expect(owner.getByLabel('Sending Domain', { exact: true })).toBeVisible()
  const domains = (await (await fetch(fakeUrl('/__fake/domains'))).json()) as { name: string }[]
  expect(domains.map((d) => d.name)).not.toContain(domain)

  await visitorContext.close()
  await context.close()
})
