// /p/{slug}: a person's own card on the platform's host (issue 45 point 2, ADR 103); an agency's
// host has none (404).
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { PersonalCardPage } from '#app/components/people/personal-card-page'
import { personalCardLoader } from '#app/people/personal-card-route.server'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.card.firstName} ${data.card.lastName}`.trim() : 'Card not found' },
]

export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  personalCardLoader(request, context, params.slug)

export default PersonalCardPage
