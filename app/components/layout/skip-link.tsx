// The page's first focusable element (WCAG 2.4.1, issue 30 point 4): hidden until focused, it
// jumps past the header (and on dashboards the sidebar) to the page's <main>. Without JavaScript
// the fragment lands on the content wrapper below the header, which still skips the header.
import { useTranslate } from './use-translate'

export const CONTENT_ID = 'content'

export function SkipLink() {
  const t = useTranslate()
  return (
    <a
      href={`#${CONTENT_ID}`}
      onClick={(event) => {
        const main = document.querySelector('main')
        if (!main) return
        event.preventDefault()
        // Focusable from script only, so the next Tab continues inside the main content.
        if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1')
        main.focus()
        main.scrollIntoView()
      }}
      className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-[100] focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:text-gray-900 focus:shadow-lg focus:outline-2 focus:outline-brand dark:focus:bg-gray-900 dark:focus:text-gray-100"
    >
      {t('frame.skip')}
    </a>
  )
}
