import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { Button } from '#app/components/ui/button'
import { type Stat, StatCard } from './stat-card'
import { StatsUnavailable } from './stats-failure'

export function RoleDashboard({
  title,
  greeting,
  stats,
  children,
  actions,
  offerOnboarding = false,
}: {
  offerOnboarding?: boolean
  title: string
  greeting: string
  /** The figures, or null when they could not be loaded. */
  stats: Stat[] | null
  /** The chart and lists below the figures (left out when the figures failed). */
  children?: ReactNode
  actions: { label: string; to: string }[]
}) {
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-10">
      <div>
        <h1 className="text-2xl font-semibold">{title}</h1>
        <p className="text-gray-600 dark:text-gray-400">{greeting}</p>
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
          <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {stats.map((stat) => (
              <StatCard key={stat.id} stat={stat} />
            ))}
          </dl>
          {children}
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
