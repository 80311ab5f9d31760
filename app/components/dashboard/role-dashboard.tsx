import { Link } from '@remix-run/react'
import { Button } from '#app/components/ui/button'
import { DASHBOARD_TILES, type TileValue, type TileValues } from '#app/dashboard/dashboard-tiles'
import type { RoleArea } from '#app/validation/roles'
import { type ActivityItem, RecentActivity } from './recent-activity'
import { type Stat, StatCard } from './stat-card'
import { StatsUnavailable } from './stats-failure'
import { type DailyViews, ViewsChart } from './views-chart'

/** What every dashboard's statistics hold besides its own figures. */
type DashboardStats<A extends RoleArea> = {
  viewsBySource: DailyViews
  activity: ActivityItem[]
  tiles: TileValues<A>
}

/**
 * A role's dashboard: its figures, the chart of card views per day and the recent activity
 * (left out when the statistics failed), then the role's links.
 */
export function RoleDashboard<A extends RoleArea>({
  area,
  title,
  firstName,
  stats,
  chartTitle,
  emptyText,
  now,
  actions,
  offerOnboarding = false,
}: {
  offerOnboarding?: boolean
  /** Whose tiles to show (DASHBOARD_TILES), with the figures of `stats.tiles`. */
  area: A
  title: string
  firstName: string
  /** The statistics, or null when they could not be loaded. */
  stats: DashboardStats<A> | null
  chartTitle: string
  /** What the activity list says when it is empty (its own default otherwise). */
  emptyText?: string
  /** The time the server answered, which the activity's distances are measured from. */
  now: string
  actions: { label: string; to: string }[]
}) {
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-10">
      <div>
        <h1 className="text-2xl font-semibold">{title}</h1>
        {/* A person who has not made a card yet is new here: back is for those who have been. */}
        <p className="text-gray-600 dark:text-gray-400">
          {offerOnboarding ? `Welcome, ${firstName}!` : `Welcome back, ${firstName}!`}
        </p>
      </div>
      {offerOnboarding ? (
        <section className="flex flex-col items-start gap-3 rounded-xl border border-brand/40 bg-brand/5 p-5 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 className="font-semibold">Create your profile</h2>
            <p className="text-sm text-gray-600 dark:text-gray-400">
              Five short steps to your first digital business card.
            </p>
          </div>
          <Button asChild>
            <Link to="/onboarding">Get Started</Link>
          </Button>
        </section>
      ) : null}
      {stats ? (
        <>
          <FigureGrid stats={tileStats(area, stats.tiles)} />
          <ViewsChart days={stats.viewsBySource} title={chartTitle} />
          <RecentActivity items={stats.activity} now={now} emptyText={emptyText} />
        </>
      ) : (
        <StatsUnavailable />
      )}
      <div className="flex flex-wrap gap-3">
        {actions.map((action) => (
          <Button key={action.to} asChild variant="secondary">
            <Link to={action.to}>{action.label}</Link>
          </Button>
        ))}
      </div>
    </main>
  )
}

/** The area's tiles that apply, in their order, each with its figure and the list it opens. */
function tileStats<A extends RoleArea>(area: A, values: TileValues<A>): Stat[] {
  const stats: Stat[] = []
  for (const tile of DASHBOARD_TILES[area]) {
    const value = (values as Record<string, TileValue | undefined>)[tile.id]
    if (value === undefined) continue
    const figure =
      typeof value === 'number' ? { value } : { value: value.current, previous: value.previous }
    stats.push({ id: tile.id, label: tile.label, ...figure, to: tile.list?.path })
  }
  return stats
}

/** The figures in one row on a wide screen, however many apply (three or four). */
function FigureGrid({ stats }: { stats: Stat[] }) {
  return (
    <dl
      className={`grid gap-4 sm:grid-cols-2 ${stats.length === 3 ? 'lg:grid-cols-3' : 'lg:grid-cols-4'}`}
    >
      {stats.map((stat) => (
        <StatCard key={stat.id} stat={stat} />
      ))}
    </dl>
  )
}
