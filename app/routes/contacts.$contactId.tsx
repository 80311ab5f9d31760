// One contact's page (issue 41 point 12); its Personal switch posts here, as the list's does there.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { isRouteErrorResponse, useLoaderData, useRouteError } from '@remix-run/react'
import { contactLoader, contactsAction } from '#app/cards/contacts-route.server'
import { ContactNotFound, ContactPage } from '#app/components/contacts/contact-page'
import { RouteLoadError } from '#app/components/layout/route-error'
import { SignedInLayout } from '#app/components/layout/signed-in-layout'
import { CONTACT_NOT_FOUND } from '#app/validation/contact-filters'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? data.contact.fullName : CONTACT_NOT_FOUND },
]

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  contactLoader(request, context, params.contactId ?? '')

export const action = ({ request, context }: ActionFunctionArgs) => contactsAction(request, context)

export default function ContactRoute() {
  const { contact } = useLoaderData<typeof loader>()
  return (
    <SignedInLayout>
      <ContactPage contact={contact} />
    </SignedInLayout>
  )
}

export const handle = { loadError: 'Failed to load your contacts' }

/** Unknown, deleted or someone else's: said in the page, inside the signed-in frame. */
export function ErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <SignedInLayout>
        <ContactNotFound />
      </SignedInLayout>
    )
  }
  return <RouteLoadError message={handle.loadError} />
}
