import type { ReactNode } from 'react'

/** The bordered frame a list's table sits in, scrolling sideways on a narrow screen. */
export const TABLE_FRAME = 'overflow-x-auto rounded-xl border border-gray-200 dark:border-gray-800'

/** A heading cell's classes unless a column says otherwise. */
const HEADING = 'px-4 py-3 font-medium'

/** A column's heading; a falsy entry is a column this viewer does not get. */
export type Column = { label: ReactNode; className?: string } | false | null | undefined

/** An actions column's heading: read by screen readers, not shown. */
export const actionsColumn = (className?: string): Column => ({
  label: <span className="sr-only">Actions</span>,
  className,
})

/**
 * A list's table: the frame (or none, for a caller that frames it with more), the headings row
 * and the rows given as children, divided by lines unless the rows draw their own.
 */
export function DataTable({
  columns,
  children,
  frame = TABLE_FRAME,
  divided = true,
}: {
  columns: Column[]
  children: ReactNode
  frame?: string | false
  divided?: boolean
}) {
  const table = (
    <table className="w-full text-left text-sm">
      <thead className="bg-gray-50 text-gray-600 dark:bg-gray-900 dark:text-gray-400">
        <tr>
          {columns.map((column, index) =>
            column ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: the headings are fixed per render
              <th key={index} scope="col" className={column.className ?? HEADING}>
                {column.label}
              </th>
            ) : null,
          )}
        </tr>
      </thead>
      <tbody className={divided ? 'divide-y divide-gray-200 dark:divide-gray-800' : undefined}>
        {children}
      </tbody>
    </table>
  )
  return frame ? <div className={frame}>{table}</div> : table
}
