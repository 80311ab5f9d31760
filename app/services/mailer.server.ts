// Email: Resend when RESEND_API_KEY is set (RESEND_BASE_URL points the SDK elsewhere, e.g.
// a local fake in tests), otherwise the outbox table that /dev/outbox lists.
import { Resend } from 'resend'
import { getEnv } from '#app/env.server'
import { insertOutboxEmail, type OutboxEmail } from '#app/models/outbox.server'
import { withTenant } from '#drizzle/db.server'
import { runAfterResponse } from './after-response.server'

export async function sendEmail(organizationId: string, email: OutboxEmail, fromName?: string) {
  const env = getEnv()
  if (!env.RESEND_API_KEY) {
    await withTenant(organizationId, (tx) => insertOutboxEmail(tx, organizationId, email))
    return { transport: 'outbox' as const }
  }
  const resend = new Resend(env.RESEND_API_KEY)
  const address = /<([^>]+)>/.exec(env.EMAIL_FROM)?.[1] ?? env.EMAIL_FROM
  const { data, error } = await resend.emails.send({
    // Sent in the tenant's name from the platform's verified address.
    from: fromName ? `${fromName.replace(/[<>"]/g, '')} <${address}>` : env.EMAIL_FROM,
    to: email.to,
    subject: email.subject,
    html: email.html,
    text: email.text,
    ...(email.headers && Object.keys(email.headers).length > 0 ? { headers: email.headers } : {}),
  })
  if (error) throw new Error(`Resend refused the email: ${error.message}`)
  return { transport: 'resend' as const, id: data?.id }
}

/**
 * Sends without making the request wait for the email provider or the outbox: answers must not
 * take longer when an email goes out (an existing account) than when none does. A failed send
 * is logged; the answer never depended on it.
 */
export function sendEmailAfterResponse(
  organizationId: string,
  email: OutboxEmail,
  fromName?: string,
) {
  runAfterResponse('email delivery', () => sendEmail(organizationId, email, fromName))
}
