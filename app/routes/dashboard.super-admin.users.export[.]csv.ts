import type { LoaderFunctionArgs } from '@remix-run/node'
import { endUsersCsvLoader } from '#app/admin/people-routes.server'

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  endUsersCsvLoader(request, context)
