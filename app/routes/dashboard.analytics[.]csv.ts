import type { LoaderFunctionArgs } from '@remix-run/node'
import { analyticsCsvLoader } from '#app/dashboard/analytics-route.server'

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  analyticsCsvLoader(request, context)
