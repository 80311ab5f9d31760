// /personal-card/claim?token=: a departing person's own card (issue 45 point 2, ADR 103). Opening
// the emailed link only shows the form; its button writes the card on the platform's host.
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from '@remix-run/node'
import { PersonalCardClaimPage } from '#app/components/people/personal-card-claim-page'
import {
  personalCardClaimAction,
  personalCardClaimLoader,
} from '#app/people/personal-card-route.server'
import { actionAndLoaderHeaders } from '#app/utils/route-headers'

export const headers: HeadersFunction = actionAndLoaderHeaders

export const meta: MetaFunction = () => [
  { title: 'Keep a personal card' },
  { name: 'robots', content: 'noindex' },
]

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  personalCardClaimLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) =>
  personalCardClaimAction(request, context)

export default PersonalCardClaimPage
