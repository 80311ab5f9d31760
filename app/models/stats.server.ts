// Dashboard figures (roles-teams-admin.md §2.3, §7, §9). Every figure is one query that
// aggregates in SQL, so a dashboard costs a handful of index scans whatever the row count.
// `now` is a parameter: the windows are computed from it, and tests place rows on both sides
// of each boundary with it.

import { and, eq, gt, inArray, lte, type SQL, sql } from 'drizzle-orm'
import { VIEW_SOURCES, type ViewSource } from '#app/utils/view-sources'
import { STAFF_DIRECTORIES, USER_LIST_ROLES } from '#app/validation/people'
import type { Queryable } from '#drizzle/db.server'
import {
  auditEvents,
  cardViewHours,
  cardViews,
  contacts,
  digitalCards,
  teamMembers,
} from '#drizzle/schema'
import { countAgenciesForPlatform } from './agencies.server'
import { selectAssignedEndUserIds } from './assigned-users.server'
import {
  countEndUsersForPlatform,
  countOrganizationEndUsers,
  countStaff,
  type EndUserFilter,
} from './people.server'
import { rowsOf } from './raw-rows.server'

/** Spec §9: the last 7 days against the 7 days before. */
export const COMPARISON_DAYS = 7
/** The views chart: one bar per UTC day, today included. */
export const CHART_DAYS = 14
const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000

export type WeekOverWeek = { current: number; previous: number }

/** Whose rows a figure counts, inside one organization. */
export type StatsScope =
  // An end user: their own cards and contacts.
  | { kind: 'user'; userId: string }
  // A team member (team_admin): the end users assigned to them (users.assigned_to_user_id).
  | { kind: 'assigned'; teamAdminId: string }
  // An agency: the whole organization.
  | { kind: 'organization' }

/** The current window is (now - 7 days, now], the previous one (now - 14 days, now - 7 days]. */
export function comparisonWindows(now: Date) {
  return {
    weekAgo: new Date(now.getTime() - COMPARISON_DAYS * DAY_MS),
    twoWeeksAgo: new Date(now.getTime() - 2 * COMPARISON_DAYS * DAY_MS),
  }
}

function byWeek(column: typeof cardViews.viewedAt | typeof contacts.createdAt, now: Date) {
  const { weekAgo, twoWeeksAgo } = comparisonWindows(now)
  return {
    current: sql<number>`(count(*) filter (where ${and(gt(column, weekAgo), lte(column, now))}))::int`,
    previous: sql<number>`(count(*) filter (where ${and(gt(column, twoWeeksAgo), lte(column, weekAgo))}))::int`,
    within: and(gt(column, twoWeeksAgo), lte(column, now)),
  }
}

// The assigned scope filters on the users table only: a card's or contact's user is always of
// the same organization (composite foreign keys), so one organization filter decides, and
// dropping it makes tests/integration/model-isolation.test.ts fail. Whom a team member looks
// after is ruled in one place, beside their My End Users list (assigned-users.server.ts).
const assignedEndUsers = selectAssignedEndUserIds

/** The analytics screens' scopes (ADR 082): the dashboards' and a team's (its members' cards). */
export type CardScope = StatsScope | { kind: 'team'; teamId: string }

/** The cards a scope counts, as a condition on digital_cards (the analytics screens share it). */
export function cardsInScope(
  db: Queryable,
  organizationId: string,
  scope: CardScope,
): SQL | undefined {
  // A team's members' cards (an `if`, not a `case`: a card's visibility "team" is another rule,
  // with its one home in card-visibility.ts).
  if (scope.kind === 'team') {
    const members = db
      .select({ id: teamMembers.userId })
      .from(teamMembers)
      .where(
        and(eq(teamMembers.organizationId, organizationId), eq(teamMembers.teamId, scope.teamId)),
      )
    return and(
      eq(digitalCards.organizationId, organizationId),
      inArray(digitalCards.userId, members),
    )
  }
  switch (scope.kind) {
    case 'user':
      return and(
        eq(digitalCards.organizationId, organizationId),
        eq(digitalCards.userId, scope.userId),
      )
    case 'assigned':
      return inArray(digitalCards.userId, assignedEndUsers(db, organizationId, scope.teamAdminId))
    case 'organization':
      return eq(digitalCards.organizationId, organizationId)
  }
}

