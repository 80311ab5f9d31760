import { Minus, TrendingDown, TrendingUp } from 'lucide-react'

/** A figure; with `previous`, it is the last 7 days and is compared with the 7 before. */
export type Stat = { id: string; label: string; value: number; previous?: number }

type Week = { current: number; previous: number }

/** The card views of the last 7 days, as every dashboard shows them. */
export const viewsStat = ({ current, previous }: Week): Stat => ({
  id: 'views',
  label: 'Card views (last 7 days)',
  value: current,
  previous,
})

/** The contacts gained in the last 7 days (the end user's and the team member's dashboards). */
export const contactsStat = ({ current, previous }: Week): Stat => ({
  id: 'contacts',
  label: 'Contacts gained (last 7 days)',
  value: current,
  previous,
})

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
      className="rounded-xl border border-gray-200 p-5 dark:border-gray-800"
      data-testid={`stat-${stat.id}`}
    >
      <dt className="text-sm text-gray-600 dark:text-gray-400">{stat.label}</dt>
      <dd className="mt-1 text-3xl font-semibold" data-testid="stat-value">
        {stat.value.toLocaleString('en-US')}
      </dd>
      {stat.previous === undefined ? null : (
        <ChangeNote value={stat.value} previous={stat.previous} />
      )}
    </div>
  )
}
