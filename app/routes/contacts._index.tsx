import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { offerSignedInCache } from '#app/cache/signed-in-page-cache.server'
import { contactsAction, contactsLoader } from '#app/cards/contacts-route.server'
import { ContactsPage } from '#app/components/contacts/contacts-page'
import { RouteLoadError } from '#app/components/layout/route-error'
import { SignedInLayout } from '#app/components/layout/signed-in-layout'

export const meta: MetaFunction = () => [{ title: 'Contacts' }]

export const loader = ({ request, context }: LoaderFunctionArgs) => {
  offerSignedInCache(context)
  return contactsLoader(request, context)
}

export const action = ({ request, context }: ActionFunctionArgs) => contactsAction(request, context)

export default function ContactsRoute() {
  const data = useLoaderData<typeof loader>()
  return (
    <SignedInLayout>
      <ContactsPage {...data} />
    </SignedInLayout>
  )
}

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: 'Failed to load your contacts' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
