// `card.viewed` (issue 43 point 3, ADR 093): never one event per view (a busy card would flood
// its receivers, and a view is a visitor's), but an hourly digest per agency, read from the
// hourly rollup (card_view_hours): for each card viewed in the hour, its views by source. The
// job is queued once an hour by the worker's housekeeping (enqueueDailyJobs) for the hour before;
// the message's dedupe key keeps it to one per agency and hour whatever runs it twice.

import { type JobHandler, PermanentJobError } from '#app/jobs/worker.server'
import { countViewsInHour } from '#app/models/card-views.server'
import { listOrganizationIds } from '#app/models/organizations.server'
import { withDatabase, withTenant } from '#drizzle/db.server'
import { emitWebhookEvent } from './webhook-events.server'

const HOUR_MS = 60 * 60_000

/** One agency's digest of the hour starting at `hour`; how many deliveries it queued. */
export async function emitCardViewsDigest(organizationId: string, hour: Date) {
  return withTenant(organizationId, async (tx) => {
    const rows = await countViewsInHour(tx, organizationId, hour)
    if (rows.length === 0) return 0
    const cards = new Map<
      string,
      { id: string; ownerId: string; views: number; sources: Record<string, number> }
    >()
    for (const row of rows) {
      const card = cards.get(row.cardId) ?? {
        id: row.cardId,
        ownerId: row.userId,
        views: 0,
        sources: {},
      }
      card.views += row.views
      card.sources[row.source] = (card.sources[row.source] ?? 0) + row.views
      cards.set(row.cardId, card)
    }
    return emitWebhookEvent(
      tx,
      organizationId,
      'card.viewed',
      {
        hourStart: hour.toISOString(),
        hourEnd: new Date(hour.getTime() + HOUR_MS).toISOString(),
        cards: [...cards.values()],
      },
      { dedupeKey: `card.viewed:${hour.toISOString()}` },
    )
  })
}

/** The `webhook.card-views` job: every agency's digest of the hour in its payload. */
export const cardViewsDigestJob: JobHandler = {
  async run(job) {
    const hour = new Date(job.payload.hour ?? '')
    if (Number.isNaN(hour.getTime())) throw new PermanentJobError('malformed payload')
    for (const { id } of await withDatabase((tx) => listOrganizationIds(tx))) {
      await emitCardViewsDigest(id, hour)
    }
  },
}

/** The start of the full UTC hour before `now`: the hour a digest made now summarises. */
export function previousHour(now: Date) {
  const hour = new Date(now)
  hour.setUTCMinutes(0, 0, 0)
  return new Date(hour.getTime() - HOUR_MS)
}
