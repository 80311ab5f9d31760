import type { LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'

/** A panel that says plainly that there is nothing (yet), with an optional next step. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  action,
}: {
  icon: LucideIcon
  title: string
  children?: ReactNode
  action?: ReactNode
}) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-gray-300 px-6 py-12 text-center dark:border-gray-700">
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-gray-100 text-gray-500 dark:bg-gray-800 dark:text-gray-400">
        <Icon aria-hidden className="h-6 w-6" />
      </span>
      <h3 className="text-base font-semibold">{title}</h3>
      {children ? (
        <div className="max-w-md text-sm text-gray-600 dark:text-gray-400">{children}</div>
      ) : null}
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  )
}
