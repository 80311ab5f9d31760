// A screen's log of what happened (the SCIM provisioning log, the webhooks' delivery log): links
// that filter it, one row a line that opens on its details, and its pages, newest first.
import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'

/** The log's filters as links; the one shown is the current page. */
export function LogFilter({
  links,
}: {
  links: { key: string; label: string; href: string; current: boolean }[]
}) {
  return (
    <nav aria-label="Filter the log" className="flex flex-wrap gap-2">
      {links.map((link) => (
        <Link
          key={link.key}
          to={link.href}
          aria-current={link.current ? 'page' : undefined}
          className="rounded-full border border-gray-300 px-3 py-1 text-sm aria-[current=page]:border-brand aria-[current=page]:font-semibold dark:border-gray-700"
        >
          {link.label}
        </Link>
      ))}
    </nav>
  )
}

/** The log's rows (LogEntry). */
export function LogList({ label, children }: { label?: string; children: ReactNode }) {
  return (
    <ul
      aria-label={label}
      className="flex flex-col divide-y divide-gray-200 rounded-xl border border-gray-200 dark:divide-gray-800 dark:border-gray-800"
    >
      {children}
    </ul>
  )
}

/** One row: its summary line, which opens on its details (a disclosure, no script needed). */
export function LogEntry({ summary, children }: { summary: ReactNode; children: ReactNode }) {
  return (
    <li>
      <details className="group">
        <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 text-sm focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand">
          {summary}
        </summary>
        <div className="flex flex-col gap-3 px-4 pb-4 text-sm">{children}</div>
      </details>
    </li>
  )
}

/** The log's pages, when it has more than one: newer, where this one stands, older. */
export function LogPages({
  log: { page, pages, total },
  noun,
  hrefOf,
}: {
  log: { page: number; pages: number; total: number }
  /** What the total counts, in the plural ("calls"). */
  noun: string
  hrefOf: (page: number) => string
}) {
  if (pages <= 1) return null
  return (
    <nav
      aria-label="Log pages"
      className="flex flex-wrap items-center justify-between gap-2 text-sm"
    >
      {page > 1 ? <Link to={hrefOf(page - 1)}>← Newer</Link> : <span />}
      <span>
        Page {page} of {pages} ({total} {noun})
      </span>
      {page < pages ? <Link to={hrefOf(page + 1)}>Older →</Link> : <span />}
    </nav>
  )
}
