// Tells a card owner about a new contact (connect) or lead, after the answer, when their
// `notifications` preference is on (spec §3: on by default). The connect or lead form never
// waits for this and never fails because of it.
import { findUserById } from '#app/models/users.server'
import { runAfterResponse } from '#app/services/after-response.server'
import { tenantEmailBranding } from '#app/services/emails/layout.server'
import { type NewContactKind, newContactEmail } from '#app/services/emails/new-contact.server'
import { queueEmail } from '#app/services/mailer.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { withTenant } from '#drizzle/db.server'
import { getNotificationPreferences } from './preferences.server'
import { createUnsubscribeToken } from './unsubscribe-token.server'

export type NewContactNotice = {
  kind: NewContactKind
  ownerId: string
  contact: { fullName: string; email: string; company?: string }
}

export function unsubscribeUrl(origin: string, organizationId: string, userId: string) {
  const token = createUnsubscribeToken({ organizationId, userId, purpose: 'notifications' })
  return `${origin}/email/unsubscribe?token=${token}`
}

/** Sends the email now (when the owner wants it); returns whether it went out. */
export async function sendNewContactEmail(tenant: Tenant, notice: NewContactNotice) {
  const owner = await withTenant(tenant.id, async (tx) => {
    const user = await findUserById(tx, tenant.id, notice.ownerId)
    if (!user) return null
    const preferences = await getNotificationPreferences(tx, tenant.id, user.id)
    // Email Notifications is the master switch; New Contact Alerts narrows it (§2.6).
    return preferences.notifications && preferences.newContactAlerts ? user : null
  })
  if (!owner) return false
  const branding = tenantEmailBranding(tenant)
  await queueEmail(
    tenant.id,
    newContactEmail({
      branding,
      kind: notice.kind,
      to: owner.email,
      ownerFirstName: owner.firstName,
      contact: notice.contact,
      contactsUrl: `${branding.origin}/contacts`,
      unsubscribeUrl: unsubscribeUrl(branding.origin, tenant.id, owner.id),
    }),
    tenant.name,
  )
  return true
}

export function notifyCardOwnerAfterResponse(tenant: Tenant, notice: NewContactNotice) {
  runAfterResponse(`new ${notice.kind} email`, () => sendNewContactEmail(tenant, notice))
}
