// An agency admin's announcements to the agency's end users and team members (issue 30 point 2,
// ADR 046). Sending writes the announcement, its `announcement.send` job and the audit event in
// one transaction and answers at once; the job fans out one email per opted-in recipient (Email
// Notifications and Marketing Communications on), in batches that each commit with their
// progress. Each email carries its recipient's one-click unsubscribe of Marketing
// Communications (RFC 8058). The screen's loader and action are ./announcements-route.server.ts's.

import type { Actor } from '#app/auth/guards.server'
import { queueEmailIn } from '#app/email/mailer.server'
import type { JobHandler } from '#app/jobs/worker.server'
import {
  countAnnouncementRecipients,
  findAnnouncement,
  finishAnnouncement,
  insertAnnouncement,
  listAnnouncementRecipients,
  recordAnnouncementProgress,
} from '#app/models/announcements.server'
import { recordAudit } from '#app/models/audit.server'
import { insertJob } from '#app/models/jobs.server'
import { hitRateLimit, peekRateLimit } from '#app/models/rate-limits.server'
import { unsubscribeLink } from '#app/notifications/new-contact.server'
import { announcementEmail } from '#app/services/emails/announcement-email.server'
import { tenantEmailBranding } from '#app/tenancy/email-branding.server'
import type { PublicAddress } from '#app/tenancy/host'
import { freshTenantOf } from '#app/tenancy/tenant.server'
import { Refusal } from '#app/utils/action-error'
import {
  ANNOUNCEMENTS_PER_DAY,
  type AnnouncementInput,
  dailyLimitMessage,
  NO_RECIPIENTS_MESSAGE,
} from '#app/validation/announcements'
import { type Queryable, withTenant } from '#drizzle/db.server'

/** Emails queued per transaction of the fan-out: small enough to commit quickly. */
export const FAN_OUT_BATCH = 200

const DAY_MS = 24 * 60 * 60_000

/** The daily limit's counter of an agency: a fixed 24-hour window from its first announcement. */
const dailyKey = (organizationId: string) => `announcementsPerDay:${organizationId}`

/** How many announcements the agency sent in its current day (the screen's count). */
export async function sentToday(db: Queryable, organizationId: string) {
  return (await peekRateLimit(db, dailyKey(organizationId)))?.count ?? 0
}

/**
 * Queues the announcement for the agency's opted-in end users. Refused, with nothing written,
 * when nobody opted in or the agency already sent ANNOUNCEMENTS_PER_DAY in its current day.
 */
export async function sendAnnouncement(actor: Actor, input: AnnouncementInput) {
  const { tenant } = actor
  const organizationId = tenant.id
  const recipients = await withTenant(organizationId, async (tx) => {
    const recipients = await countAnnouncementRecipients(tx, organizationId)
    if (recipients === 0) throw new Refusal('conflict', NO_RECIPIENTS_MESSAGE)
    // One statement counts and locks the day's counter, so two sends at once cannot both pass;
    // a refusal throws and the transaction (the hit included) rolls back.
    const hit = await hitRateLimit(tx, dailyKey(organizationId), DAY_MS)
    if (hit.count > ANNOUNCEMENTS_PER_DAY) {
      const seconds = Math.max(1, Math.ceil((hit.resetAt.getTime() - Date.now()) / 1000))
      throw new Refusal('rate_limited', dailyLimitMessage(Math.ceil(seconds / 3600)), {
        retryAfterSeconds: seconds,
      })
    }
    const announcement = await insertAnnouncement(tx, organizationId, {
      sentByUserId: actor.user.id,
      subject: input.subject,
      body: input.body,
    })
    await insertJob(tx, {
      name: 'announcement.send',
      organizationId,
      payload: {
        announcementId: announcement.id,
        // How the admin reached the host (a TLS proxy's scheme and port), for the links.
        ...(tenant.via
          ? { scheme: tenant.via.scheme, ...(tenant.via.port ? { port: tenant.via.port } : {}) }
          : {}),
      },
      idempotencyKey: `announcement.send:${announcement.id}`,
      maxAttempts: 8,
    })
    await recordAudit(tx, organizationId, {
      actorUserId: actor.user.id,
      action: 'announcement.sent',
      entityType: 'announcement',
      entityId: announcement.id,
      metadata: { subject: input.subject, optedInRecipients: recipients },
    })
    return recipients
  })
  return {
    toast: 'Announcement sent',
    description: `It is on its way to ${recipients} ${recipients === 1 ? 'person' : 'people'} who opted in.`,
  }
}

function viaOf(payload: Record<string, string>): PublicAddress | null {
  const { scheme, port } = payload
  return scheme === 'https' || scheme === 'http'
    ? { scheme, port: port && /^\d{1,5}$/.test(port) ? port : null }
    : null
}

/**
 * The fan-out: the recipients are read when the job runs (someone who unsubscribed meanwhile is
 * left out), by id after the announcement's cursor, and each batch's emails commit with the new
 * cursor, so a run cut short resumes after the last committed batch and nobody gets it twice.
 */
export const fanOutAnnouncement: JobHandler = {
  async run(job) {
    const organizationId = job.organizationId
    const announcementId = job.payload.announcementId
    if (!organizationId || !announcementId) return
    const found = await freshTenantOf(organizationId)
    // The agency has gone (deleted, deactivated) since: nobody to send for.
    if (!found) return
    const tenant = { ...found, via: viaOf(job.payload) }
    const branding = tenantEmailBranding(tenant)
    for (;;) {
      const more = await withTenant(organizationId, async (tx) => {
        const announcement = await findAnnouncement(tx, organizationId, announcementId)
        if (!announcement || announcement.status === 'sent' || announcement.status === 'failed') {
          return false
        }
        const batch = await listAnnouncementRecipients(
          tx,
          organizationId,
          announcement.cursor,
          FAN_OUT_BATCH,
        )
        const last = batch.at(-1)
        if (!last) {
          await finishAnnouncement(tx, organizationId, announcementId, 'sent')
          return false
        }
        for (const recipient of batch) {
          const unsubscribe = unsubscribeLink(
            branding.origin,
            organizationId,
            recipient.id,
            'marketing',
          )
          await queueEmailIn(
            tx,
            organizationId,
            {
              ...announcementEmail({
                branding,
                to: recipient.email,
                subject: announcement.subject,
                body: announcement.body,
                unsubscribeUrl: unsubscribe.url,
              }),
              secrets: [unsubscribe.secret],
            },
            tenant.name,
            'announcement',
            `announcement:${announcementId}:${recipient.id}`,
          )
        }
        await recordAnnouncementProgress(tx, organizationId, announcementId, {
          cursor: last.id,
          queued: batch.length,
        })
        return batch.length === FAN_OUT_BATCH
      })
      if (!more) {
        // A short batch was the last: close it without reading an empty page again.
        await withTenant(organizationId, async (tx) => {
          const announcement = await findAnnouncement(tx, organizationId, announcementId)
          if (announcement?.status === 'sending' || announcement?.status === 'queued') {
            await finishAnnouncement(tx, organizationId, announcementId, 'sent')
          }
        })
        return
      }
    }
  },
  async onDead(job) {
    const organizationId = job.organizationId
    const announcementId = job.payload.announcementId
    if (!organizationId || !announcementId) return
    await withTenant(organizationId, (tx) =>
      finishAnnouncement(tx, organizationId, announcementId, 'failed'),
    )
  },
}
