import type { LoaderFunctionArgs } from '@remix-run/node'
import { agencyEndUsersCsvLoader } from '#app/people/people-route.server'

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  agencyEndUsersCsvLoader(request, context)
