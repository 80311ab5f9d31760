// The analytics screen (issue 41 point 8, ADR 082): what visitors did with the cards of a scope
// over 7, 30 or 90 days. The bars are plain HTML drawn on the server (no chart library, as the
// views chart); every figure they draw is also written beside them or in a table, so nothing
// depends on seeing them. The filters are links: they work without JavaScript and keep the page
// shareable, and the CSV link carries the same filters.
import { Link, useNavigation } from '@remix-run/react'
import { BarChart3, Download } from 'lucide-react'
import type { ReactNode } from 'react'
import { DataTable, TABLE_FRAME } from '#app/components/ui/data-table'
import { EmptyState } from '#app/components/ui/empty-state'
import { TitledSection } from '#app/components/ui/titled-section'
import type { ScopeOption } from '#app/dashboard/analytics-route.server'
import type { Analytics, Figures } from '#app/dashboard/card-analytics.server'
import { cn } from '#app/utils/cn'
import { formatRate } from '#app/utils/rate'
import { SOURCE_LABELS } from '#app/utils/view-sources'
import { ANALYTICS_RANGES } from '#app/validation/analytics'

const keyOf = (option: Pick<ScopeOption, 'scope' | 'team'>) =>
  option.team ? `${option.scope}:${option.team}` : option.scope

const number = (n: number) => n.toLocaleString('en-US')

function query(days: number, option: Pick<ScopeOption, 'scope' | 'team'>) {
  const params = new URLSearchParams({ days: String(days), scope: option.scope })
  if (option.team) params.set('team', option.team)
  return `?${params}`
}

