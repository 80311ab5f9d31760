// The four role dashboards' data (roles-teams-admin.md §2.3): real figures for each role's
// scope, computed in SQL by app/models/stats.server.ts. A failed statistics query does not
// fail the page: it answers `statsError` and the page shows 'Could not load dashboard
// statistics' (spec §8) beside everything else it has.
import type { AppLoadContext } from '@remix-run/node'
import { sql } from 'drizzle-orm'
import { getPlatformScope, requireRole } from '#app/auth/guards.server'
import {
  listAssignedEndUsersActivity,
  listOrganizationActivity,
  listPlatformActivity,
} from '#app/models/activity.server'
import { countAssignedEndUsers } from '#app/models/assigned-users.server'
import { ownerHasCard } from '#app/models/cards.server'
import {
  countCards,
  countContactsByWeek,
  countOrganizationPeople,
  countPlatformCards,
  countPlatformPeople,
  countPlatformViewsBySourcePerDay,
  countPlatformViewsByWeek,
  countUserViewsBySourcePerDay,
  countViewsBySourcePerDay,
  countViewsByWeek,
  endUserFigures,
} from '#app/models/stats.server'
import type { User } from '#app/models/users.server'
import { AREA_ROLES, type RoleArea, rolePaths } from '#app/validation/roles'
import { withPlatformScope, withTenant } from '#drizzle/db.server'
import type { TileValues } from './dashboard-tiles'

/** Loads the figures; any failure of that work becomes `statsError` instead of an error page. */
async function loadStats<T>(work: () => Promise<T>) {
  try {
    return { stats: await work(), statsError: false as const }
  } catch (error) {
    // A 503 Response (database unreachable) is expected; anything else is a bug worth a log line.
    if (!(error instanceof Response)) console.error('dashboard statistics failed', error)
    return { stats: null, statsError: true as const }
  }
}

/**
 * The statistics with each tile's figure beside them (ADR 085): the screens draw the tiles of
 * DASHBOARD_TILES from `tiles`, and the tiles' test compares them with the lists they open.
 */
function withTiles<A extends RoleArea, S extends object>(
  _area: A,
  stats: S,
  tiles: (stats: S) => TileValues<A>,
) {
  return { ...stats, tiles: tiles(stats) }
}

const greetingName = (firstName: string) => firstName || 'there'

/**
 * The "Create your profile" banner: for someone who has neither finished the wizard nor made a
 * card any other way (a card made from the cards list, or by an admin, is a profile under way).
 */
async function offersProfileWizard(organizationId: string, user: User) {
  if (user.onboardingCompletedAt) return false
  return !(await withTenant(organizationId, (tx) => ownerHasCard(tx, organizationId, user.id)))
}

/** The end user's figures, one statement; `npm run bench` times it on 10,000 views. */
export function endUserStatistics(organizationId: string, userId: string, now: Date) {
  return withTenant(organizationId, async (tx) => {
    // A card's newest views come from (organization, card, time) read backwards. Right after a
    // burst of views, before autovacuum has analyzed (or ever, on PGlite between its ANALYZEs),
    // the planner guesses a card has few views and reads them all by a bitmap scan to sort them:
    // 41 ms at 100,000 views against 2 ms. Nothing else in the statement wants a bitmap scan.
    await tx.execute(sql`set local enable_bitmapscan = off`)
    // The two reads go out together and share a round trip (issue 44 point 3).
    const [figures, viewsBySource] = await Promise.all([
      endUserFigures(tx, organizationId, userId, now),
      // The 14-day chart by source (ADR 039), from card_view_hours.
      countUserViewsBySourcePerDay(tx, organizationId, userId, now),
    ])
    const stats = { ...figures, viewsBySource }
    return withTiles('end-user', stats, (figures) => ({
      cards: figures.cards,
      contacts: figures.contacts,
      views: figures.views,
      // A person in no team has no team members to count yet (issue 41 point 10).
      ...(figures.inTeam ? { 'team-members': figures.teamMembers } : {}),
    }))
  })
}

export async function endUserDashboard(request: Request, context: AppLoadContext) {
  const { tenant, user } = await requireRole(request, context, AREA_ROLES['end-user'])
  const now = new Date()
  const result = await loadStats(() => endUserStatistics(tenant.id, user.id, now))
  return {
    ...result,
    now: now.toISOString(),
    firstName: greetingName(user.firstName),
    offerOnboarding: await offersProfileWizard(tenant.id, user),
  }
}

