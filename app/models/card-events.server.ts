// Saves, link taps and exchanges of cards (issue 41 point 8, ADR 082), kept per card, UTC hour,
// source and kind in card_event_hours as views are in card_view_hours; the analytics screens
// read both rollups over whole hours, never a row per visitor.

import { and, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { ViewSource } from '#app/utils/view-sources'
import type { Queryable } from '#drizzle/db.server'
import { cardEventHours, cardLinks, cardViewHours, digitalCards, users } from '#drizzle/schema'
import { rowsOf } from './raw-rows.server'
import { type CardScope, cardsInScope } from './stats.server'
import { tenantJoin } from './tenant-join.server'

export const CARD_EVENT_KINDS = cardEventHours.kind.enumValues
export type CardEventKind = (typeof CARD_EVENT_KINDS)[number]

export type CardEventCount = {
  cardId: string
  hour: Date
  source: ViewSource
  kind: CardEventKind
  /** The tapped link's id for 'link'; '' for every other kind. */
  linkId: string
  count: number
}

/**
 * Adds counted events to their hours in one statement (the event batcher's flush): none for a
 * card that is not the organization's (deleted since), so a late flush never fails on it.
 * Returns how many hour rows were written.
 */
export async function recordCardEvents(
  db: Queryable,
  organizationId: string,
  events: CardEventCount[],
) {
  if (events.length === 0) return 0
  // One parameter whatever the number of rows: a constant text, prepared once per connection
  // (as recordCardViews).
  const rows = JSON.stringify(
    events.map((e) => ({
      card_id: e.cardId,
      hour: e.hour.toISOString(),
      source: e.source,
      kind: e.kind,
      link_id: e.linkId,
      count: e.count,
    })),
  )
  const written = await db.execute(sql`
    insert into ${cardEventHours} (organization_id, card_id, hour, source, kind, link_id, count)
    select ${organizationId}::uuid, v.card_id, v.hour, v.source, v.kind, v.link_id, v.count
    from jsonb_to_recordset(${rows}::jsonb)
      as v(card_id uuid, hour timestamptz, source view_source, kind card_event_kind, link_id text, count int)
    where exists (
      select 1 from ${digitalCards} d
      where d.organization_id = ${organizationId}::uuid and d.id = v.card_id
    )
    on conflict (organization_id, card_id, hour, source, kind, link_id)
    do update set count = ${cardEventHours}.count + excluded.count
    returning card_id`)
  return rowsOf(written).length
}

/** Views ('view') and events per card, source and kind of a scope's cards in [from, to). */
export type AnalyticsCount = {
  cardId: string
  source: ViewSource
  kind: CardEventKind | 'view'
  count: number
}

/** The scope's cards, as the rollup queries join them (always within the organization). */
function scopedCards(db: Queryable, organizationId: string, scope: CardScope) {
  return db
    .select({ organizationId: digitalCards.organizationId, id: digitalCards.id })
    .from(digitalCards)
    .where(
      and(eq(digitalCards.organizationId, organizationId), cardsInScope(db, organizationId, scope)),
    )
}

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`

/**
 * The scope's views and events in whole UTC hours from `from` up to `to`, per card, source and
 * kind, from the two rollups: a few rows per card whatever the traffic.
 */
export async function countCardActivity(
  db: Queryable,
  organizationId: string,
  scope: CardScope,
  from: Date,
  to: Date,
): Promise<AnalyticsCount[]> {
  const cards = scopedCards(db, organizationId, scope)
  const result = await db.execute(sql`
    with scoped as (${cards})
    select h.card_id as "cardId", h.source::text as source, 'view' as kind,
      sum(h.views)::int as count
    from scoped c
    join ${cardViewHours} h on h.organization_id = c.organization_id and h.card_id = c.id
    where h.organization_id = ${organizationId} and h.hour >= ${at(from)} and h.hour < ${at(to)}
    group by h.card_id, h.source
    union all
    select e.card_id, e.source::text, e.kind::text, sum(e.count)::int
    from scoped c
    join ${cardEventHours} e on e.organization_id = c.organization_id and e.card_id = c.id
    where e.organization_id = ${organizationId} and e.hour >= ${at(from)} and e.hour < ${at(to)}
    group by e.card_id, e.source, e.kind`)
  return rowsOf<AnalyticsCount>(result)
    .map((row) => ({ ...row, count: Number(row.count) }))
    .filter((row) => row.count > 0)
}

export type LinkTaps = {
  cardId: string
  linkId: string
  /** Null for a link removed from the card since. */
  kind: string | null
  label: string | null
  url: string | null
  taps: number
}

/** Taps on each link of the scope's cards in [from, to), most tapped first. */
export async function countLinkTaps(
  db: Queryable,
  organizationId: string,
  scope: CardScope,
  from: Date,
  to: Date,
): Promise<LinkTaps[]> {
  const cards = scopedCards(db, organizationId, scope)
  const result = await db.execute(sql`
    with scoped as (${cards})
    select e.card_id as "cardId", e.link_id as "linkId", l.kind::text as kind, l.label, l.url,
      sum(e.count)::int as taps
    from scoped c
    join ${cardEventHours} e on e.organization_id = c.organization_id and e.card_id = c.id
    left join ${cardLinks} l
      on l.organization_id = e.organization_id and l.card_id = e.card_id and l.id::text = e.link_id
    where e.organization_id = ${organizationId} and e.kind = 'link'
      and e.hour >= ${at(from)} and e.hour < ${at(to)}
    group by e.card_id, e.link_id, l.kind, l.label, l.url
    having sum(e.count) > 0
    order by taps desc, e.link_id`)
  return rowsOf<LinkTaps>(result).map((row) => ({ ...row, taps: Number(row.taps) }))
}

/** The names the analytics screens give cards: the card's title and its owner's name. */
export function listCardNames(db: Queryable, organizationId: string, cardIds: string[]) {
  if (cardIds.length === 0) return Promise.resolve([])
  return db
    .select({
      id: digitalCards.id,
      title: digitalCards.title,
      firstName: digitalCards.firstName,
      lastName: digitalCards.lastName,
      ownerFirstName: users.firstName,
      ownerLastName: users.lastName,
    })
    .from(digitalCards)
    .innerJoin(users, tenantJoin(users, digitalCards, users.id, digitalCards.userId))
    .where(and(eq(digitalCards.organizationId, organizationId), inArray(digitalCards.id, cardIds)))
}

/** One card's views and events per UTC day, source and kind (the REST API's analytics). */
export type DailyCount = {
  day: string
  source: ViewSource
  kind: CardEventKind | 'view'
  count: number
}

/**
 * A card's views and events in whole UTC hours from `from` up to `to`, per UTC day, source and
 * kind, from the same two rollups the analytics screens read.
 */
export async function countCardActivityPerDay(
  db: Queryable,
  organizationId: string,
  cardId: string,
  from: Date,
  to: Date,
): Promise<DailyCount[]> {
  const day = (column: SQL) => sql`to_char((${column} at time zone 'UTC')::date, 'YYYY-MM-DD')`
  const result = await db.execute(sql`
    select ${day(sql`h.hour`)} as day, h.source::text as source, 'view' as kind,
      sum(h.views)::int as count
    from ${cardViewHours} h
    where h.organization_id = ${organizationId} and h.card_id = ${cardId}
      and h.hour >= ${at(from)} and h.hour < ${at(to)}
    group by 1, h.source
    union all
    select ${day(sql`e.hour`)}, e.source::text, e.kind::text, sum(e.count)::int
    from ${cardEventHours} e
    where e.organization_id = ${organizationId} and e.card_id = ${cardId}
      and e.hour >= ${at(from)} and e.hour < ${at(to)}
    group by 1, e.source, e.kind
    order by 1, 2, 3`)
  return rowsOf<DailyCount>(result)
    .map((row) => ({ ...row, count: Number(row.count) }))
    .filter((row) => row.count > 0)
}