function viewsInScope(db: Queryable, organizationId: string, scope: StatsScope): SQL | undefined {
  if (scope.kind === 'organization') return eq(cardViews.organizationId, organizationId)
  const cards = db
    .select({ id: digitalCards.id })
    .from(digitalCards)
    .where(cardsInScope(db, organizationId, scope))
  return inArray(cardViews.cardId, cards)
}

function contactsInScope(db: Queryable, organizationId: string, scope: StatsScope) {
  switch (scope.kind) {
    case 'user':
      return and(eq(contacts.organizationId, organizationId), eq(contacts.userId, scope.userId))
    case 'assigned':
      return inArray(contacts.userId, assignedEndUsers(db, organizationId, scope.teamAdminId))
    case 'organization':
      return eq(contacts.organizationId, organizationId)
  }
}

async function cardCount(db: Queryable, where: SQL | undefined) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(digitalCards)
    .where(where)
  return row?.count ?? 0
}

async function viewsByWeek(
  db: Queryable,
  where: SQL | undefined,
  now: Date,
): Promise<WeekOverWeek> {
  const { current, previous, within } = byWeek(cardViews.viewedAt, now)
  const [row] = await db.select({ current, previous }).from(cardViews).where(and(where, within))
  return { current: row?.current ?? 0, previous: row?.previous ?? 0 }
}

export function countCards(db: Queryable, organizationId: string, scope: StatsScope) {
  return cardCount(db, cardsInScope(db, organizationId, scope))
}

export async function countContactsByWeek(
  db: Queryable,
  organizationId: string,
  scope: StatsScope,
  now: Date,
): Promise<WeekOverWeek> {
  const { current, previous, within } = byWeek(contacts.createdAt, now)
  const [row] = await db
    .select({ current, previous })
    .from(contacts)
    .where(and(contactsInScope(db, organizationId, scope), within))
  return { current: row?.current ?? 0, previous: row?.previous ?? 0 }
}

export function countViewsByWeek(
  db: Queryable,
  organizationId: string,
  scope: StatsScope,
  now: Date,
) {
  return viewsByWeek(db, viewsInScope(db, organizationId, scope), now)
}

/**
 * An agency's people as its End Users and Team Members screens list them unfiltered: the same
 * counts those lists' totals use (ADR 085).
 */
export async function countOrganizationPeople(db: Queryable, organizationId: string) {
  return {
    endUsers: await countOrganizationEndUsers(db, organizationId, EVERY_END_USER),
    teamMembers: await countStaff(db, organizationId, STAFF_DIRECTORIES.agency.access),
  }
}

const EVERY_END_USER = { search: '', status: null, assignedToUserId: null } as const

/** The super admin's End Users list opened on its end users (the tile's link, ADR 085). */
export const PLATFORM_END_USERS: EndUserFilter = {
  search: '',
  organizationId: null,
  status: null,
  role: 'end_user',
  roles: USER_LIST_ROLES,
}

// The platform's figures: no organization filter at all. They only see every tenant inside
// withPlatformScope (the super-admin guard's grant); inside withTenant row-level security
// narrows them to that tenant.

/** The super admin's Agencies and End Users tiles: the counts of the lists they open. */
export async function countPlatformPeople(db: Queryable) {
  return {
    agencies: await countAgenciesForPlatform(db),
    endUsers: await countEndUsersForPlatform(db, PLATFORM_END_USERS),
  }
}

export function countPlatformCards(db: Queryable) {
  return cardCount(db, undefined)
}

export function countPlatformViewsByWeek(db: Queryable, now: Date) {
  return viewsByWeek(db, undefined, now)
}

/** Events of an end user's own account shown in the activity list, with their wording. */
export const ACTIVITY_ACTIONS = [
  'card.created',
  'card.updated',
  'card.deleted',
  'card.default_set',
  'card.archived',
  'card.restored',
  'profile.updated',
] as const

export type ActivityItem = {
  id: string
  kind:
    | 'view'
    | 'connect'
    | 'lead'
    | 'saved'
    | 'manual'
    | 'scan'
    | (typeof ACTIVITY_ACTIONS)[number]
  at: string
  subject: string | null
}

/** The end user's dashboard: every figure of it, from one statement (one round trip). */
export type EndUserFigures = {
  cards: number
  contacts: WeekOverWeek
  views: WeekOverWeek
  activity: ActivityItem[]
  /**
   * The people of all the user's teams, each once and the user included, as the Team page's
   * members table lists them (spec §2.3 shows a fixed 3; ADR 085).
   */
  teamMembers: number
  /** Whether the user belongs to a team at all: without one, a count of teammates cannot apply. */
  inTeam: boolean
}