export async function teamMemberDashboard(request: Request, context: AppLoadContext) {
  const { tenant, user } = await requireRole(request, context, AREA_ROLES['team-member'])
  const now = new Date()
  const scope = { kind: 'assigned', teamAdminId: user.id } as const
  const result = await loadStats(() =>
    withTenant(tenant.id, async (tx) => {
      const stats = {
        endUsers: await countAssignedEndUsers(tx, tenant.id, user.id),
        cards: await countCards(tx, tenant.id, scope),
        contacts: await countContactsByWeek(tx, tenant.id, scope, now),
        views: await countViewsByWeek(tx, tenant.id, scope, now),
        viewsBySource: await countViewsBySourcePerDay(tx, tenant.id, scope, now),
        activity: await listAssignedEndUsersActivity(tx, tenant.id, user.id),
      }
      return withTiles('team-member', stats, (figures) => ({
        'end-users': figures.endUsers,
        cards: figures.cards,
        views: figures.views,
        contacts: figures.contacts,
      }))
    }),
  )
  return {
    ...result,
    now: now.toISOString(),
    firstName: greetingName(user.firstName),
    offerOnboarding: await offersProfileWizard(tenant.id, user),
  }
}

export async function agencyDashboard(request: Request, context: AppLoadContext) {
  const { tenant, user } = await requireRole(request, context, AREA_ROLES.agency)
  const now = new Date()
  const scope = { kind: 'organization' } as const
  const result = await loadStats(() =>
    withTenant(tenant.id, async (tx) => {
      const stats = {
        people: await countOrganizationPeople(tx, tenant.id),
        cards: await countCards(tx, tenant.id, scope),
        views: await countViewsByWeek(tx, tenant.id, scope, now),
        viewsBySource: await countViewsBySourcePerDay(tx, tenant.id, scope, now),
        activity: await listOrganizationActivity(tx, tenant.id),
      }
      return withTiles('agency', stats, (figures) => ({
        'end-users': figures.people.endUsers,
        'team-members': figures.people.teamMembers,
        cards: figures.cards,
        views: figures.views,
      }))
    }),
  )
  return {
    ...result,
    now: now.toISOString(),
    agency: tenant.name,
    firstName: greetingName(user.firstName),
    digitalCardsPath: rolePaths(user.role).digitalCards,
    // The audit log is the admin's: a member's dashboard does not offer it (no dead end).
    auditLog: user.role === 'agency_admin',
  }
}

export async function superAdminDashboard(request: Request, context: AppLoadContext) {
  const { tenant, user } = await requireRole(request, context, AREA_ROLES['super-admin'])
  const now = new Date()
  const { platformScope } = await getPlatformScope(request, context)
  // The whole platform on the platform's own host; a super admin account of an agency
  // (not made by the product, but possible in data) sees that organization only.
  const tiles = (figures: {
    agencies: number
    endUsers: number
    cards: number
    views: { current: number; previous: number }
  }) => ({
    agencies: figures.agencies,
    'end-users': figures.endUsers,
    cards: figures.cards,
    views: figures.views,
  })
  const result = await loadStats(async () => {
    if (platformScope) {
      return withPlatformScope(platformScope, 'super admin dashboard statistics', async (tx) =>
        withTiles(
          'super-admin',
          {
            scope: 'platform' as const,
            ...(await countPlatformPeople(tx)),
            cards: await countPlatformCards(tx),
            views: await countPlatformViewsByWeek(tx, now),
            viewsBySource: await countPlatformViewsBySourcePerDay(tx, now),
            activity: await listPlatformActivity(tx),
          },
          tiles,
        ),
      )
    }
    return withTenant(tenant.id, async (tx) =>
      withTiles(
        'super-admin',
        {
          scope: 'organization' as const,
          agencies: 0,
          endUsers: (await countOrganizationPeople(tx, tenant.id)).endUsers,
          cards: await countCards(tx, tenant.id, { kind: 'organization' }),
          views: await countViewsByWeek(tx, tenant.id, { kind: 'organization' }, now),
          viewsBySource: await countViewsBySourcePerDay(
            tx,
            tenant.id,
            { kind: 'organization' },
            now,
          ),
          activity: await listOrganizationActivity(tx, tenant.id),
        },
        tiles,
      ),
    )
  })
  return {
    ...result,
    now: now.toISOString(),
    firstName: greetingName(user.firstName),
    digitalCardsPath: rolePaths(user.role).digitalCards,
  }
}
