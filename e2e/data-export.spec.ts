// Download my data (issue 31 point 4, ADR 052) in one journey on the production project: an end
// user asks for her data on her profile's Security tab, sees it being prepared (the job worker
// builds it under the app login), downloads the zip, which holds her card, and is emailed a link
// that opens nothing without her session.
import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import { strFromU8, unzipSync } from 'fflate'
import { linkIn, newestEmailTo } from './inbox'
import { openAs } from './page-helpers'
import { SPEC_ACCOUNTS } from './spec-accounts'

const ELI = SPEC_ACCOUNTS.dataExport

test('ask for my data, watch it prepared, download the zip with my card in it', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000)
  await openAs(page, ELI, '/profile/end-user?tab=security')
  const panel = page.getByRole('region', { name: 'Download my data' })
  await expect(panel.getByText('A copy of what you keep here in one zip file')).toBeVisible()
  await panel.getByRole('button', { name: 'Download my data' }).click()
  await expect(page.getByText("We're preparing your data")).toBeVisible()

  // Progress while the worker builds it (a fast worker may be done before the first look).
  await expect(
    panel
      .getByRole('progressbar', { name: 'Data export progress' })
      .or(panel.getByText(/^Your data is ready/))
      .first(),
  ).toBeVisible()
  await expect(panel.getByText(/Your data is ready .*You can download it until/)).toBeVisible({
    timeout: 45_000,
  })
  // A second copy may be asked for once this one is done; none while it is being prepared.
  await expect(panel.getByRole('button', { name: 'Prepare a new copy' })).toBeEnabled()

  const downloading = page.waitForEvent('download')
  await panel.getByRole('button', { name: 'Download zip' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/-data-\d{4}-\d{2}-\d{2}\.zip$/)
  const files = unzipSync(new Uint8Array(await readFile(await download.path())))
  const data = JSON.parse(strFromU8(files['data.json'] as Uint8Array)) as {
    profile: { email: string }
    cards: { firstName: string; lastName: string }[]
  }
  expect(data.profile.email).toBe(ELI.email)
  expect(data.cards.map((card) => `${card.firstName} ${card.lastName}`)).toContain('Eli Exporter')
  expect(Object.keys(files)).toContain('cards/Eli_Exporter.vcf')
  // The page stays where it was: the download did not navigate.
  await expect(panel.getByRole('button', { name: 'Download zip' })).toBeVisible()

  // The email links to the profile; without her session it opens the sign-in page only.
  const email = await newestEmailTo(ELI.email, 'data is ready')
  const link = linkIn(email, '/profile/end-user')
  expect(new URL(link).hostname).toBe(ELI.host)
  expect(link).toMatch(/\/profile\/end-user\?tab=security$/)
  const stranger = await browser.newContext()
  const strangerPage = await stranger.newPage()
  await strangerPage.goto(link)
  await expect(strangerPage).toHaveURL(/\/auth\/login\?redirectTo=/)
  await stranger.close()
})