/**
 * Everything the end user's dashboard shows, in one statement: their cards; contacts and card
 * views of the last 7 days against the 7 before; their recent activity, newest first (views of
 * their cards, contacts they gained by source, changes to their cards and profile); the people
 * of their teams. Each part is served by an index: the views are summed card by
 * card from card_view_hours (whole hours) and counted on (organization_id, card_id, viewed_at)
 * only in the hours the windows' edges cut, and each activity branch takes its newest rows by
 * index (the views per card) before the merge, so no branch reads all of a card's views.
 */
export async function endUserFigures(
  db: Queryable,
  organizationId: string,
  userId: string,
  now: Date,
  limit = 8,
): Promise<EndUserFigures> {
  const { weekAgo, twoWeeksAgo } = comparisonWindows(now)
  const at = (date: Date) => sql`${date.toISOString()}::timestamptz`
  // Each week's whole hours come from card_view_hours, the current hour included; the two hours
  // a window's edge cuts (two weeks ago, one week ago) are counted view by view, and views
  // recorded after \`now\` (in this hour, by requests running meanwhile) are taken back out. The
  // current hour is never counted row by row: a card viewed 100,000 times in it would cost as
  // many rows on every dashboard load.
  const floorHour = (date: Date) => new Date(Math.floor(date.getTime() / HOUR_MS) * HOUR_MS)
  const nextHour = (date: Date) => new Date(floorHour(date).getTime() + HOUR_MS)
  const result = await db.execute(sql`
    with my_cards as (
      select organization_id, id, title from ${digitalCards}
      where organization_id = ${organizationId} and user_id = ${userId}
    ),
    view_weeks as (
      select
        coalesce(sum(w.current), 0)::int as current,
        coalesce(sum(w.previous), 0)::int as previous
      from my_cards c
      cross join lateral (
        select
          sum(h.views) filter (where h.hour >= ${at(nextHour(weekAgo))}) as current,
          sum(h.views) filter (where h.hour < ${at(floorHour(weekAgo))}) as previous
        from ${cardViewHours} h
        where h.organization_id = c.organization_id and h.card_id = c.id
          and h.hour >= ${at(nextHour(twoWeeksAgo))} and h.hour < ${at(nextHour(now))}
        union all
        select
          count(*) filter (where e.viewed_at > ${at(weekAgo)}),
          count(*) filter (where e.viewed_at <= ${at(weekAgo)})
        from (
          select viewed_at from ${cardViews}
          where organization_id = c.organization_id and card_id = c.id
            and viewed_at > ${at(twoWeeksAgo)} and viewed_at < ${at(nextHour(twoWeeksAgo))}
          union all
          select viewed_at from ${cardViews}
          where organization_id = c.organization_id and card_id = c.id
            and viewed_at >= ${at(floorHour(weekAgo))} and viewed_at < ${at(nextHour(weekAgo))}
        ) e
        union all
        select -count(*), 0::bigint from ${cardViews}
        where organization_id = c.organization_id and card_id = c.id
          and viewed_at > ${at(now)} and viewed_at < ${at(nextHour(now))}
      ) w
    ),
    contact_weeks as (
      select
        (count(*) filter (where created_at > ${at(weekAgo)}))::int as current,
        (count(*) filter (where created_at <= ${at(weekAgo)}))::int as previous
      from ${contacts}
      where organization_id = ${organizationId} and user_id = ${userId}
        and created_at > ${at(twoWeeksAgo)} and created_at <= ${at(now)}
    ),
    activity as (
      (
        select v.id, 'view' as kind, v.viewed_at as at, c.title as subject
        from my_cards c
        cross join lateral (
          select id, viewed_at from ${cardViews}
          where organization_id = c.organization_id and card_id = c.id
          order by viewed_at desc
          limit ${limit}
        ) v
      )
      union all
      (
        select id, source::text, created_at, full_name from ${contacts}
        where organization_id = ${organizationId} and user_id = ${userId}
        order by created_at desc
        limit ${limit}
      )
      union all
      (
        select id, action, created_at, null::text from ${auditEvents}
        where organization_id = ${organizationId} and actor_user_id = ${userId}
          and action in (${sql.join(
            ACTIVITY_ACTIONS.map((action) => sql`${action}`),
            sql`, `,
          )})
        order by created_at desc
        limit ${limit}
      )
      order by at desc
      limit ${limit}
    ),
    team_people as (
      select count(distinct other.user_id)::int as n
      from ${teamMembers} mine
      join ${teamMembers} other
        on other.organization_id = mine.organization_id and other.team_id = mine.team_id
      where mine.organization_id = ${organizationId} and mine.user_id = ${userId}
    )
    select json_build_object(
      'cards', (select count(*)::int from my_cards),
      'contacts', (select json_build_object('current', current, 'previous', previous) from contact_weeks),
      'views', (select json_build_object('current', current, 'previous', previous) from view_weeks),
      'activity', coalesce(
        (select json_agg(json_build_object('id', id, 'kind', kind, 'at', at, 'subject', subject)
          order by at desc) from activity),
        '[]'::json),
      'teamMembers', (select n from team_people),
      'inTeam', exists(
        select 1 from ${teamMembers} mine
        where mine.organization_id = ${organizationId} and mine.user_id = ${userId}
      )
    ) as figures`)
  const [row] = rowsOf<{ figures: EndUserFigures | string }>(result)
  const figures: EndUserFigures =
    typeof row?.figures === 'string' ? JSON.parse(row.figures) : (row?.figures as EndUserFigures)
  return {
    ...figures,
    activity: figures.activity.map((item) => ({ ...item, at: new Date(item.at).toISOString() })),
  }
}

