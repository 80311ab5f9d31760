import type { LoaderFunctionArgs } from '@remix-run/node'
import { exportContacts } from '#app/cards/contacts-export.server'

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  exportContacts(request, context, 'vcf')
