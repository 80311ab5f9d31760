// Fields that become email headers never carry control characters (issue 26, point 10): a lead
// named "x\r\nBcc: …" must not add a header to the card owner's notification, whatever the
// provider would make of it (the lead form refuses such a name since issue 39 point 3). Checked at the provider (a local fake of Resend), where the
// headers the mailer built arrive.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { queueEmail } from '#app/email/mailer.server'
import { resetEnvForTests } from '#app/env.server'
import { runJobsNow } from '#app/job-handlers.server'
import { action as cardAction } from '#app/routes/card.$ref'
import { SINGLE_LINE_MESSAGE } from '#app/validation/text'
import { withTenant } from '#drizzle/db.server'
import { emailOutbox } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeBrandedOrganization,
  makeCard,
  makeUser,
  replyErrors,
  settle,
  uniqueSuffix,
} from '#tests/factories'
import { type FakeResend, startFakeResend } from '#tests/fake-resend'

let resend: FakeResend

beforeAll(async () => {
  resend = await startFakeResend()
  process.env.RESEND_API_KEY = resend.apiKey
  process.env.RESEND_BASE_URL = resend.url
  resetEnvForTests()
})

afterAll(async () => {
  delete process.env.RESEND_API_KEY
  delete process.env.RESEND_BASE_URL
  resetEnvForTests()
  await resend.close()
})

// CR, LF, BEL, tab, DEL, a C1 control and a Unicode line separator.
// biome-ignore lint/suspicious/noControlCharactersInRegex: what the test looks for
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/

test("a lead's name with CR/LF is refused at the form: no email, no header of the visitor's", async () => {
  const { organization } = await makeBrandedOrganization({ name: 'Header Co' })
  const host = `${organization.slug}.localhost`
  const owner = await makeUser(organization.id, { email: `owner-${uniqueSuffix()}@example.test` })
  const card = await makeCard(organization.id, owner.id)
  const answer = await settle(() =>
    cardAction({
      request: formRequest(host, `/card/${card.id}`, {
        intent: 'lead',
        fullName: 'Lee\r\nBcc: victim@evil.test\r\nX-Injected: 1',
        email: `lead-${uniqueSuffix()}@example.test`,
      }),
      context: contextFor(host, '198.51.100.60'),
      params: { ref: card.id },
    }),
  )
  // A name is one line (issue 39 point 3): the provider-side stripping below is the backstop.
  expect(answer.status).toBe(400)
  expect((await replyErrors(answer)).fullName).toEqual([SINGLE_LINE_MESSAGE])
  await runJobsNow()
  expect(resend.emails.find((email) => email.to === owner.email)).toBeUndefined()
})

test('subject, From name, To and extra headers lose their control characters at the provider', async () => {
  const { organization } = await makeBrandedOrganization({ name: 'Header Two' })
  const to = `to-${uniqueSuffix()}@example.test`
  await queueEmail(
    organization.id,
    {
      to: `${to}\r\n`,
      subject: 'Hello\r\nBcc: victim@evil.test\u0007\u2028\u0085end',
      html: '<p>Hi</p>',
      text: 'Hi',
      headers: { 'Reply-To': 'a@example.test\r\nBcc: victim@evil.test' },
    },
    'Brand\r\nBcc: victim@evil.test\t',
    { clientIp: '203.0.113.9' },
  )
  await runJobsNow()
  const sent = resend.emails.find((email) => email.to === to)
  expect(sent).toBeDefined()
  expect(sent?.subject).toBe('Hello Bcc: victim@evil.test end')
  expect(sent?.from).toBe('"Brand Bcc: victim@evil.test" <no-reply@brandcard.localhost>')
  expect(sent?.headers?.['Reply-To']).toBe('a@example.test Bcc: victim@evil.test')
  for (const value of [sent?.subject, sent?.from, sent?.to, ...Object.values(sent?.headers ?? {})])
    expect(String(value)).not.toMatch(CONTROL)
})

test('the outbox row keeps the subject as sent, without its line breaks (issue 39 point 3)', async () => {
  const { organization } = await makeBrandedOrganization({ name: 'Header Three' })
  const to = `row-${uniqueSuffix()}@example.test`
  await queueEmail(
    organization.id,
    { to, subject: 'Hello\r\nBcc: victim@evil.test\u2028end', html: '<p>Hi</p>', text: 'Hi' },
    'Brand',
    { clientIp: '203.0.113.10' },
  )
  await runJobsNow()
  const sent = resend.emails.find((email) => email.to === to)
  expect(sent?.subject).toBe('Hello Bcc: victim@evil.test end')
  const [row] = await withTenant(organization.id, (tx) =>
    tx
      .select({ subject: emailOutbox.subject, state: emailOutbox.state })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.organizationId, organization.id), eq(emailOutbox.toAddress, to))),
  )
  expect(row).toEqual({ subject: sent?.subject, state: 'sent' })
})
