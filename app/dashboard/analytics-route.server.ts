// The analytics screen and its CSV (issue 41 point 8, ADR 082): the same filters, read by one
// schema, and the same figures. Whose cards a person may look at follows their role: everyone
// their own (every role owns cards, ADR 007), a team admin also the end users assigned to them,
// an agency admin (and a super admin, for their organization) also the whole agency.
import type { AppLoadContext } from '@remix-run/node'
import { requireUser } from '#app/auth/guards.server'
import type { CardScope } from '#app/models/stats.server'
import { listOrganizationTeams, listTeamsForUser } from '#app/models/teams.server'
import type { User } from '#app/models/users.server'
import { csvResponse } from '#app/utils/csv-response.server'
import { formatRate } from '#app/utils/rate'
import { SOURCE_LABELS } from '#app/utils/view-sources'
import {
  type AnalyticsQuery,
  type AnalyticsScopeName,
  readAnalyticsQuery,
} from '#app/validation/analytics'
import { withTenant } from '#drizzle/db.server'
import { type Figures, loadAnalytics } from './card-analytics.server'

export const ANALYTICS_PATH = '/dashboard/analytics'
export const ANALYTICS_CSV_PATH = '/dashboard/analytics.csv'

/** A scope a person may choose, as the screen offers it. */
export type ScopeOption = { scope: AnalyticsScopeName; team?: string; label: string }

const ADMINS: User['role'][] = ['agency_admin', 'super_admin']

/**
 * The scopes a person may choose, their own first: a team admin also their assigned end users;
 * an agency admin (a super admin, for their organization) the whole agency and each of its
 * teams; anyone who is an admin of a team (team role), that team's members.
 */
export async function analyticsScopesOf(organizationId: string, user: User) {
  const options: ScopeOption[] = [{ scope: 'mine', label: 'My cards' }]
  if (user.role === 'team_admin') options.push({ scope: 'assigned', label: 'My end users' })
  const admin = ADMINS.includes(user.role)
  if (admin) options.push({ scope: 'agency', label: 'Whole agency' })
  const teams = await withTenant(organizationId, async (tx) =>
    admin
      ? await listOrganizationTeams(tx, organizationId)
      : (await listTeamsForUser(tx, organizationId, user.id)).filter(
          (team) => team.myRole === 'admin',
        ),
  )
  for (const team of teams) {
    options.push({ scope: 'team', team: team.id, label: `Team ${team.name}` })
  }
  return options
}

function statsScopeOf(query: AnalyticsQuery, user: User): CardScope {
  if (query.scope === 'assigned') return { kind: 'assigned', teamAdminId: user.id }
  if (query.scope === 'agency') return { kind: 'organization' }
  if (query.scope === 'team' && query.team) return { kind: 'team', teamId: query.team }
  return { kind: 'user', userId: user.id }
}

async function readRequest(request: Request, context: AppLoadContext) {
  const { tenant, user } = await requireUser(request, context)
  const query = readAnalyticsQuery(new URL(request.url).searchParams)
  const scopes = await analyticsScopesOf(tenant.id, user)
  const chosen = scopes.find(
    (option) => option.scope === query.scope && (option.team ?? null) === (query.team ?? null),
  )
  // A scope the person may not choose is refused, never quietly narrowed: a link shared between
  // roles must not show one person's figures as if they were the agency's.
  if (!chosen) throw new Response('Forbidden', { status: 403 })
  const analytics = await loadAnalytics(
    tenant.id,
    statsScopeOf(query, user),
    query.days,
    new Date(),
  )
  return { tenant, query, scopes, chosen, analytics }
}

export async function analyticsLoader(request: Request, context: AppLoadContext) {
  const { tenant, query, scopes, chosen, analytics } = await readRequest(request, context)
  return {
    agency: tenant.name,
    scope: query.scope,
    team: query.team ?? null,
    chosen,
    scopes,
    analytics,
  }
}

const FIGURE_COLUMNS: [string, (f: Figures) => string][] = [
  ['Views', (f) => String(f.views)],
  ['vCard saves', (f) => String(f.vcardSaves)],
  ['Wallet saves', (f) => String(f.walletSaves)],
  ['Link taps', (f) => String(f.linkTaps)],
  ['Lead forms', (f) => String(f.leads)],
  ['Connects', (f) => String(f.connects)],
  ['Exchanges', (f) => String(f.exchanges)],
  ['View to save', (f) => formatRate(f.saveRate)],
  ['View to exchange', (f) => formatRate(f.exchangeRate)],
]

/** The CSV: one row per card, per source and per link, each saying which it is. */
export async function analyticsCsvLoader(request: Request, context: AppLoadContext) {
  const { query, analytics } = await readRequest(request, context)
  const figures = (f: Figures) => FIGURE_COLUMNS.map(([, value]) => value(f))
  const lines: string[][] = [
    ['Row', 'Name', 'Owner', ...FIGURE_COLUMNS.map(([name]) => name), 'From', 'To'],
    ['Total', 'All cards', '', ...figures(analytics.totals), analytics.from, analytics.to],
    ...analytics.cards.map((card) => [
      'Card',
      card.name,
      card.owner,
      ...figures(card),
      analytics.from,
      analytics.to,
    ]),
    ...analytics.sources.map((source) => [
      'Source',
      SOURCE_LABELS[source.source],
      '',
      ...figures(source),
      analytics.from,
      analytics.to,
    ]),
    ...analytics.links.map((link) => [
      'Link',
      link.url ? `${link.card}: ${link.link} (${link.url})` : `${link.card}: ${link.link}`,
      '',
      '',
      '',
      '',
      String(link.taps),
      '',
      '',
      '',
      '',
      '',
      analytics.from,
      analytics.to,
    ]),
  ]
  return csvResponse(lines, `analytics-${query.scope}-${query.days}-days.csv`)
}