/** A day's views of the chart split by source (sources without views left out). */
export type SourcedDay = {
  day: string
  views: number
  sources: Partial<Record<ViewSource, number>>
}
/** One card's views of the last 14 days, in all and by source. */
export type CardSourceViews = {
  cardId: string
  views: number
  sources: Partial<Record<ViewSource, number>>
}

/**
 * The views of a user's cards in the chart's 14 UTC days up to `now`, by day, card and source:
 * read from card_view_hours (whole hours, the current one included), less the views of the
 * current hour recorded after `now`, so the sum equals a plain count of the views. A few rows
 * per card and day whatever the traffic (ADR 039).
 */
async function userViewsBySource(db: Queryable, organizationId: string, userId: string, now: Date) {
  const today = now.toISOString().slice(0, 10)
  const firstDay = new Date(Date.parse(today) - (CHART_DAYS - 1) * DAY_MS)
  const nextHour = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS)
  const at = (date: Date) => sql`${date.toISOString()}::timestamptz`
  const result = await db.execute(sql`
    with my_cards as (
      select organization_id, id from ${digitalCards}
      where organization_id = ${organizationId} and user_id = ${userId}
    ),
    counts as (
      select h.card_id, (h.hour at time zone 'UTC')::date as day, h.source, h.views::bigint as views
      from my_cards c
      join ${cardViewHours} h on h.organization_id = c.organization_id and h.card_id = c.id
      where h.hour >= ${at(firstDay)} and h.hour < ${at(nextHour)}
      union all
      select v.card_id, (v.viewed_at at time zone 'UTC')::date, v.source, -1
      from my_cards c
      join ${cardViews} v on v.organization_id = c.organization_id and v.card_id = c.id
      where v.viewed_at > ${at(now)} and v.viewed_at < ${at(nextHour)}
    )
    select card_id as "cardId", to_char(day, 'YYYY-MM-DD') as day, source::text as source,
      sum(views)::int as views
    from counts
    group by card_id, day, source
    having sum(views) > 0`)
  return rowsOf<{ cardId: string; day: string; source: ViewSource; views: number }>(result).map(
    (row) => ({ ...row, views: Number(row.views) }),
  )
}

const sourceOrder = (a: string, b: string) =>
  VIEW_SOURCES.indexOf(a as ViewSource) - VIEW_SOURCES.indexOf(b as ViewSource)

function addTo(sources: Partial<Record<ViewSource, number>>, source: ViewSource, views: number) {
  sources[source] = (sources[source] ?? 0) + views
}

/** The end user's views chart by source: the last 14 UTC days, oldest first, every day present. */
export async function countUserViewsBySourcePerDay(
  db: Queryable,
  organizationId: string,
  userId: string,
  now: Date,
): Promise<SourcedDay[]> {
  return sourcedDays(await userViewsBySource(db, organizationId, userId, now), now)
}

