export function SiteFooter({ name, year }: { name: string; year: number }) {
  return (
    <footer className="border-t border-gray-200 py-6 text-center text-sm text-gray-500 dark:border-gray-800 dark:text-gray-400">
      © {year} {name}. All rights reserved.
    </footer>
  )
}
