// Card views per day, drawn on the server as plain SVG: no chart library reaches the browser
// (issue 13: recharts renders an empty box on the server and weighs ~100 KB). The figures
// are also in a visually hidden table, so nothing depends on seeing the bars. Days that carry
// their views by source (every dashboard's chart, ADR 039) are drawn stacked, with a legend.
import { format } from 'date-fns/format'
import { parseISO } from 'date-fns/parseISO'
import { useId } from 'react'
import { TitledSection } from '#app/components/ui/titled-section'
import { SOURCE_LABELS, VIEW_SOURCES, type ViewSource } from '#app/utils/view-sources'

export type DailyViews = {
  day: string
  views: number
  sources?: Partial<Record<ViewSource, number>>
}[]

// One colour per source, told apart in light and dark mode; the legend and the table name them.
const SOURCE_FILLS: Record<ViewSource, string> = {
  direct: 'fill-gray-400 dark:fill-gray-500',
  qr: 'fill-indigo-600 dark:fill-indigo-400',
  nfc: 'fill-emerald-600 dark:fill-emerald-400',
  link: 'fill-sky-500 dark:fill-sky-300',
  share: 'fill-amber-500 dark:fill-amber-300',
  vcard: 'fill-rose-600 dark:fill-rose-400',
  wallet: 'fill-violet-600 dark:fill-violet-400',
  signature: 'fill-teal-600 dark:fill-teal-400',
  background: 'fill-orange-600 dark:fill-orange-400',
}

/** The sources with views in these days, in the product's order, with their totals. */
export function sourceTotals(days: DailyViews) {
  return VIEW_SOURCES.map((source) => ({
    source,
    views: days.reduce((sum, d) => sum + (d.sources?.[source] ?? 0), 0),
  })).filter((entry) => entry.views > 0)
}

// The plot alone is SVG, scaled to the width; its labels are HTML text at body size (issue 30:
// labels drawn inside the scaled SVG shrank to 6 px on a phone).
const WIDTH = 560
const HEIGHT = 140
const PLOT_TOP = 4
const GAP = 6

const dayLabel = (day: string) => format(parseISO(day), 'MMM d')

