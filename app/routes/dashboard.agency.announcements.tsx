import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import {
  announcementsAction,
  announcementsLoader,
} from '#app/announcements/announcements-route.server'
import { AnnouncementsPage } from '#app/components/announcements/announcements-page'
import { RouteLoadError } from '#app/components/layout/route-error'

export const meta: MetaFunction = () => [{ title: 'Announcements' }]

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  announcementsLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) =>
  announcementsAction(request, context)

export default function AnnouncementsRoute() {
  const data = useLoaderData<typeof loader>()
  // A sent announcement starts a new, empty form (the history's newest row is the one sent).
  return <AnnouncementsPage key={data.history[0]?.id ?? 'none'} {...data} />
}

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: 'Failed to load announcements' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
