// Outbox rows hold no token (ADR 028): the tests that follow an emailed link read the email as
// its recipient got it, with the tokens put back exactly as delivery puts them back.
import { revealEmail } from '#app/email/email-secrets.server'
import type { OutboxSecret } from '#drizzle/schema'

type StoredRow = {
  organizationId: string
  secrets: OutboxSecret[]
  subject?: string
  html?: string
  text?: string
  headers?: Record<string, string>
}

/** The rows with their links as delivered (a row's other columns unchanged). */
export function asDelivered<T extends StoredRow>(rows: T[]): T[] {
  return rows.map((row) => {
    const email = revealEmail(
      row.organizationId,
      {
        to: '',
        subject: row.subject ?? '',
        html: row.html ?? '',
        text: row.text ?? '',
        headers: row.headers ?? {},
      },
      row.secrets,
    )
    return {
      ...row,
      ...(row.subject === undefined ? {} : { subject: email.subject }),
      ...(row.html === undefined ? {} : { html: email.html }),
      ...(row.text === undefined ? {} : { text: email.text }),
      ...(row.headers === undefined ? {} : { headers: email.headers }),
    }
  })
}
