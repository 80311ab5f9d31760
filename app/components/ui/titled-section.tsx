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
