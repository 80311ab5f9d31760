// What /dev/outbox shows (ADR 028, ADR 070). Stored emails carry no token, so by default every
// link that needs one shows as removed. A link is put back, on demand, only where the page stands
// in for an inbox: when the outbox is the delivery (no RESEND_API_KEY; with Resend the email went
// to its recipient, who alone should hold the link), and then for every recipient in development
// and on the embedded demo (no DATABASE_URL: whoever runs it holds its data directory, and the
// outbox is the only inbox there is, as a local mail catcher is), but on a Postgres deployment
// only for the viewer's own emails, never other people's; and only while the link still works.

import { isSecretLive, revealEmail } from '#app/email/email-secrets.server'
import type { Env } from '#app/env.server'
import type { User } from '#app/models/users.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import type { Queryable } from '#drizzle/db.server'
import type { OutboxSecret } from '#drizzle/schema'

type StoredEmail = {
  organizationId: string
  to: string
  subject: string
  html: string
  text: string
  headers: Record<string, string>
  secrets: OutboxSecret[]
}

export type OutboxViewer = {
  env: Pick<Env, 'NODE_ENV' | 'RESEND_API_KEY' | 'DATABASE_URL'>
  tenant: Tenant
  user: User | null
}

/** Whether the page may put this email's links back (still only those that work). */
export function mayRevealLinks(
  viewer: OutboxViewer,
  email: Pick<StoredEmail, 'organizationId' | 'to'>,
) {
  if (viewer.env.RESEND_API_KEY) return false
  if (viewer.env.NODE_ENV !== 'production' || !viewer.env.DATABASE_URL) return true
  return (
    viewer.user !== null &&
    email.organizationId === viewer.user.organizationId &&
    email.to === viewer.user.email
  )
}

const linksOf = (html: string) =>
  [...html.matchAll(/href="([^"]+)"/g)]
    .map((m) => (m[1] ?? '').replaceAll('&amp;', '&'))
    .filter((href, i, all) => all.indexOf(href) === i)

/** The emails as the page shows them, one after another (one transaction, one connection). */
export async function outboxEntries<T extends StoredEmail>(
  db: Queryable,
  viewer: OutboxViewer,
  emails: T[],
) {
  const entries = []
  for (const email of emails) entries.push(await outboxEntry(db, viewer, email))
  return entries
}

/** The email as the page shows it: the seeds stay here, working links only where allowed. */
async function outboxEntry<T extends StoredEmail>(db: Queryable, viewer: OutboxViewer, email: T) {
  const { secrets, ...shown } = email
  const live: OutboxSecret[] = []
  if (mayRevealLinks(viewer, email)) {
    for (const secret of secrets) {
      if (await isSecretLive(db, email.organizationId, secret)) live.push(secret)
    }
  }
  const content = revealEmail(email.organizationId, shown, live)
  const removed = secrets.filter((secret) => !live.includes(secret)).map((s) => s.marker)
  return {
    ...shown,
    ...content,
    headers: content.headers ?? {},
    links: linksOf(content.html).map((href) => ({
      href,
      removed: removed.some((marker) => href.includes(marker)) || href.includes('{removed-secret'),
    })),
  }
}
