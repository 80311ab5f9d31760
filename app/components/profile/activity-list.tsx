import { History } from 'lucide-react'
import { EmptyState } from '#app/components/ui/empty-state'
import { Panel } from '#app/components/ui/panel'

export type ActivityItem = { id: string; label: string; at: string; relative: string }

/** The user's own recent actions, newest first. */
export function ActivityList({
  items,
  tracking = true,
}: {
  items: ActivityItem[]
  /** The Privacy setting 'Activity tracking': off, no list is kept here. */
  tracking?: boolean
}) {
  return (
    <Panel title="Recent Activity" description="What you have done recently on your account.">
      {!tracking ? (
        <EmptyState icon={History} title="Activity tracking is off">
          Turn on Activity tracking in your privacy settings to see your recent activity here.
        </EmptyState>
      ) : items.length === 0 ? (
        <EmptyState icon={History} title="No activity yet">
          Changes you make to your profile and cards will appear here.
        </EmptyState>
      ) : (
        <ol className="flex flex-col divide-y divide-gray-200 dark:divide-gray-800">
          {items.map((item) => (
            <li
              key={item.id}
              className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <span className="text-sm font-medium">{item.label}</span>
              <time
                dateTime={item.at}
                title={new Date(item.at).toUTCString()}
                className="text-sm text-gray-500 dark:text-gray-400"
              >
                {item.relative}
              </time>
            </li>
          ))}
        </ol>
      )}
    </Panel>
  )
}
