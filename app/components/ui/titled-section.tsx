import type { LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'

/**
 * A section named by its own heading: `aria-labelledby` points at the heading's id, so assistive
 * technology (and the tests, by role and name) find the section by its title.
 */
export function TitledSection({
  id,
  title,
  className,
  titleClassName,
  as: Heading = 'h2',
  testId,
  children,
}: {
  id: string
  title: ReactNode
  className: string
  titleClassName: string
  as?: 'h2' | 'h3'
  testId?: string
  children?: ReactNode
}) {
  return (
    <section aria-labelledby={id} className={className} data-testid={testId}>
      <Heading id={id} className={titleClassName}>
        {title}
      </Heading>
      {children}
    </section>
  )
}

/** A titled box inside a panel: an h3, with an optional icon before its title. */
export function Subsection({
  id,
  icon: Icon,
  title,
  layout = 'flex flex-col gap-3',
  testId,
  children,
}: {
  id: string
  icon?: LucideIcon
  title: string
  /** The box's flex classes; its border and padding are always the same. */
  layout?: string
  testId?: string
  children?: ReactNode
}) {
  return (
    <TitledSection
      id={id}
      title={
        Icon ? (
          <>
            <Icon aria-hidden className="h-4 w-4" /> {title}
          </>
        ) : (
          title
        )
      }
      className={`${layout} rounded-lg border border-gray-200 p-4 dark:border-gray-800`}
      titleClassName={Icon ? 'flex items-center gap-2 font-medium' : 'font-medium'}
      as="h3"
      testId={testId}
    >
      {children}
    </TitledSection>
  )
}