/** Rows of (day, source, views) as the chart's 14 days, oldest first, every day present. */
function sourcedDays(
  rows: { day: string; source: ViewSource; views: number }[],
  now: Date,
): SourcedDay[] {
  const today = Date.parse(now.toISOString().slice(0, 10))
  const days = Array.from({ length: CHART_DAYS }, (_, i) => ({
    day: new Date(today - (CHART_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10),
    views: 0,
    sources: {} as Partial<Record<ViewSource, number>>,
  }))
  const byDay = new Map(days.map((day) => [day.day, day]))
  for (const row of rows.sort((a, b) => sourceOrder(a.source, b.source))) {
    const day = byDay.get(row.day)
    if (!day) continue
    day.views += row.views
    addTo(day.sources, row.source, row.views)
  }
  return days
}

/** Each of the user's cards with views in the last 14 days: its views in all and by source. */
export async function countCardViewsBySource(
  db: Queryable,
  organizationId: string,
  userId: string,
  now: Date,
): Promise<CardSourceViews[]> {
  const rows = await userViewsBySource(db, organizationId, userId, now)
  const byCard = new Map<string, CardSourceViews>()
  for (const row of rows.sort((a, b) => sourceOrder(a.source, b.source))) {
    const card = byCard.get(row.cardId) ?? { cardId: row.cardId, views: 0, sources: {} }
    card.views += row.views
    addTo(card.sources, row.source, row.views)
    byCard.set(row.cardId, card)
  }
  return [...byCard.values()]
}

/**
 * The admin dashboards' chart (ADR 039): the views of `cards` (a select of organization_id and
 * id; every card of every tenant when null, the platform) in the 14 UTC days up to `now`, by day
 * and source. Read from card_view_hours like the end user's, less the views of the current hour
 * recorded after `now`, which are looked up only for the cards the current hour has rows of: the
 * rollup is exact, so no other card can have any.
 */
async function viewsBySourcePerDay(
  db: Queryable,
  scoped: { organizationId: string; cards: SQL } | null,
  now: Date,
): Promise<SourcedDay[]> {
  const today = now.toISOString().slice(0, 10)
  const firstDay = new Date(Date.parse(today) - (CHART_DAYS - 1) * DAY_MS)
  const thisHour = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS)
  const nextHour = new Date(thisHour.getTime() + HOUR_MS)
  const at = (date: Date) => sql`${date.toISOString()}::timestamptz`
  const hours = scoped
    ? sql`(${scoped.cards}) c
      join ${cardViewHours} h on h.organization_id = c.organization_id and h.card_id = c.id
      where h.organization_id = ${scoped.organizationId} and`
    : sql`${cardViewHours} h where`
  const result = await db.execute(sql`
    with hours as (
      select h.organization_id, h.card_id, h.hour, h.source, h.views
      from ${hours} h.hour >= ${at(firstDay)} and h.hour < ${at(nextHour)}
    ),
    counts as (
      select (hour at time zone 'UTC')::date as day, source, views::bigint as views from hours
      union all
      select (v.viewed_at at time zone 'UTC')::date, v.source, -1
      from (select distinct organization_id, card_id from hours where hour = ${at(thisHour)}) c
      join ${cardViews} v on v.organization_id = c.organization_id and v.card_id = c.card_id
      where v.viewed_at > ${at(now)} and v.viewed_at < ${at(nextHour)}
    )
    select to_char(day, 'YYYY-MM-DD') as day, source::text as source, sum(views)::int as views
    from counts
    group by day, source
    having sum(views) > 0`)
  const rows = rowsOf<{ day: string; source: ViewSource; views: number }>(result)
  return sourcedDays(
    rows.map((row) => ({ ...row, views: Number(row.views) })),
    now,
  )
}

/** A team member's or agency's chart by source: the views of the scope's cards. */
export function countViewsBySourcePerDay(
  db: Queryable,
  organizationId: string,
  scope: StatsScope,
  now: Date,
) {
  const cards = db
    .select({ organizationId: digitalCards.organizationId, id: digitalCards.id })
    .from(digitalCards)
    .where(cardsInScope(db, organizationId, scope))
  return viewsBySourcePerDay(db, { organizationId, cards: sql`${cards}` }, now)
}

/** The super admin's chart by source: every tenant's views (inside withPlatformScope). */
export function countPlatformViewsBySourcePerDay(db: Queryable, now: Date) {
  return viewsBySourcePerDay(db, null, now)
}
