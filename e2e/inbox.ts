// What the e2e server's email provider (the fake Resend, e2e/start-server.ts) received: the
// recipients' inboxes. Specs follow emailed links from here: the outbox page keeps no token and
// shows no one else's working link (ADR 028).
import { expect } from '@playwright/test'
import type { FakeEmail } from '#tests/fake-resend'
import { resendPort } from './fixtures'

export async function receivedEmails(port = resendPort()): Promise<FakeEmail[]> {
  const response = await fetch(`http://127.0.0.1:${port}/__fake/emails`)
  return (await response.json()) as FakeEmail[]
}

/** The newest email to `to` whose subject contains `subject`, once the queue has sent it. */
export async function newestEmailTo(to: string, subject: string, port = resendPort()) {
  let found: FakeEmail | undefined
  await expect
    .poll(
      async () => {
        found = (await receivedEmails(port))
          .filter((email) => [email.to].flat().includes(to) && email.subject.includes(subject))
          .at(-1)
        return Boolean(found)
      },
      { message: `an email to ${to} about "${subject}"`, timeout: 60_000 },
    )
    .toBe(true)
  return found as FakeEmail
}

/** The first link in the email's HTML whose address contains `part`. */
export function linkIn(email: FakeEmail, part: string) {
  const href = [...(email.html ?? '').matchAll(/href="([^"]+)"/g)]
    .map((match) => (match[1] ?? '').replaceAll('&amp;', '&'))
    .find((candidate) => candidate.includes(part))
  if (!href) throw new Error(`no link with ${part} in "${email.subject}"`)
  return href
}
