import { Building2, Globe, Phone } from 'lucide-react'
import { type CSSProperties, useState } from 'react'
import type { CardExtrasView } from '#app/cards/card-extras'
import type { CardView } from '#app/cards/card-view'
import { CardActions } from '#app/components/cards/card-actions'
import { useTranslate } from '#app/components/layout/use-translate'
import { cn } from '#app/utils/cn'
import { backgroundCss, usesLightText } from '#app/validation/backgrounds'
import { distinctEmails } from '#app/validation/card-details'

// React 18 does not know fetchPriority; the lowercase attribute reaches the DOM as it is.
const HIGH_PRIORITY = { fetchpriority: 'high' } as Record<string, string>

export type { CardView }

export function initials(firstName: string, lastName: string) {
  return `${firstName.trim().charAt(0)}${lastName.trim().charAt(0)}`.toUpperCase() || '?'
}

const LOGO_PLACEHOLDER =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" rx="6" fill="%23e5e7eb"/></svg>',
  )

function CardLogo({
  card,
  productName,
  light,
}: {
  card: CardView
  productName: string
  light: boolean
}) {
  const [broken, setBroken] = useState(false)
  const t = useTranslate()
  if (card.logoUrl) {
    const logo = (
      <img
        src={broken ? LOGO_PLACEHOLDER : card.logoUrl}
        alt={card.company || t('card.logo')}
        onError={() => setBroken(true)}
        // For the card page's script without React (app/components/cards/card-visitor.js).
        data-fallback-src={LOGO_PLACEHOLDER}
        className="max-h-12 w-auto max-w-[180px] object-contain"
        data-testid="card-logo"
      />
    )
    // On a coloured or dark card (light text) the logo sits on a white plate: a logo in the
    // agency's colour on a card in that colour would vanish (issue 41 point 17).
    return light ? (
      <span className="rounded-lg bg-white px-2.5 py-1.5 shadow-sm" data-testid="card-logo-plate">
        {logo}
      </span>
    ) : (
      logo
    )
  }
  return (
    <p
      className={cn(
        'flex items-center gap-2 font-semibold',
        light ? 'text-white' : 'text-gray-900',
      )}
    >
      {card.company ? <Building2 aria-hidden className="h-5 w-5" /> : null}
      {card.company || productName}
    </p>
  )
}

/**
 * The one card display used everywhere (spec §3, card display). With `extras` (issue 28) it shows
 * the bio and pronouns, and every contact item as an action; `emails` are the addresses the owner
 * shows (the card gate blanked the hidden ones).
 */
export function CardDisplay({
  card,
  productName,
  className,
  children,
  extras,
  emails = [],
}: {
  card: CardView
  productName: string
  className?: string
  children?: React.ReactNode
  extras?: CardExtrasView
  emails?: string[]
}) {
  const light = usesLightText(card.background)
  const style: CSSProperties = {
    ...backgroundCss(card.background),
    backgroundSize: 'cover',
    backgroundPosition: 'center',
  }
  const name = `${card.firstName} ${card.lastName}`.trim()
  const t = useTranslate()
  // The secondary lines at full strength: faded text on a brand colour fell below WCAG AA
  // contrast (issue 30; the colour itself is made readable by readableCardColor).
  const muted = light ? 'text-white' : 'text-gray-800'

  return (
    <article
      aria-label={t('card.cardOf', { name })}
      data-testid="card-display"
      data-text-tone={light ? 'light' : 'dark'}
      className={cn(
        'relative isolate flex w-full max-w-sm flex-col items-center gap-4 overflow-hidden rounded-2xl p-6 text-center shadow-lg ring-1 ring-black/5',
        light ? 'text-white' : 'text-gray-900',
        className,
      )}
      style={style}
    >
      {card.background.kind === 'image' ? (
        <div aria-hidden className="absolute inset-0 -z-10 bg-black/50" />
      ) : null}
      {card.coverUrl ? (
        // The cover across the card's top edge (issue 41 point 6, ADR 083): its box is 3:1
        // before the image arrives (width, height and the aspect ratio), so nothing below moves.
        <img
          src={card.coverUrl}
          alt=""
          width={1200}
          height={400}
          // The page's largest paint when there is one: fetched first, not after the scripts.
          {...HIGH_PRIORITY}
          className="-mx-6 -mt-6 aspect-[3/1] w-[calc(100%+3rem)] max-w-none bg-black/10 object-cover"
          data-testid="card-cover"
        />
      ) : null}
      <div className="flex min-h-12 items-center justify-center">
        <CardLogo card={card} productName={productName} light={light} />
      </div>
      {card.profilePictureUrl ? (
        <img
          src={card.profilePictureUrl}
          alt={name}
          className="h-28 w-28 rounded-full object-cover ring-4 ring-white/70"
        />
      ) : (
        <div
          aria-hidden
          className="flex h-28 w-28 items-center justify-center rounded-full bg-white/80 text-3xl font-semibold text-gray-700 ring-4 ring-white/70"
        >
          {initials(card.firstName, card.lastName)}
        </div>
      )}
      <div className="flex flex-col gap-1">
        <h2 className="text-2xl font-bold">
          {name}
          {extras?.pronouns ? (
            <span className={cn('ml-2 text-sm font-normal', muted)}>({extras.pronouns})</span>
          ) : null}
        </h2>
        {card.jobTitle || extras?.department ? (
          <p className={cn('text-sm', muted)}>
            {[card.jobTitle, extras?.department].filter(Boolean).join(' · ')}
          </p>
        ) : null}
        {/* The company once (issue 41 point 6): without a logo it already heads the card. */}
        {card.company && card.logoUrl ? (
          <p className={cn('text-sm font-medium', muted)}>{card.company}</p>
        ) : null}
      </div>
      {extras?.bio ? (
        <p className={cn('whitespace-pre-line text-sm', muted)} data-testid="card-bio">
          {extras.bio}
        </p>
      ) : null}
      {extras ? (
        <CardActions
          phones={[
            { number: card.phoneNumber, type: extras.phoneType },
            { number: extras.phone2, type: extras.phone2Type },
          ]}
          emails={distinctEmails(emails)}
          website={card.website}
          extras={extras}
          light={light}
        />
      ) : card.phoneNumber || card.website ? (
        <ul className={cn('flex flex-col gap-1 text-sm', muted)}>
          {card.phoneNumber ? (
            <li className="flex items-center justify-center gap-2">
              <Phone aria-hidden className="h-4 w-4" /> {card.phoneNumber}
            </li>
          ) : null}
          {card.website ? (
            <li className="flex items-center justify-center gap-2 break-all">
              <Globe aria-hidden className="h-4 w-4" /> {card.website.replace(/^https?:\/\//, '')}
            </li>
          ) : null}
        </ul>
      ) : null}
      {children}
    </article>
  )
}
