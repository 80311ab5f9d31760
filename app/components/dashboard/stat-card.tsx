import { Link } from '@remix-run/react'
import { ChevronRight, Minus, TrendingDown, TrendingUp } from 'lucide-react'

/**
 * A figure; with `previous`, it is the last 7 days and is compared with the 7 before; with `to`,
 * the tile opens the list it counts (ADR 085).
 */
export type Stat = { id: string; label: string; value: number; previous?: number; to?: string }

/** '+3 from last week', '-2 from last week' or 'No change from last week' (spec §2.3, §9). */
export function changeText(value: number, previous: number) {
  const change = value - previous
  if (change === 0) return 'No change from last week'
  return `${change > 0 ? '+' : ''}${change.toLocaleString('en-US')} from last week`
}

function ChangeNote({ value, previous }: { value: number; previous: number }) {
  const change = value - previous
  const Icon = change > 0 ? TrendingUp : change < 0 ? TrendingDown : Minus
  const colour =
    change > 0
      ? 'text-green-700 dark:text-green-400'
      : change < 0
        ? 'text-red-700 dark:text-red-400'
        : 'text-gray-600 dark:text-gray-400'
  // The sign and the icon are visual; screen readers get the direction in words.
  const spoken =
    change === 0
      ? 'No change from last week'
      : `${change > 0 ? 'Up' : 'Down'} ${Math.abs(change).toLocaleString('en-US')} from last week`
  return (
    <dd className={`mt-1 flex items-center gap-1 text-sm ${colour}`} data-testid="stat-change">
      <Icon aria-hidden className="h-4 w-4" />
      <span aria-hidden>{changeText(value, previous)}</span>
      <span className="sr-only">{spoken}</span>
    </dd>
  )
}

export function StatCard({ stat }: { stat: Stat }) {
  return (
    <div
      className={`relative rounded-xl border border-gray-200 p-5 dark:border-gray-800 ${
        stat.to ? 'hover:border-brand focus-within:ring-2 focus-within:ring-brand' : ''
      }`}
      data-testid={`stat-${stat.id}`}
    >
      {/* A tile that opens its list says so the way a list row does. */}
      {stat.to ? (
        <ChevronRight aria-hidden className="absolute right-4 top-5 h-4 w-4 text-gray-500" />
      ) : null}
      <dt className={`text-sm text-gray-600 dark:text-gray-400 ${stat.to ? 'pr-6' : ''}`}>
        {stat.to ? (
          // The whole tile is the link's target (its ::after covers the card); the name is the label.
          <Link
            to={stat.to}
            className="underline-offset-2 after:absolute after:inset-0 after:rounded-xl hover:underline focus:outline-none"
          >
            {stat.label}
          </Link>
        ) : (
          stat.label
        )}
      </dt>
      <dd className="mt-1 text-3xl font-semibold" data-testid="stat-value">
        {stat.value.toLocaleString('en-US')}
      </dd>
      {stat.previous === undefined ? null : (
        <ChangeNote value={stat.value} previous={stat.previous} />
      )}
    </div>
  )
}
