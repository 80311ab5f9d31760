// /personal-card/manage?token=: the emailed link's form, where a personal card's owner edits or
// removes it (ADR 106). Opening the link only shows the form; the platform's host only.
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from '@remix-run/node'
import { PersonalCardManagePage } from '#app/components/people/personal-card-manage-page'
import {
  personalCardManageAction,
  personalCardManageLoader,
} from '#app/people/personal-card-route.server'
import { actionAndLoaderHeaders } from '#app/utils/route-headers'

export const headers: HeadersFunction = actionAndLoaderHeaders

export const meta: MetaFunction = () => [
  { title: 'Edit your personal card' },
  { name: 'robots', content: 'noindex' },
]

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  personalCardManageLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) =>
  personalCardManageAction(request, context)

export default PersonalCardManagePage
