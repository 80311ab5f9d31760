import type { ShouldRevalidateFunction } from '@remix-run/react'

type NavigationArgs = Pick<
  Parameters<ShouldRevalidateFunction>[0],
  'currentUrl' | 'nextUrl' | 'formMethod'
>

function withoutTab(url: URL) {
  const params = new URLSearchParams(url.search)
  params.delete('tab')
  params.sort()
  return params.toString()
}

/**
 * A navigation that only chose another tab of the same page (`?tab=`, no submission). No
 * loader's data depends on the chosen tab, so the layouts above a tabbed page keep theirs: a
 * request per tab click was wasted work, and on a busy server a tab could fail to open.
 */
export function changesOnlyTheTab({ currentUrl, nextUrl, formMethod }: NavigationArgs) {
  return (
    !formMethod &&
    currentUrl.pathname === nextUrl.pathname &&
    currentUrl.search !== nextUrl.search &&
    withoutTab(currentUrl) === withoutTab(nextUrl)
  )
}

/** For a layout route: its data stays as it is when only the tab changes. */
export const keepDataAcrossTabs: ShouldRevalidateFunction = (args) =>
  changesOnlyTheTab(args) ? false : args.defaultShouldRevalidate
