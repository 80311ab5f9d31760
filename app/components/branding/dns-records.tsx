// The DNS records a domain needs, as the Domain Settings tab shows them for the custom domain and
// for the sending domain: a small table, and when the records were last checked.
import { formatDistance } from 'date-fns/formatDistance'
import type { ReactNode } from 'react'

/** The records' table: one heading a column, the rows given as children. */
export function DnsRecordsTable({
  caption,
  columns,
  children,
}: {
  caption: ReactNode
  columns: string[]
  children: ReactNode
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="text-xs uppercase text-gray-500 dark:text-gray-400">
            {columns.map((column, index) => (
              <th
                key={column}
                scope="col"
                className={index < columns.length - 1 ? 'py-1 pr-3' : 'py-1'}
              >
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  )
}

/**
 * How long DNS takes, and when the records were last checked: "5 minutes ago", counted from when
 * the page was read (`shownAt`, so server and browser say the same), the exact time on hover.
 */
export function DnsCheckNote({
  checkedAt,
  shownAt,
}: {
  checkedAt: string | null
  shownAt: string
}) {
  return (
    <p className="text-xs text-gray-500 dark:text-gray-400">
      DNS changes can take up to 24 to 48 hours to propagate.{' '}
      {checkedAt ? (
        <>
          Last checked{' '}
          <time dateTime={checkedAt} title={new Date(checkedAt).toUTCString()}>
            {formatDistance(new Date(checkedAt), new Date(shownAt), { addSuffix: true })}
          </time>
          .
        </>
      ) : (
        'Not checked yet.'
      )}
    </p>
  )
}
