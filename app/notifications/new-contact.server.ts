// Tells a card owner about a new contact (connect) or lead, when their `notifications`
// preference is on (spec §3: on by default).

import type { UnsubscribeSecret } from '#app/email/email-secrets.server'
import { queueEmailIn } from '#app/email/mailer.server'
import type { EmailCause } from '#app/email/send-limits.server'
import {
  createUnsubscribeToken,
  type UnsubscribePurpose,
} from '#app/email/unsubscribe-token.server'
import { findUserById } from '#app/models/users.server'
import { type NewContactKind, newContactEmail } from '#app/services/emails/new-contact-email.server'
import { tenantEmailBranding } from '#app/tenancy/email-branding.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { type Transaction, withTenant } from '#drizzle/db.server'
import { getNotificationPreferences } from './preferences.server'

export type NewContactNotice = {
  kind: NewContactKind
  ownerId: string
  contact: { fullName: string; email: string; company?: string }
  /** The visitor who sent the lead or connected (the send limits count them). */
  cause: EmailCause
}

/** The link, and the secret the mailer keeps instead of its token (ADR 028). */
export function unsubscribeLink(
  origin: string,
  organizationId: string,
  userId: string,
  purpose: UnsubscribePurpose = 'notifications',
) {
  const token = createUnsubscribeToken({ organizationId, userId, purpose })
  const secret: UnsubscribeSecret = { kind: 'unsubscribe', userId, purpose }
  return { url: `${origin}/email/unsubscribe?token=${token}`, secret }
}

/**
 * The account a notification of `kind` goes to, when it wants it: Email Notifications (the
 * master switch) and the kind's own switch both on (§2.6). With the tenant's email branding and
 * the link that turns notifications off; undefined when the account is gone or does not want it.
 */
export async function notificationRecipient(
  tx: Transaction,
  tenant: Tenant,
  userId: string,
  kind: 'newContactAlerts' | 'teamUpdates',
) {
  const account = await findUserById(tx, tenant.id, userId)
  if (!account) return undefined
  const preferences = await getNotificationPreferences(tx, tenant.id, account.id)
  if (!(preferences.notifications && preferences[kind])) return undefined
  const branding = tenantEmailBranding(tenant)
  return { account, branding, unsubscribe: unsubscribeLink(branding.origin, tenant.id, account.id) }
}

/**
 * Queues the email in the caller's transaction (the one that saved the contact), when the owner
 * wants it; returns whether it was queued. The job queue delivers it: the connect or lead form
 * never waits for the provider and never fails because of it.
 */
export async function queueNewContactEmailIn(
  tx: Transaction,
  tenant: Tenant,
  notice: NewContactNotice,
) {
  const recipient = await notificationRecipient(tx, tenant, notice.ownerId, 'newContactAlerts')
  if (!recipient) return false
  const { account: owner, branding, unsubscribe } = recipient
  await queueEmailIn(
    tx,
    tenant.id,
    {
      ...newContactEmail({
        branding,
        kind: notice.kind,
        to: owner.email,
        ownerFirstName: owner.firstName,
        contact: notice.contact,
        contactsUrl: `${branding.origin}/contacts`,
        unsubscribeUrl: unsubscribe.url,
      }),
      secrets: [unsubscribe.secret],
    },
    tenant.name,
    notice.cause,
  )
  return true
}

/** The same in a transaction of its own. */
export async function sendNewContactEmail(tenant: Tenant, notice: NewContactNotice) {
  const queued = await withTenant(tenant.id, (tx) => queueNewContactEmailIn(tx, tenant, notice))
  return queued
}
