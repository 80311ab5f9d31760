// /p/{slug}/manage: a personal card's owner asks for a link to edit or remove it, sent to the
// card's personal email only (ADR 106); the platform's host only.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { ManageLinkRequestPage } from '#app/components/people/manage-link-request-page'
import {
  manageLinkRequestAction,
  manageLinkRequestLoader,
} from '#app/people/personal-card-route.server'
import { MANAGE_PERSONAL_CARD_LINK } from '#app/validation/personal-card'

export const meta: MetaFunction = () => [
  { title: MANAGE_PERSONAL_CARD_LINK },
  { name: 'robots', content: 'noindex' },
]

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  manageLinkRequestLoader(request, context, params.slug)

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  manageLinkRequestAction(request, context, params.slug)

export default ManageLinkRequestPage
