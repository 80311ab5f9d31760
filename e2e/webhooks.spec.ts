// Issue 43 point 3 (ADR 093) on the production project: the agency admin opens Webhooks from the
// sidebar and subscribes a local receiver to lead.created (its secret shown once); a visitor
// leaves their details on a card; the receiver gets one delivery whose signature verifies with
// the `standardwebhooks` library and whose body names the lead. The receiver answers 500 twice
// first, and the delivery log shows both failures and the final success.
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import { expect, test } from '@playwright/test'
import { Webhook } from 'standardwebhooks'
import { urlFor } from './fixtures'
import { expectAccessible, signedInAs, waitForHydration } from './page-helpers'
import { SPEC_AGENCIES } from './spec-accounts'

const agency = SPEC_AGENCIES.hooked
const [hana] = agency.endUsers
const PATH = '/dashboard/agency/webhooks'

type Received = { headers: http.IncomingHttpHeaders; body: string; status: number }

/** A receiver on 127.0.0.1 answering 500 to the first `failures` requests, then 204. */
async function startReceiver(failures: number) {
  const received: Received[] = []
  const server = http.createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8')
    })
    request.on('end', () => {
      const status = received.length < failures ? 500 : 204
      received.push({ headers: request.headers, body, status })
      response.statusCode = status
      response.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  return {
    url: `http://127.0.0.1:${address.port}/brandcard-hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

test('a lead reaches a subscribed receiver signed; two failures are retried and logged', async ({
  browser,
}) => {
  test.setTimeout(120_000)
  if (!hana) throw new Error('no card owner in the hooked agency')
  const receiver = await startReceiver(2)
  try {
    const { context, page } = await signedInAs(browser, agency.owner, '/dashboard/agency')
    await page
      .getByRole('navigation', { name: 'Sidebar' })
      .getByRole('link', { name: 'Webhooks', exact: true })
      .click()
    await expect(page).toHaveURL(urlFor(agency.host, PATH))
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'No endpoints yet' })).toBeVisible()
    await waitForHydration(page)

    // Sent without an event, the message shows; then the endpoint, its secret shown once.
    await page.getByLabel('Endpoint URL').fill(receiver.url)
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    await expect(page.getByText('Please choose at least one event')).toBeVisible()
    await page.getByRole('checkbox', { name: /^lead\.created/ }).check()
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    const secretField = page.getByLabel('Signing secret')
    await expect(secretField).toBeVisible()
    const secret = await secretField.inputValue()
    expect(secret).toMatch(/^whsec_/)
    await expect(page.getByRole('cell', { name: receiver.url })).toBeVisible()

    // A visitor leaves their details on Hana's card.
    const leadName = `Lena ${randomUUID().slice(0, 6)}`
    const visitor = await browser.newContext()
    const card = await visitor.newPage()
    await card.goto(
      urlFor(agency.host, `/card/${hana.firstName.toLowerCase()}-${hana.lastName.toLowerCase()}`),
    )
    await waitForHydration(card)
    await card.getByLabel('Your name').fill(leadName)
    await card.getByLabel('Your email').fill(`${randomUUID().slice(0, 8)}@lead.example.test`)
    await card.getByRole('button', { name: 'Send my details' }).click()
    await expect(card.getByText(/will be in touch/)).toBeVisible()
    await visitor.close()

    // 500, 500, then 204: three requests of one message, each signed; the last accepted.
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(3)
    expect(receiver.received.map((r) => r.status)).toEqual([500, 500, 204])
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1)
    const delivered = receiver.received[2]
    if (!delivered) throw new Error('no delivery')
    const payload = new Webhook(secret).verify(
      delivered.body,
      delivered.headers as Record<string, string>,
    ) as { type: string; data: { fullName: string; source: string } }
    expect(payload.type).toBe('lead.created')
    expect(payload.data).toMatchObject({ fullName: leadName, source: 'lead' })

    // The delivery log: one delivery, three attempts, the last one delivered.
    await expect
      .poll(
        async () => {
          await page.reload()
          return page.getByText('Delivered', { exact: true }).count()
        },
        { timeout: 15_000 },
      )
      .toBe(1)
    const deliveries = page.getByRole('list', { name: 'Deliveries' })
    await deliveries.getByText('lead.created', { exact: true }).click()
    await expect(deliveries.getByText('3 attempts')).toBeVisible()
    await expect(deliveries.getByRole('cell', { name: '500', exact: true })).toHaveCount(2)
    await expect(deliveries.getByRole('cell', { name: '204', exact: true })).toHaveCount(1)
    await expect(deliveries.getByRole('cell', { name: 'Answered 500' })).toHaveCount(2)
    await expectAccessible(page, 'Webhooks with an opened delivery')

    // Each row's forms: the delivery sent again, the endpoint edited, its secret rotated (the
    // new one shown once), then the endpoint deleted.
    await deliveries.getByRole('button', { name: 'Resend' }).click()
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(4)
    const host = new URL(receiver.url).host
    await page.getByRole('button', { name: `Edit ${host}` }).click()
    const edit = page.getByRole('dialog', { name: `Edit ${host}` })
    // Refused, the dialog stays open with the message beside the field; saved, it closes.
    await edit.getByLabel('Description (optional)').fill('x'.repeat(201))
    await edit.getByRole('button', { name: 'Save endpoint' }).click()
    await expect(edit.getByText('Please keep the description under 200 characters')).toBeVisible()
    await edit.getByLabel('Description (optional)').fill('Leads to the CRM')
    await edit.getByRole('button', { name: 'Save endpoint' }).click()
    await expect(edit).toHaveCount(0)
    await expect(page.getByRole('cell', { name: /Leads to the CRM/ })).toBeVisible()
    await page.getByRole('button', { name: `Rotate secret of ${host}` }).click()
    await page
      .getByRole('dialog', { name: `Rotate the secret of ${host}` })
      .getByRole('button', { name: 'Rotate secret' })
      .click()
    await expect(secretField).toHaveValue(/^whsec_/)
    expect(await secretField.inputValue()).not.toBe(secret)
    await page.getByRole('button', { name: `Delete ${host}` }).click()
    await page
      .getByRole('alertdialog', { name: `Delete ${host}?` })
      .getByRole('button', { name: 'Delete endpoint' })
      .click()
    await expect(page.getByRole('heading', { name: 'No endpoints yet' })).toBeVisible()
    await context.close()
  } finally {
    await receiver.close()
  }
})
