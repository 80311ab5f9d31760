// `card.viewed` (issue 43 point 3, ADR 093): never one event per view (a busy card would flood
// its receivers, and a view is a visitor's), but an hourly digest per agency, read from the
// hourly rollup (card_view_hours): for each card viewed in the hour, its views by source. The
// job is queued once an hour by the worker's housekeeping (enqueueDailyJobs) for the hour before.
// No process may be up during the next hour, so the job is not queued for every hour: each run
// makes every full hour since the agency's cursor (webhook_digest_cursors), up to three days
// back. The message's dedupe key keeps it to one per agency and hour whatever runs it twice.

import { type JobHandler, PermanentJobError } from '#app/jobs/worker.server'
import { countViewsInHours } from '#app/models/card-views.server'
import { listOrganizationIds } from '#app/models/organizations.server'
import {
  listSubscribedWebhookEndpoints,
  lockWebhookDigestCursor,
  saveWebhookDigestCursor,
} from '#app/models/webhooks.server'
import { WEBHOOK_RETRY_WINDOW_MS } from '#app/validation/webhooks'
import { type Transaction, withDatabase, withTenant } from '#drizzle/db.server'
import { emitWebhookEvent } from './webhook-events.server'

const HOUR_MS = 60 * 60_000
const EVENT = 'card.viewed'

/**
 * How many hours one run goes back at most: the retry window's three days. An older hour's
 * delivery would be past its last retry before its first attempt.
 */
export const CARD_VIEWS_CATCH_UP_HOURS = WEBHOOK_RETRY_WINDOW_MS / HOUR_MS

type HourRow = Awaited<ReturnType<typeof countViewsInHours>>[number]

/** One hour's digest from its rollup rows, in the caller's transaction; deliveries queued. */
async function emitHourDigest(
  tx: Transaction,
  organizationId: string,
  hour: Date,
  rows: HourRow[],
) {
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
    EVENT,
    {
      hourStart: hour.toISOString(),
      hourEnd: new Date(hour.getTime() + HOUR_MS).toISOString(),
      cards: [...cards.values()],
    },
    { dedupeKey: `${EVENT}:${hour.toISOString()}` },
  )
}

/**
 * One agency's digests of every full hour after its cursor up to `lastHour` (the start of the
 * last hour to send), at most CARD_VIEWS_CATCH_UP_HOURS of them; an agency without a cursor yet
 * (its first run) starts at `lastHour`. Hours without views send nothing. The cursor moves to
 * `lastHour` in the same transaction, also when no endpoint subscribes: an endpoint made later
 * hears of the hours after it, not of a backlog from before. How many deliveries were queued.
 */
export async function emitCardViewsDigests(organizationId: string, lastHour: Date) {
  return withTenant(organizationId, async (tx) => {
    const cursor = await lockWebhookDigestCursor(tx, organizationId, EVENT)
    const oldest = lastHour.getTime() - (CARD_VIEWS_CATCH_UP_HOURS - 1) * HOUR_MS
    const first = Math.max(cursor ? cursor.getTime() + HOUR_MS : lastHour.getTime(), oldest)
    if (first > lastHour.getTime()) return 0
    let queued = 0
    if ((await listSubscribedWebhookEndpoints(tx, organizationId, EVENT)).length > 0) {
      const rows = await countViewsInHours(
        tx,
        organizationId,
        new Date(first),
        new Date(lastHour.getTime() + HOUR_MS),
      )
      const hours = new Map<number, HourRow[]>()
      for (const row of rows) {
        const ofHour = hours.get(row.hour.getTime())
        if (ofHour) ofHour.push(row)
        else hours.set(row.hour.getTime(), [row])
      }
      for (const [hour, ofHour] of hours) {
        queued += await emitHourDigest(tx, organizationId, new Date(hour), ofHour)
      }
    }
    await saveWebhookDigestCursor(tx, organizationId, EVENT, lastHour)
    return queued
  })
}

/** The `webhook.card-views` job: every agency's digests up to the hour in its payload. */
export const cardViewsDigestJob: JobHandler = {
  async run(job) {
    const hour = new Date(job.payload.hour ?? '')
    if (Number.isNaN(hour.getTime())) throw new PermanentJobError('malformed payload')
    for (const { id } of await withDatabase((tx) => listOrganizationIds(tx))) {
      await emitCardViewsDigests(id, hour)
    }
  },
}

/** The start of the full UTC hour before `now`: the last hour a digest made now summarises. */
export function previousHour(now: Date) {
  const hour = new Date(now)
  hour.setUTCMinutes(0, 0, 0)
  return new Date(hour.getTime() - HOUR_MS)
}
