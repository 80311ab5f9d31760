// The emailed link that lets a pending session enrol an account's first second factor at the
// sign-in step (ADR 054), followed as its recipient would: ask for it, read it from the outbox as
// delivered, and post it back from the same session.
import { and, desc, eq } from 'drizzle-orm'
import { expect } from 'vitest'
import { getDb } from '#drizzle/db.server'
import { emailOutbox } from '#drizzle/schema'
import { asDelivered } from './inbox'

type PostStep = (fields: Record<string, string>) => Promise<Response>

/** The newest enrolment link's token emailed to this address, as delivered. */
export async function enrolmentLinkToken(organizationId: string, email: string) {
  const [row] = asDelivered(
    await getDb()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.organizationId, organizationId), eq(emailOutbox.toAddress, email)))
      .orderBy(desc(emailOutbox.createdAt))
      .limit(1),
  )
  const token = /\/auth\/two-factor\?link=([a-z2-7]{52})/.exec(row?.text ?? '')?.[1]
  if (!token) throw new Error(`no enrolment link emailed to ${email}`)
  return token
}

/** Asks for the link from this session and opens it there: the session may then enrol. */
export async function openEnrolmentLink(postStep: PostStep, organizationId: string, email: string) {
  expect(await postStep({ intent: 'send-enrolment-email' })).toHaveRedirect(
    '/auth/two-factor?sent=1',
  )
  const token = await enrolmentLinkToken(organizationId, email)
  expect(await postStep({ intent: 'confirm-email', token })).toHaveRedirect('/auth/two-factor')
}
