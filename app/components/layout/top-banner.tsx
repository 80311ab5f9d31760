// The strips across the top of a signed-in page (an unconfirmed email, a scheduled deletion):
// one frame, each its own words, colour and buttons.
import type { LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'

/** A top strip: labelled for assistive technology, its icon, then its message and buttons. */
export function TopBanner({
  label,
  testId,
  className,
  icon: Icon,
  children,
}: {
  label: string
  testId: string
  /** The strip's border, background and text colours. */
  className: string
  icon: LucideIcon
  children: ReactNode
}) {
  return (
    <section aria-label={label} data-testid={testId} className={className}>
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-3 px-4 py-2 text-sm">
        <Icon aria-hidden className="h-4 w-4 shrink-0" />
        {children}
      </div>
    </section>
  )
}
