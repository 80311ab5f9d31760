import { Link } from '@remix-run/react'
import { Button } from '#app/components/ui/button'

export function RoleDashboard({
  title,
  greeting,
  stats,
  actions,
  offerOnboarding = false,
}: {
  offerOnboarding?: boolean
  title: string
  greeting: string
  stats: { label: string; value: number }[]
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
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {stats.map((stat) => (
          <div
            key={stat.label}
            className="rounded-xl border border-gray-200 p-5 dark:border-gray-800"
          >
            <dt className="text-sm text-gray-600 dark:text-gray-400">{stat.label}</dt>
            <dd className="mt-1 text-3xl font-semibold">{stat.value.toLocaleString()}</dd>
          </div>
        ))}
      </dl>
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
