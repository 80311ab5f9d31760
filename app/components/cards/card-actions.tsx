// Every item of a card is an action (issue 28): a phone calls or texts, an email writes, the
// address opens directions, a link opens the profile in a new tab that cannot reach back.
// Plain anchors, so the page does all of it without JavaScript.
import { Globe, Mail, MapPin, MessageSquare, Phone, Smartphone } from 'lucide-react'
import type { CardExtrasView } from '#app/cards/card-extras'
import { LinkIcon } from '#app/components/cards/link-icons'
import { cn } from '#app/utils/cn'
import {
  addressLine,
  dialable,
  directionsUrl,
  linkName,
  PHONE_TYPE_LABELS,
  type PhoneType,
} from '#app/validation/card-details'

/** Opens outside the card, without giving the other site a handle on this page. */
const SAFE_LINK = { target: '_blank', rel: 'noopener noreferrer nofollow' } as const

type Phoned = { number: string; type: PhoneType }

export function CardActions({
  phones,
  emails,
  website,
  extras,
  light,
}: {
  phones: Phoned[]
  emails: string[]
  website: string
  extras: CardExtrasView
  light: boolean
}) {
  const address = addressLine(extras)
  const row = cn(
    'flex min-h-11 items-center gap-3 rounded-lg px-3 py-2 text-left text-sm underline-offset-2 hover:underline focus-visible:outline-2',
    // A darkening tint under white text: it can only raise the contrast the card colour has
    // (readableCardColor keeps 4.5:1), where a white tint lowered it (4.25:1 on a red brand).
    light ? 'bg-black/20 text-white ring-1 ring-inset ring-white/20' : 'bg-black/5 text-gray-900',
  )
  const shown = phones.filter((phone) => phone.number)
  const items = shown.length + emails.length + (website ? 1 : 0) + (address ? 1 : 0)
  return (
    <div className="flex w-full flex-col gap-3" data-testid="card-actions">
      {items > 0 ? (
        <ul className="flex w-full flex-col gap-2">
          {shown.map((phone) => (
            <li key={`${phone.type}-${phone.number}`} className="flex gap-2">
              <a
                href={`tel:${dialable(phone.number)}`}
                className={cn(row, 'flex-1')}
                data-action="call"
              >
                {phone.type === 'mobile' ? (
                  <Smartphone aria-hidden className="h-4 w-4 shrink-0" />
                ) : (
                  <Phone aria-hidden className="h-4 w-4 shrink-0" />
                )}
                <span className="min-w-0 break-words">
                  <span className="sr-only">Call </span>
                  {phone.number}
                  <span className="ml-2 text-xs">{PHONE_TYPE_LABELS[phone.type]}</span>
                </span>
              </a>
              {phone.type === 'mobile' ? (
                <a
                  href={`sms:${dialable(phone.number)}`}
                  className={cn(row, 'shrink-0')}
                  aria-label={`Text ${phone.number}`}
                  data-action="sms"
                >
                  <MessageSquare aria-hidden className="h-4 w-4" />
                </a>
              ) : null}
            </li>
          ))}
          {emails.map((email) => (
            <li key={email}>
              <a href={`mailto:${email}`} className={row} data-action="email">
                <Mail aria-hidden className="h-4 w-4 shrink-0" />
                <span className="min-w-0 break-all">{email}</span>
              </a>
            </li>
          ))}
          {website ? (
            <li>
              <a href={website} {...SAFE_LINK} className={row} data-action="website">
                <Globe aria-hidden className="h-4 w-4 shrink-0" />
                <span className="min-w-0 break-all">{website.replace(/^https?:\/\//, '')}</span>
              </a>
            </li>
          ) : null}
          {address ? (
            <li>
              <a
                href={directionsUrl(address)}
                {...SAFE_LINK}
                className={row}
                data-action="directions"
              >
                <MapPin aria-hidden className="h-4 w-4 shrink-0" />
                <span className="min-w-0 break-words">
                  <span className="sr-only">Directions to </span>
                  {address}
                </span>
              </a>
            </li>
          ) : null}
        </ul>
      ) : null}
      {extras.links.length > 0 ? (
        <ul className="flex flex-wrap justify-center gap-2" aria-label="Links">
          {extras.links.map((link) => {
            return (
              <li key={`${link.kind}-${link.url}`}>
                <a
                  href={link.tapPath ?? link.url}
                  {...SAFE_LINK}
                  className={cn(row, 'min-h-11')}
                  data-action="link"
                  data-kind={link.kind}
                >
                  <LinkIcon kind={link.kind} className="h-4 w-4 shrink-0" />
                  <span>{linkName(link)}</span>
                </a>
              </li>
            )
          })}
        </ul>
      ) : null}
    </div>
  )
}
