// Card views per day, drawn on the server as plain SVG: no chart library reaches the browser
// (issue 13: recharts renders an empty box on the server and weighs ~100 KB). The figures
// are also in a visually hidden table, so nothing depends on seeing the bars.
import { format, parseISO } from 'date-fns'
import { useId } from 'react'

export type DailyViews = { day: string; views: number }[]

const WIDTH = 560
const HEIGHT = 180
const PLOT_TOP = 16
const PLOT_BOTTOM = 150
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
  return `${views(total)} from ${dayLabel(first.day)} to ${dayLabel(last.day)}; the busiest day was ${dayLabel(busiest.day)} with ${views(busiest.views)}.`
}

export function ViewsChart({ days, title }: { days: DailyViews; title: string }) {
  const id = useId()
  const total = days.reduce((sum, d) => sum + d.views, 0)
  const max = Math.max(1, ...days.map((d) => d.views))
  const slot = WIDTH / Math.max(1, days.length)
  const labelled = new Set([0, Math.floor((days.length - 1) / 2), days.length - 1])
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="rounded-xl border border-gray-200 p-5 dark:border-gray-800"
    >
      <h2 id={`${id}-heading`} className="font-semibold">
        {title}
      </h2>
      {total === 0 ? (
        <p
          className="mt-3 text-sm text-gray-600 dark:text-gray-400"
          data-testid="views-chart-empty"
        >
          No card views in the last {days.length} days yet. Share a card to see them here.
        </p>
      ) : (
        <>
          <svg
            role="img"
            aria-labelledby={`${id}-title ${id}-desc`}
            viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
            className="mt-3 h-auto w-full text-brand"
            data-testid="views-chart"
          >
            <title id={`${id}-title`}>{title}</title>
            <desc id={`${id}-desc`}>{describeViews(days)}</desc>
            <line
              x1={0}
              x2={WIDTH}
              y1={PLOT_BOTTOM + 0.5}
              y2={PLOT_BOTTOM + 0.5}
              className="stroke-gray-300 dark:stroke-gray-700"
            />
            <text x={0} y={PLOT_TOP - 4} className="fill-gray-600 text-[11px] dark:fill-gray-400">
              {max.toLocaleString('en-US')}
            </text>
            {days.map((d, index) => {
              const height = ((PLOT_BOTTOM - PLOT_TOP) * d.views) / max
              return (
                <g key={d.day}>
                  <rect
                    x={index * slot + GAP / 2}
                    y={PLOT_BOTTOM - height}
                    width={slot - GAP}
                    height={height}
                    rx={3}
                    fill="currentColor"
                  />
                  {labelled.has(index) ? (
                    <text
                      x={index * slot + slot / 2}
                      y={HEIGHT - 8}
                      textAnchor="middle"
                      className="fill-gray-600 text-[11px] dark:fill-gray-400"
                    >
                      {dayLabel(d.day)}
                    </text>
                  ) : null}
                </g>
              )
            })}
          </svg>
          <table className="sr-only">
            <caption>{title}</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Views</th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day}>
                  <th scope="row">{dayLabel(d.day)}</th>
                  <td>{d.views}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  )
}