function FilterLinks<T extends string | number>({
  label,
  options,
  current,
  href,
  name,
}: {
  label: string
  options: readonly T[]
  current: T
  href: (value: T) => string
  name: (value: T) => string
}) {
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap gap-2">
        {options.map((option) => {
          const active = option === current
          return (
            <li key={String(option)}>
              <Link
                to={href(option)}
                preventScrollReset
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'inline-flex min-h-11 items-center rounded-lg border px-3 text-sm font-medium',
                  active
                    ? 'border-brand bg-brand text-brand-foreground'
                    : 'border-gray-300 text-gray-700 hover:bg-gray-50 dark:border-gray-700 dark:text-gray-200 dark:hover:bg-gray-800',
                )}
              >
                {name(option)}
              </Link>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}

function Tile({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div
      className="rounded-xl border border-gray-200 p-4 dark:border-gray-800"
      data-testid={`analytics-${id}`}
    >
      <dt className="text-sm text-gray-600 dark:text-gray-400">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums">{value}</dd>
    </div>
  )
}

/** A row of a bar chart: the label and figure as text, the bar beside them for the eye. */
function Bar({
  label,
  value,
  max,
  className,
}: {
  label: string
  value: number
  max: number
  className: string
}) {
  const width = max > 0 ? Math.max(value > 0 ? 2 : 0, (value / max) * 100) : 0
  return (
    <li className="grid gap-1">
      <div className="flex justify-between gap-2 text-sm">
        <span className="min-w-0 break-words">{label}</span>
        <span className="tabular-nums text-gray-600 dark:text-gray-400">{number(value)}</span>
      </div>
      <div aria-hidden className="h-3 rounded-full bg-gray-100 dark:bg-gray-800">
        <div className={cn('h-3 rounded-full', className)} style={{ width: `${width}%` }} />
      </div>
    </li>
  )
}

const section = 'rounded-xl border border-gray-200 p-5 dark:border-gray-800'
const heading = 'font-semibold'

function figureCells(f: Figures) {
  return (
    <>
      <td className="px-4 py-3 tabular-nums">{number(f.views)}</td>
      <td className="px-4 py-3 tabular-nums">{number(f.vcardSaves)}</td>
      <td className="px-4 py-3 tabular-nums">{number(f.walletSaves)}</td>
      <td className="px-4 py-3 tabular-nums">{number(f.linkTaps)}</td>
      <td className="px-4 py-3 tabular-nums">{number(f.exchanges)}</td>
      <td className="px-4 py-3 tabular-nums">{formatRate(f.saveRate)}</td>
      <td className="px-4 py-3 tabular-nums">{formatRate(f.exchangeRate)}</td>
    </>
  )
}

/**
 * A wide table's frame: at a phone's width it scrolls sideways inside itself, so it takes the
 * keyboard's focus (arrow keys scroll it) and is named by its section's heading.
 */
function ScrollingTable({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard (axe scrollable-region-focusable)
    <div role="region" aria-labelledby={labelledBy} tabIndex={0} className={TABLE_FRAME}>
      {children}
    </div>
  )
}

const FIGURE_HEADINGS = [
  { label: 'Views' },
  { label: 'vCard saves' },
  { label: 'Wallet saves' },
  { label: 'Link taps' },
  { label: 'Exchanges' },
  { label: 'View → save' },
  { label: 'View → exchange' },
]

export function AnalyticsPage({
  analytics,
  chosen,
  scopes,
  csvPath,
}: {
  analytics: Analytics
  chosen: ScopeOption
  scopes: ScopeOption[]
  csvPath: string
}) {
  const navigation = useNavigation()
  const loading = navigation.state === 'loading' && navigation.location?.pathname !== undefined
  const { totals, days } = analytics
  const empty = analytics.cards.length === 0 && analytics.links.length === 0
  const funnelMax = Math.max(totals.views, totals.saves, totals.exchanges, totals.linkTaps)
  const sourceMax = Math.max(0, ...analytics.sources.map((s) => s.views))
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10" data-testid="analytics-page">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">Analytics</h1>
          <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
            Views, saves, link taps and exchanges in the last {days} days: {chosen.label}.
          </p>
        </div>
        <a
          href={`${csvPath}${query(days, chosen)}`}
          download
          className="inline-flex min-h-11 items-center gap-2 rounded-lg border border-gray-300 px-3 text-sm font-medium hover:bg-gray-50 dark:border-gray-700 dark:hover:bg-gray-800"
          data-testid="analytics-csv"
        >
          <Download aria-hidden className="h-4 w-4" />
          Download CSV
        </a>
      </div>
      <div className="flex flex-wrap gap-4">
        <FilterLinks
          label="Period"
          options={ANALYTICS_RANGES}
          current={days}
          href={(value) => query(value, chosen)}
          name={(value) => `${value} days`}
        />
        {scopes.length > 1 ? (
          <FilterLinks
            label="Whose cards"
            options={scopes.map(keyOf)}
            current={keyOf(chosen)}
            href={(key) => query(days, scopes.find((option) => keyOf(option) === key) ?? chosen)}
            name={(key) => scopes.find((option) => keyOf(option) === key)?.label ?? key}
          />
        ) : null}
      </div>
      <div
        aria-busy={loading || undefined}
        className={cn('space-y-6', loading && 'animate-pulse opacity-60')}
        data-testid="analytics-figures"
      >
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <Tile id="views" label="Views" value={number(totals.views)} />
          <Tile id="vcard" label="vCard saves" value={number(totals.vcardSaves)} />
          <Tile id="wallet" label="Wallet saves" value={number(totals.walletSaves)} />
          <Tile id="taps" label="Link taps" value={number(totals.linkTaps)} />
          <Tile id="exchanges" label="Exchanges" value={number(totals.exchanges)} />
          <Tile id="save-rate" label="View → save" value={formatRate(totals.saveRate)} />
          <Tile
            id="exchange-rate"
            label="View → exchange"
            value={formatRate(totals.exchangeRate)}
          />
        </dl>
        {empty ? (
          <EmptyState icon={BarChart3} title="Nothing to show yet">
            No views, saves, taps or exchanges in the last {days} days. Share a card to see them
            here.
          </EmptyState>
        ) : (
          <>
            <TitledSection
              id="analytics-funnel"
              title="From a view to an exchange"
              className={section}
              titleClassName={heading}
            >
              <ul className="mt-3 space-y-3" data-testid="analytics-funnel">
                <Bar label="Views" value={totals.views} max={funnelMax} className="bg-brand" />
                <Bar
                  label="Saves (vCard and wallet)"
                  value={totals.saves}
                  max={funnelMax}
                  className="bg-indigo-600 dark:bg-indigo-400"
                />
                <Bar
                  label="Link taps"
                  value={totals.linkTaps}
                  max={funnelMax}
                  className="bg-sky-600 dark:bg-sky-400"
                />
                <Bar
                  label="Exchanges (lead forms and connects)"
                  value={totals.exchanges}
                  max={funnelMax}
                  className="bg-emerald-600 dark:bg-emerald-400"
                />
              </ul>
            </TitledSection>
            {analytics.sources.length > 0 ? (
              <TitledSection
                id="analytics-sources"
                title="Views by source"
                className={section}
                titleClassName={heading}
              >
                <ul className="mt-3 space-y-3" data-testid="analytics-source-bars">
                  {analytics.sources.map((s) => (
                    <Bar
                      key={s.source}
                      label={SOURCE_LABELS[s.source]}
                      value={s.views}
                      max={sourceMax}
                      className="bg-brand"
                    />
                  ))}
                </ul>
              </TitledSection>
            ) : null}
            <TitledSection
              id="analytics-by-source"
              title="Per source"
              className="space-y-3"
              titleClassName={heading}
            >
              <ScrollingTable labelledBy="analytics-by-source">
                <DataTable frame={false} columns={[{ label: 'Source' }, ...FIGURE_HEADINGS]}>
                  {analytics.sources.map((s) => (
                    <tr key={s.source} data-testid="analytics-source-row" data-source={s.source}>
                      <th scope="row" className="px-4 py-3 font-medium">
                        {SOURCE_LABELS[s.source]}
                      </th>
                      {figureCells(s)}
                    </tr>
                  ))}
                </DataTable>
              </ScrollingTable>
            </TitledSection>
            <TitledSection
              id="analytics-by-card"
              title="Per card"
              className="space-y-3"
              titleClassName={heading}
            >
              <ScrollingTable labelledBy="analytics-by-card">
                <DataTable frame={false} columns={[{ label: 'Card' }, ...FIGURE_HEADINGS]}>
                  {analytics.cards.map((card) => (
                    <tr key={card.cardId} data-testid="analytics-card-row">
                      <th scope="row" className="px-4 py-3 font-medium">
                        {card.name}
                        {chosen.scope !== 'mine' && card.owner ? (
                          <span className="block text-xs font-normal text-gray-600 dark:text-gray-400">
                            {card.owner}
                          </span>
                        ) : null}
                      </th>
                      {figureCells(card)}
                    </tr>
                  ))}
                </DataTable>
              </ScrollingTable>
            </TitledSection>
            <TitledSection
              id="analytics-links"
              title="Taps on each link"
              className="space-y-3"
              titleClassName={heading}
            >
              {analytics.links.length === 0 ? (
                <p className="text-sm text-gray-600 dark:text-gray-400">
                  No link was tapped in the last {days} days.
                </p>
              ) : (
                <DataTable columns={[{ label: 'Link' }, { label: 'Card' }, { label: 'Taps' }]}>
                  {analytics.links.map((link) => (
                    <tr
                      key={`${link.cardId}-${link.link}-${link.url}`}
                      data-testid="analytics-link-row"
                    >
                      <th scope="row" className="px-4 py-3 font-medium break-words">
                        {link.link}
                      </th>
                      <td className="px-4 py-3">{link.card}</td>
                      <td className="px-4 py-3 tabular-nums">{number(link.taps)}</td>
                    </tr>
                  ))}
                </DataTable>
              )}
            </TitledSection>
          </>
        )}
      </div>
    </main>
  )
}
