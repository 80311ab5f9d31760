// Email: Resend when RESEND_API_KEY is set (RESEND_BASE_URL points the SDK elsewhere, e.g.
// a local fake in tests), otherwise the outbox table that /dev/outbox lists.
import { Resend } from 'resend'
import { getEnv } from '#app/env.server'
import { insertOutboxEmail, type OutboxEmail } from '#app/models/outbox.server'
import { withTenant } from '#drizzle/db.server'

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
  })
  if (error) throw new Error(`Resend refused the email: ${error.message}`)
  return { transport: 'resend' as const, id: data?.id }
}

const inFlight = new Set<Promise<unknown>>()

/**
 * Sends without making the request wait for the email provider: forgot-password must answer as
 * fast for an unknown email as for a known one, and a provider round trip would tell them apart.
 * The local outbox (no RESEND_API_KEY) is a database write and is done before returning.
 * A failed provider send is logged; the answer never depended on it.
 */
export async function sendEmailInBackground(
  organizationId: string,
  email: OutboxEmail,
  fromName?: string,
) {
  if (!getEnv().RESEND_API_KEY) {
    await sendEmail(organizationId, email, fromName)
    return
  }
  const delivery = sendEmail(organizationId, email, fromName).catch((error: unknown) => {
    console.error('email delivery failed', error)
  })
  inFlight.add(delivery)
  void delivery.finally(() => inFlight.delete(delivery))
}

/** Waits for emails still being handed to the provider (shutdown, tests). */
export async function settleEmailDeliveries() {
  await Promise.allSettled([...inFlight])
}
