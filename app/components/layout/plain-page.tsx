import type { ReactNode } from 'react'

/** A page without any tenant's branding: unknown hosts, unavailable sites, fatal errors. */
export function PlainPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-3 p-6 text-center">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <div className="max-w-md text-gray-600 dark:text-gray-400">{children}</div>
    </main>
  )
}
