import { Link } from '@remix-run/react'
import { Button } from '#app/components/ui/button'

export function RoleDashboard({
  title,
  greeting,
  stats,
  actions,
}: {
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
