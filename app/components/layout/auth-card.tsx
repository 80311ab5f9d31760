import type { ReactNode } from 'react'

export function AuthCard({
  title,
  description,
  children,
  footer,
  as: Container = 'main',
  titleAs: Title = 'h1',
}: {
  title: string
  description?: string
  children: ReactNode
  footer?: ReactNode
  /** The Branding screen's preview draws the same card inside the dashboard's own main. */
  as?: 'main' | 'div'
  titleAs?: 'h1' | 'p'
}) {
  return (
    <Container className="mx-auto flex w-full max-w-md flex-col gap-6 px-4 py-12 md:py-20">
      <div className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm dark:border-gray-800 dark:bg-gray-900 md:p-8">
        <Title className="text-2xl font-semibold">{title}</Title>
        {description ? (
          <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{description}</p>
        ) : null}
        <div className="mt-6">{children}</div>
      </div>
      {footer ? (
        <p className="text-center text-sm text-gray-600 dark:text-gray-400">{footer}</p>
      ) : null}
    </Container>
  )
}
