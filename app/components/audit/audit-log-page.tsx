// The audit log (issue 14 point 6): who changed what, newest first, filterable.
import type { SerializeFrom } from '@remix-run/node'
import { Form, Link } from '@remix-run/react'
import { format } from 'date-fns/format'
import { Filter, ScrollText } from 'lucide-react'
import { AUDIT_CATEGORIES, auditActionLabel } from '#app/audit/audit-log'
import type { auditLogLoader } from '#app/audit/audit-log-route.server'
import { Button } from '#app/components/ui/button'
import { DataTable } from '#app/components/ui/data-table'
import { SelectOptions } from '#app/components/ui/labelled-select'

type Data = Awaited<ReturnType<typeof auditLogLoader>>
type Props = SerializeFrom<Data>

const FIELD =
  'h-10 rounded-md border border-gray-300 bg-white px-3 text-sm shadow-sm dark:border-gray-700 dark:bg-gray-900'

function pageLink(filter: Props['filter'], page: number) {
  const params = new URLSearchParams()
  if (filter.category) params.set('category', filter.category)
  if (filter.actor) params.set('actor', filter.actor)
  if (filter.reads) params.set('reads', '1')
  if (page > 1) params.set('page', String(page))
  const query = params.toString()
  return query ? `?${query}` : '.'
}

export function AuditLogPage({ scope, filter, page, hasNext, events }: Props) {
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10">
      <div>
        <h1 className="text-2xl font-semibold">Audit Log</h1>
        <p className="text-gray-600 dark:text-gray-400">
          {scope === 'platform'
            ? 'Every change in every organization, newest first.'
            : 'Every change in your organization, newest first.'}
        </p>
      </div>
      <Form
        method="GET"
        className="flex flex-wrap items-end gap-3"
        aria-label="Filter the audit log"
      >
        <label className="flex flex-col gap-1 text-sm font-medium">
          Kind of change
          <select name="category" defaultValue={filter.category} className={FIELD}>
            <SelectOptions
              empty="All changes"
              options={AUDIT_CATEGORIES.map(({ id, label }) => ({ value: id, label }))}
            />
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Who
          <input
            name="actor"
            type="search"
            defaultValue={filter.actor}
            placeholder="Name or email"
            className={FIELD}
          />
        </label>
        {scope === 'platform' ? (
          <label className="flex h-10 items-center gap-2 text-sm">
            <input
              type="checkbox"
              name="reads"
              value="1"
              defaultChecked={filter.reads}
              className="h-4 w-4"
            />
            Include platform reads
          </label>
        ) : null}
        <Button type="submit" variant="secondary">
          <Filter aria-hidden className="h-4 w-4" /> Filter
        </Button>
      </Form>
      {events.length === 0 ? (
        <section className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-gray-300 px-6 py-16 text-center dark:border-gray-700">
          <ScrollText aria-hidden className="h-10 w-10 text-gray-400" />
          <h2 className="text-lg font-semibold">No events match</h2>
          <p className="text-sm text-gray-600 dark:text-gray-400">
            Changes appear here as people make them. Try another filter.
          </p>
        </section>
      ) : (
        <DataTable
          columns={[
            { label: 'When' },
            { label: 'Who' },
            { label: 'Action' },
            scope === 'platform' && {
              label: 'Organization',
              className: 'hidden px-4 py-3 font-medium md:table-cell',
            },
            { label: 'Details', className: 'hidden px-4 py-3 font-medium lg:table-cell' },
          ]}
        >
          {events.map((event) => (
            <tr key={event.id} data-testid="audit-event" className="align-top">
              <td className="whitespace-nowrap px-4 py-3 text-gray-600 dark:text-gray-400">
                <time dateTime={event.at}>{format(new Date(event.at), 'yyyy-MM-dd HH:mm')}</time>
              </td>
              <td className="break-all px-4 py-3">{event.actor}</td>
              <td className="px-4 py-3">
                <p className="font-medium">{auditActionLabel(event.action)}</p>
                <code className="rounded bg-gray-100 px-1.5 py-0.5 text-xs dark:bg-gray-800">
                  {event.action}
                </code>
                <div className="mt-1 break-all text-xs text-gray-600 dark:text-gray-400">
                  {event.entity}
                </div>
              </td>
              {scope === 'platform' ? (
                <td className="hidden px-4 py-3 md:table-cell">{event.organization}</td>
              ) : null}
              <td className="hidden max-w-sm break-all px-4 py-3 font-mono text-xs text-gray-600 lg:table-cell dark:text-gray-400">
                {event.metadata === '{}' ? '' : event.metadata}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <nav aria-label="Pages" className="flex justify-between">
        {page > 1 ? (
          <Button asChild variant="secondary">
            <Link to={pageLink(filter, page - 1)}>Newer</Link>
          </Button>
        ) : (
          <span />
        )}
        {hasNext ? (
          <Button asChild variant="secondary">
            <Link to={pageLink(filter, page + 1)}>Older</Link>
          </Button>
        ) : null}
      </nav>
    </main>
  )
}
