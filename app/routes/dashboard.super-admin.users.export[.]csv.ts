import type { LoaderFunctionArgs } from '@remix-run/node'
import { endUsersCsvLoader } from '#app/people/people-route.server'

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  endUsersCsvLoader(request, context)
