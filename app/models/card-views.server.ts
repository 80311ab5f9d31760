import { and, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm'
import type { ViewSource } from '#app/utils/view-sources'
import type { Queryable } from '#drizzle/db.server'
import { cardViewHours, cardViews, digitalCards } from '#drizzle/schema'
import { rowsOf } from './raw-rows.server'
import { tenantJoin } from './tenant-join.server'

export const DEVICE_CLASSES = ['mobile', 'tablet', 'desktop'] as const
export type DeviceClass = (typeof DEVICE_CLASSES)[number] | 'unknown'

/** The kind of device a user agent names; nothing else of it is kept. */
export function deviceClassOf(userAgent: string): DeviceClass {
  if (!userAgent) return 'unknown'
  if (/iPad|Tablet|PlayBook|Silk|(Android(?!.*Mobile))/i.test(userAgent)) return 'tablet'
  if (/Mobi|iPhone|iPod|Android|BlackBerry|IEMobile|Opera Mini/i.test(userAgent)) return 'mobile'
  return 'desktop'
}

export const REPEAT_WINDOW_MINUTES = 30

/**
 * Whether an earlier view falls in the repeat window of a later one. The repeat check matches the
 * visitor hash, which is keyed by the card, so (organization, visitor, time) answers it from a
 * few entries. It names no card and puts no range on viewed_at that (organization, card, time)
 * could serve: a planner without statistics (PGlite has no autovacuum; a freshly loaded table)
 * chose that index and read every view of the card in the window for each new one, so a batch
 * of views cost the square of the traffic.
 */
const withinRepeatWindow = (earlier: SQL, later: SQL) =>
  sql`${later} - ${earlier} >= interval '0' and ${later} - ${earlier} < make_interval(mins => ${REPEAT_WINDOW_MINUTES})`

/**
 * Records a view unless the same visitor viewed the card within the last 30 minutes.
 * One statement; returns whether a row was written.
 */
export async function recordCardView(
  db: Queryable,
  organizationId: string,
  cardId: string,
  visitorHash: string,
  deviceClass: DeviceClass = 'unknown',
  source: ViewSource = 'direct',
) {
  const rows = await db.execute(sql`
    insert into ${cardViews} (organization_id, card_id, visitor_hash, device_class, source)
    select ${organizationId}, ${cardId}, ${visitorHash}, ${deviceClass}, ${source}::view_source
    where not exists (
      select 1 from ${cardViews}
      where organization_id = ${organizationId} and visitor_hash = ${visitorHash}
        and ${withinRepeatWindow(sql`viewed_at`, sql`now()`)}
    )
    returning id`)
  return rowsOf(rows).length > 0
}

/**
 * Records many views in one statement (the page cache's batches, app/cards/view-batcher.server.ts):
 * each row unless that visitor viewed that card in the 30 minutes before it, and none for a card
 * that is not the organization's (deleted since the view). Returns how many were written.
 */
export async function recordCardViews(
  db: Queryable,
  organizationId: string,
  views: {
    cardId: string
    visitorHash: string
    deviceClass: DeviceClass
    /** Unmarked when left out: direct. */
    source?: ViewSource
    viewedAt: Date
  }[],
) {
  if (views.length === 0) return 0
  // One parameter whatever the batch's size, so the statement's text never changes: a VALUES list
  // of 1 to 500 rows was a new statement for each size, which every pooled connection prepared
  // and kept, each with a text and a signature of up to 30 KB (found in a heap snapshot).
  const rows = JSON.stringify(
    views.map((view) => ({
      card_id: view.cardId,
      visitor_hash: view.visitorHash,
      device_class: view.deviceClass,
      source: view.source ?? 'direct',
      viewed_at: view.viewedAt.toISOString(),
    })),
  )
  const written = await db.execute(sql`
    insert into ${cardViews} (organization_id, card_id, visitor_hash, device_class, source, viewed_at)
    select ${organizationId}::uuid, v.card_id, v.visitor_hash, v.device_class, v.source, v.viewed_at
    from jsonb_to_recordset(${rows}::jsonb)
      as v(card_id uuid, visitor_hash text, device_class text, source view_source, viewed_at timestamptz)
    where exists (
      select 1 from ${digitalCards} d
      where d.organization_id = ${organizationId}::uuid and d.id = v.card_id
    )
    and not exists (
      select 1 from ${cardViews} c
      where c.organization_id = ${organizationId}::uuid and c.visitor_hash = v.visitor_hash
        and ${withinRepeatWindow(sql`c.viewed_at`, sql`v.viewed_at`)}
    )
    returning id`)
  return rowsOf(written).length
}

/** Joins a view to the card it is of, in the view's own organization. */
export const viewedCard = tenantJoin(digitalCards, cardViews, digitalCards.id, cardViews.cardId)

/** The profile's Card Scans: when the user's cards were opened, newest first (no visitor data). */
export function listCardScans(db: Queryable, organizationId: string, userId: string, limit = 50) {
  return db
    .select({
      id: cardViews.id,
      viewedAt: cardViews.viewedAt,
      deviceClass: cardViews.deviceClass,
      cardId: digitalCards.id,
      cardTitle: digitalCards.title,
      firstName: digitalCards.firstName,
    })
    .from(cardViews)
    .innerJoin(digitalCards, viewedCard)
    .where(and(eq(cardViews.organizationId, organizationId), eq(digitalCards.userId, userId)))
    .orderBy(desc(cardViews.viewedAt), desc(cardViews.id))
    .limit(limit)
}

/** Joins an hour's views to the card they are of, in the rollup row's own organization. */
const countedCard = tenantJoin(digitalCards, cardViewHours, digitalCards.id, cardViewHours.cardId)

/** The views of the hours a rollup query groups together. */
const summedViews = sql<number>`sum(${cardViewHours.views})::int`

/** Every view of the user's cards, counted per card and source (the data export, ADR 052). */
export function countViewsPerCardAndSource(db: Queryable, organizationId: string, userId: string) {
  return db
    .select({
      cardId: cardViewHours.cardId,
      source: cardViewHours.source,
      views: summedViews,
    })
    .from(cardViewHours)
    .innerJoin(digitalCards, countedCard)
    .where(and(eq(cardViewHours.organizationId, organizationId), eq(digitalCards.userId, userId)))
    .groupBy(cardViewHours.cardId, cardViewHours.source)
    .orderBy(cardViewHours.cardId, cardViewHours.source)
}

/**
 * The views of every card of the organization in the UTC hours from `from` (included) to `to`
 * (excluded), per hour and source: the hourly `card.viewed` webhook digests (ADR 093), read from
 * the rollup, never from a visitor's row. One query for a run that catches up on many hours.
 */
export function countViewsInHours(db: Queryable, organizationId: string, from: Date, to: Date) {
  return db
    .select({
      hour: cardViewHours.hour,
      cardId: cardViewHours.cardId,
      userId: digitalCards.userId,
      source: cardViewHours.source,
      views: summedViews,
    })
    .from(cardViewHours)
    .innerJoin(digitalCards, countedCard)
    .where(
      and(
        eq(cardViewHours.organizationId, organizationId),
        gte(cardViewHours.hour, from),
        lt(cardViewHours.hour, to),
      ),
    )
    .groupBy(cardViewHours.hour, cardViewHours.cardId, digitalCards.userId, cardViewHours.source)
    .orderBy(cardViewHours.hour, cardViewHours.cardId, cardViewHours.source)
}