export function describeViews(days: DailyViews) {
  const total = days.reduce((sum, d) => sum + d.views, 0)
  const busiest = days.reduce(
    (best, d) => (d.views > best.views ? d : best),
    days[0] ?? { day: '', views: 0 },
  )
  const first = days[0]
  const last = days[days.length - 1]
  if (!first || !last) return 'No card views.'
  const views = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'view' : 'views'}`
  const sources = sourceTotals(days)
  const bySource = sources.length
    ? ` By source: ${sources.map((s) => `${SOURCE_LABELS[s.source]} ${s.views.toLocaleString('en-US')}`).join(', ')}.`
    : ''
  return `${views(total)} from ${dayLabel(first.day)} to ${dayLabel(last.day)}; the busiest day was ${dayLabel(busiest.day)} with ${views(busiest.views)}.${bySource}`
}

/** A bar's parts, bottom up: one per source when the day has them, else one in the brand colour. */
function segmentsOf(day: DailyViews[number]) {
  if (!day.sources) return [{ key: 'all', views: day.views, className: undefined }]
  return VIEW_SOURCES.filter((source) => (day.sources?.[source] ?? 0) > 0).map((source) => ({
    key: source,
    views: day.sources?.[source] ?? 0,
    className: SOURCE_FILLS[source],
  }))
}

function Legend({ days }: { days: DailyViews }) {
  return (
    <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm" data-testid="views-chart-legend">
      {sourceTotals(days).map(({ source, views }) => (
        <li key={source} className="flex items-center gap-1.5" data-source={source}>
          <svg aria-hidden width="10" height="10" viewBox="0 0 10 10">
            <rect width="10" height="10" rx="2" className={SOURCE_FILLS[source]} />
          </svg>
          {SOURCE_LABELS[source]}{' '}
          <span className="tabular-nums text-gray-600 dark:text-gray-400">{views}</span>
        </li>
      ))}
    </ul>
  )
}

export function ViewsChart({ days, title }: { days: DailyViews; title: string }) {
  const id = useId()
  const total = days.reduce((sum, d) => sum + d.views, 0)
  const max = Math.max(1, ...days.map((d) => d.views))
  const slot = WIDTH / Math.max(1, days.length)
  const labelled = new Set([0, Math.floor((days.length - 1) / 2), days.length - 1])
  const bySource = days.some((d) => d.sources)
  const columns = bySource ? sourceTotals(days).map((entry) => entry.source) : []
  return (
    <TitledSection
      id={`${id}-heading`}
      title={title}
      className="rounded-xl border border-gray-200 p-5 dark:border-gray-800"
      titleClassName="font-semibold"
    >
      {total === 0 ? (
        <p
          className="mt-3 text-sm text-gray-600 dark:text-gray-400"
          data-testid="views-chart-empty"
        >
          No card views in the last {days.length} days yet. Share a card to see them here.
        </p>
      ) : (
        <>
          <div className="mt-3 flex gap-2 text-sm text-gray-600 dark:text-gray-400">
            {/* The vertical axis: the tallest bar's value at the top, zero at the baseline. */}
            <div
              aria-hidden
              className="flex flex-col justify-between text-right tabular-nums"
              data-testid="views-chart-y-axis"
            >
              <span>{max.toLocaleString('en-US')}</span>
              <span>0</span>
            </div>
            <div className="min-w-0 flex-1">
              <svg
                role="img"
                aria-labelledby={`${id}-title ${id}-desc`}
                viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
                className="block h-auto w-full text-brand"
                data-testid="views-chart"
              >
                <title id={`${id}-title`}>{title}</title>
                <desc id={`${id}-desc`}>{describeViews(days)}</desc>
                <line
                  x1={0}
                  x2={WIDTH}
                  y1={HEIGHT - 0.5}
                  y2={HEIGHT - 0.5}
                  className="stroke-gray-300 dark:stroke-gray-700"
                />
                {days.map((d, index) => {
                  let top = HEIGHT
                  return (
                    <g key={d.day}>
                      {segmentsOf(d).map((segment) => {
                        const height = ((HEIGHT - PLOT_TOP) * segment.views) / max
                        top -= height
                        return (
                          <rect
                            key={segment.key}
                            x={index * slot + GAP / 2}
                            y={top}
                            width={slot - GAP}
                            height={height}
                            rx={segment.className ? 1 : 3}
                            fill={segment.className ? undefined : 'currentColor'}
                            className={segment.className}
                          />
                        )
                      })}
                    </g>
                  )
                })}
              </svg>
              {/* The horizontal axis: the first, middle and last day under their bars' side. */}
              <div
                aria-hidden
                className="mt-1 flex justify-between gap-2"
                data-testid="views-chart-x-axis"
              >
                {[...labelled].map((index) => {
                  const d = days[index]
                  return d ? <span key={d.day}>{dayLabel(d.day)}</span> : null
                })}
              </div>
            </div>
          </div>
          {bySource ? <Legend days={days} /> : null}
          {/* The figures for screen readers. A table ignores the 1 px box of sr-only and would
              hang, invisible, below the page's footer: the wrapper takes the class instead. */}
          <div className="sr-only">
            <table data-testid="views-chart-table">
              <caption>{title}</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Views</th>
                  {columns.map((source) => (
                    <th key={source} scope="col">
                      {SOURCE_LABELS[source]}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {days.map((d) => (
                  <tr key={d.day}>
                    <th scope="row">{dayLabel(d.day)}</th>
                    <td>{d.views}</td>
                    {columns.map((source) => (
                      <td key={source}>{d.sources?.[source] ?? 0}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </TitledSection>
  )
}
