// The icon of each kind of link on a card (issue 41 point 6): the networks' own marks from
// simple-icons (CC0), drawn in the link's text colour (currentColor), so a mark keeps the
// contrast the card's text has on its background whatever the brand colours. LinkedIn asked
// simple-icons to remove its mark: it gets a briefcase, a booking link a calendar.
import { BriefcaseBusiness, CalendarDays, Link2, type LucideIcon } from 'lucide-react'
import {
  siFacebook,
  siGithub,
  siInstagram,
  siTiktok,
  siWhatsapp,
  siX,
  siYoutube,
} from 'simple-icons'
import type { LinkKind } from '#app/validation/card-details'

/** The networks drawn with their own mark (24 × 24 paths). */
const BRAND_MARKS: Partial<Record<LinkKind, { title: string; path: string }>> = {
  x: siX,
  instagram: siInstagram,
  facebook: siFacebook,
  github: siGithub,
  youtube: siYoutube,
  tiktok: siTiktok,
  whatsapp: siWhatsapp,
}

const OTHER_ICONS: Partial<Record<LinkKind, LucideIcon>> = {
  linkedin: BriefcaseBusiness,
  booking: CalendarDays,
}

export function LinkIcon({ kind, className }: { kind: LinkKind; className?: string }) {
  const mark = BRAND_MARKS[kind]
  if (mark) {
    return (
      <svg
        viewBox="0 0 24 24"
        aria-hidden
        focusable="false"
        fill="currentColor"
        className={className}
        data-brand-icon={kind}
      >
        <path d={mark.path} />
      </svg>
    )
  }
  const Icon = OTHER_ICONS[kind] ?? Link2
  return <Icon aria-hidden className={className} />
}
