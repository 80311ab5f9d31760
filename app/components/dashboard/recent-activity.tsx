import { formatDistance } from 'date-fns/formatDistance'
import {
  Building2,
  Eye,
  FilePen,
  Handshake,
  Inbox,
  ScanText,
  UserPlus,
  UserRound,
} from 'lucide-react'
import type { ReactNode } from 'react'
import { TitledSection } from '#app/components/ui/titled-section'
import { roleLabel } from '#app/validation/roles'

/**
 * An end user's own event, or one of an admin's scope (app/models/activity.server.ts), which
 * adds the account's role and, on the platform's list, the organization.
 */
export type ActivityItem = {
  id: string
  kind: string
  at: string
  subject: string | null
  role?: string | null
  organization?: string | null
}

/** The end user's list speaks of "you"; the empty text says what would show. */
const OWN_EMPTY = 'No activity yet. Share your card to see views and new contacts here.'

function activityText(item: ActivityItem): { text: string; icon: ReactNode } {
  const name = item.subject || 'Someone'
  const icon = (Icon: typeof Eye) => <Icon aria-hidden className="h-4 w-4" />
  const at = item.organization ? ` at ${item.organization}` : ''
  switch (item.kind) {
    case 'agency.created':
      return { text: `Agency ${name} was created`, icon: icon(Building2) }
    case 'user.joined':
      return {
        text: `${name} joined${item.organization ? ` ${item.organization}` : ''}${item.role ? ` as ${roleLabel(item.role)}` : ''}`,
        icon: icon(UserPlus),
      }
    case 'card.made':
      return { text: `${name} created a digital card${at}`, icon: icon(FilePen) }
    case 'member.card_viewed':
      return { text: `${name}'s card was viewed`, icon: icon(Eye) }
    case 'member.contact_gained':
      return { text: `${name} gained a new contact`, icon: icon(Inbox) }
    case 'view':
      return { text: `Your card "${item.subject ?? ''}" was viewed`, icon: icon(Eye) }
    case 'connect':
      return { text: `Connected with ${name}`, icon: icon(Handshake) }
    case 'lead':
      return { text: `New lead from ${name}`, icon: icon(Inbox) }
    case 'saved':
      return { text: `You saved ${name}'s contact`, icon: icon(UserPlus) }
    case 'manual':
      return { text: `You added ${name} to your contacts`, icon: icon(UserPlus) }
    case 'scan':
      return { text: `You scanned ${name}'s card`, icon: icon(ScanText) }
    case 'card.created':
      return { text: 'You created a digital card', icon: icon(FilePen) }
    case 'card.updated':
      return { text: 'You updated a digital card', icon: icon(FilePen) }
    case 'card.deleted':
      return { text: 'You deleted a digital card', icon: icon(FilePen) }
    case 'card.default_set':
      return { text: 'You changed your default card', icon: icon(FilePen) }
    case 'card.archived':
      return { text: 'You archived a digital card', icon: icon(FilePen) }
    case 'card.restored':
      return { text: 'You restored a digital card', icon: icon(FilePen) }
    default:
      return { text: 'You updated your profile', icon: icon(UserRound) }
  }
}

/**
 * Recent events with their distance from the time the server answered ('about 1 hour ago',
 * spec §9), so server and browser render the same words.
 */
export function RecentActivity({
  items,
  now,
  emptyText = OWN_EMPTY,
}: {
  items: ActivityItem[]
  now: string
  emptyText?: string
}) {
  return (
    <TitledSection
      id="recent-activity-heading"
      title="Recent Activity"
      className="rounded-xl border border-gray-200 p-5 dark:border-gray-800"
      titleClassName="font-semibold"
    >
      {items.length === 0 ? (
        <p className="mt-3 text-sm text-gray-600 dark:text-gray-400" data-testid="activity-empty">
          {emptyText}
        </p>
      ) : (
        <ul className="mt-3 flex flex-col divide-y divide-gray-200 dark:divide-gray-800">
          {items.map((item) => {
            const { text, icon } = activityText(item)
            const at = new Date(item.at)
            return (
              <li
                key={item.id}
                className="flex items-center gap-3 py-2 text-sm"
                data-testid="activity-item"
              >
                <span className="rounded-full bg-brand/10 p-2 text-brand-text">{icon}</span>
                <span className="flex-1">{text}</span>
                <time
                  dateTime={item.at}
                  title={at.toUTCString()}
                  className="text-gray-600 dark:text-gray-400"
                >
                  {formatDistance(at, new Date(now), { addSuffix: true })}
                </time>
              </li>
            )
          })}
        </ul>
      )}
    </TitledSection>
  )
}
