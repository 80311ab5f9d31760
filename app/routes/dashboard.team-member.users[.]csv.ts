import type { LoaderFunctionArgs } from '@remix-run/node'
import { myEndUsersCsv } from '#app/team-admin/my-end-users-route.server'

export const loader = ({ request, context }: LoaderFunctionArgs) => myEndUsersCsv(request, context)
