// The agency's Announcements screen, /dashboard/agency/announcements (issue 30 point 2, ADR 046):
// its loader (the reach, the history, what is left today) and its action (send). Sending itself
// is ./send-announcements.server.ts's.
import { type AppLoadContext, data } from '@remix-run/node'
import { formAction } from '#app/actions/intent-action.server'
import { requireAgencyStaff } from '#app/auth/guards.server'
import { countAnnouncementRecipients, listAnnouncements } from '#app/models/announcements.server'
import { ANNOUNCEMENTS_PER_DAY, AnnouncementSchema } from '#app/validation/announcements'
import { withTenant } from '#drizzle/db.server'
import { sendAnnouncement, sentToday } from './send-announcements.server'

export const ANNOUNCEMENTS_PATH = '/dashboard/agency/announcements'

export async function announcementsLoader(request: Request, context: AppLoadContext) {
  // Agency members read the screen (its history and reach); only the admin sends.
  const actor = await requireAgencyStaff(request, context, { manage: false })
  const organizationId = actor.tenant.id
  const page = await withTenant(organizationId, async (tx) => ({
    recipients: await countAnnouncementRecipients(tx, organizationId),
    history: await listAnnouncements(tx, organizationId),
    sentToday: await sentToday(tx, organizationId),
  }))
  return data({
    recipients: page.recipients,
    history: page.history.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    perDay: ANNOUNCEMENTS_PER_DAY,
    leftToday: Math.max(0, ANNOUNCEMENTS_PER_DAY - page.sentToday),
    canSend: actor.user.role === 'agency_admin',
    brand: { name: actor.tenant.name, primaryColor: actor.tenant.primaryColor },
  })
}

export async function announcementsAction(request: Request, context: AppLoadContext) {
  return formAction(request, {
    guard: () => requireAgencyStaff(request, context, { manage: true }),
    schema: AnnouncementSchema,
    redirectTo: ANNOUNCEMENTS_PATH,
    handle: (value, actor) => sendAnnouncement(actor, value),
  })
}
