// What the contacts list and a contact's page both show: the consent a lead gave, the Personal
// switch, and the day a contact was added.
import { useFetcher } from '@remix-run/react'
import { Badge } from '#app/components/ui/badge'
import { cn } from '#app/utils/cn'

/**
 * A lead's consent (ADR 050), for the owner to see what the person agreed to: the badge names
 * the version, the line under it when (and, on a contact's page, on which page); all of it is
 * text, so a screen reader reads it as shown.
 */
export function ConsentBadge({
  version,
  givenAt,
  page,
  withPage = false,
}: {
  version: number | null
  givenAt: Date | string | null
  page: string | null
  /** Says the page it was given on too (a contact's page has the room). */
  withPage?: boolean
}) {
  if (version === null || !givenAt) return null
  const at = new Date(givenAt)
  return (
    <span
      className="flex min-w-0 flex-col items-start gap-0.5"
      data-testid="contact-consent"
      title={`Consent to version ${version} of your agency's text, given ${at.toISOString()}${page ? ` on ${page}` : ''}`}
    >
      <Badge tone="green">{`Consent v${version}`}</Badge>
      <span className="text-xs text-gray-600 dark:text-gray-400">
        given <Day value={at} />
        {withPage && page ? (
          <>
            {' on '}
            <span className="break-all">{page}</span>
          </>
        ) : null}
      </span>
    </span>
  )
}

/** A day as the reader's browser writes it, with the exact time for machines. */
export function Day({ value }: { value: Date | string }) {
  const at = new Date(value)
  return (
    // The server and the browser may write a day differently (their locales): the browser's wins.
    <time dateTime={at.toISOString()} suppressHydrationWarning>
      {at.toLocaleDateString()}
    </time>
  )
}

/**
 * One contact's Personal switch: a form of its own (it works without JavaScript, the answer
 * coming back to the page it was posted from), posted at once when changed with it.
 */
export function PersonalSwitch({
  contactId,
  name,
  personal,
  describedBy,
  className,
}: {
  contactId: string
  name: string
  personal: boolean
  /** The id of the text that says what Personal means. */
  describedBy?: string
  className?: string
}) {
  const fetcher = useFetcher()
  const pending = fetcher.formData?.get('contactId') === contactId
  const shown = pending ? fetcher.formData?.get('personal') === 'true' : personal
  return (
    <fetcher.Form method="POST" className={cn('flex items-center gap-2', className)}>
      <input type="hidden" name="intent" value="set-personal" />
      <input type="hidden" name="contactId" value={contactId} />
      <input type="hidden" name="personal" value={shown ? 'false' : 'true'} />
      <button
        type="submit"
        role="switch"
        aria-checked={shown}
        aria-label={`${name}: personal contact`}
        aria-describedby={describedBy}
        className="inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-gray-300 p-0.5 transition-colors aria-checked:bg-brand dark:bg-gray-700"
      >
        <span
          aria-hidden
          className={`h-5 w-5 rounded-full bg-white shadow transition-transform ${shown ? 'translate-x-5' : ''}`}
        />
      </button>
      <span aria-hidden className="text-xs text-gray-700 dark:text-gray-300">
        {shown ? 'Personal' : 'Company'}
      </span>
    </fetcher.Form>
  )
}
