import * as Tabs from '@radix-ui/react-tabs'
import type { ShouldRevalidateFunction } from '@remix-run/react'
import { useActionData, useSearchParams } from '@remix-run/react'
import type { LucideIcon } from 'lucide-react'
import { type MouseEvent, type ReactNode, useEffect, useRef, useState } from 'react'
import {
  isClientFailure,
  serverActionOrFailure,
  useClientFailureToast,
} from '#app/components/client-failure'
import { keepDataAcrossTabs } from '#app/utils/tab-navigation'

export type ProfileTab = { id: string; label: string; icon: LucideIcon; content: ReactNode }

/** The tab asked for by `?tab=`, if the page has it; else the first tab. */
export function pickTab(tabs: { id: string }[], requested: string | null) {
  return tabs.find((tab) => tab.id === requested)?.id ?? tabs[0]?.id ?? ''
}

/**
 * Switching tabs only changes `?tab=`: the page's data stays as it is. Submissions and
 * their redirects (which return to the exact URL they were posted from) revalidate as usual.
 */
export const profileShouldRevalidate: ShouldRevalidateFunction = (args) => {
  if (isClientFailure(args.actionResult)) return false
  return keepDataAcrossTabs(args)
}

/** A plain left click: the tab switches in place. Others (new tab, new window) follow the link. */
function isPlainClick(event: MouseEvent) {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey
}

/**
 * Radix tabs (arrow keys, Home/End) whose triggers are also links to `?tab=…`, so the tab is
 * in the URL and can be chosen without JavaScript. The list scrolls sideways on small screens.
 */
export function ProfileTabs({
  tabs,
  label,
  keepMounted = false,
}: {
  tabs: ProfileTab[]
  label: string
  /** Every tab stays in the page (hidden when inactive): one form may span the tabs. */
  keepMounted?: boolean
}) {
  const [searchParams, setSearchParams] = useSearchParams()
  const fromUrl = pickTab(tabs, searchParams.get('tab'))
  const [value, setValue] = useState(fromUrl)
  // The tab last chosen, ahead of the render: Radix reports one click twice (its mouse-down, then
  // the focus that follows, before the new value has rendered), and a second navigation to the
  // URL just reached would reload every loader of the page.
  const chosen = useRef(fromUrl)
  // Back and forward buttons move between tabs too.
  useEffect(() => {
    chosen.current = fromUrl
    setValue(fromUrl)
  }, [fromUrl])
  // On a narrow screen the chosen tab is scrolled into the bar's view (never the page).
  const list = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const bar = list.current
    const active = bar?.querySelector<HTMLElement>(`[data-testid="profile-tab-${value}"]`)
    if (!bar || !active) return
    const left = active.offsetLeft - bar.offsetLeft
    if (left < bar.scrollLeft || left + active.offsetWidth > bar.scrollLeft + bar.clientWidth) {
      bar.scrollLeft = left - (bar.clientWidth - active.offsetWidth) / 2
    }
  }, [value])

  function change(next: string) {
    if (next === chosen.current) return
    chosen.current = next
    setValue(next)
    setSearchParams(
      (previous) => {
        const params = new URLSearchParams(previous)
        params.set('tab', next)
        return params
      },
      { replace: true, preventScrollReset: true },
    )
  }

  return (
    <Tabs.Root value={value} onValueChange={change} className="flex flex-col gap-6">
      <Tabs.List
        aria-label={label}
        ref={list}
        className="scroll-hint-x -mx-4 flex gap-1 overflow-x-auto border-b border-gray-200 px-4 [scrollbar-width:thin] sm:mx-0 sm:px-0 dark:border-gray-800"
      >
        {tabs.map((tab) => (
          <Tabs.Trigger key={tab.id} value={tab.id} asChild>
            <a
              href={`?tab=${tab.id}`}
              type={undefined}
              onClick={(event) => {
                if (isPlainClick(event)) event.preventDefault()
              }}
              data-testid={`profile-tab-${tab.id}`}
              className="flex shrink-0 items-center gap-2 whitespace-nowrap rounded-t-md border-b-2 border-transparent px-3 py-2.5 text-sm font-medium focus-visible:outline-offset-[-2px] text-gray-600 transition-colors hover:text-gray-900 data-[state=active]:border-brand data-[state=active]:text-gray-900 dark:text-gray-400 dark:hover:text-gray-100 dark:data-[state=active]:text-gray-100"
            >
              <tab.icon aria-hidden className="h-4 w-4" />
              {tab.label}
            </a>
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {tabs.map((tab) => (
        <Tabs.Content
          key={tab.id}
          value={tab.id}
          forceMount={keepMounted ? true : undefined}
          className="rounded-xl data-[state=inactive]:hidden"
        >
          {tab.content}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  )
}

/** The profile forms' clientAction: a failed request keeps the form and says so (spec §8). */
export const profileClientAction = serverActionOrFailure

const SAVE_FAILURES = { password: 'Failed to change password. Please try again.' }

/** The frame of a tabbed page (profile, settings): heading, subtitle and the tabs. */
export function TabbedPage({
  title,
  subtitle,
  tabs,
}: {
  title: string
  subtitle: string
  tabs: ProfileTab[]
}) {
  return (
    <main className="mx-auto flex w-full max-w-4xl flex-col gap-6 px-4 py-8 sm:py-10">
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold sm:text-3xl">{title}</h1>
        <p className="text-gray-600 dark:text-gray-400">{subtitle}</p>
      </div>
      <ProfileTabs tabs={tabs} label={`${title} sections`} />
    </main>
  )
}

/** The profile page: the tabbed frame, and the spec's failure toast when a save's request fails. */
export function ProfilePage(props: { title: string; subtitle: string; tabs: ProfileTab[] }) {
  useClientFailureToast(useActionData(), SAVE_FAILURES, 'Failed to update profile.')
  return <TabbedPage {...props} />
}
