// The contacts export as CSV or vCard (/contacts/export.vcf re-exports this): the extension decides.
import type { LoaderFunctionArgs } from '@remix-run/node'
import { exportContacts } from '#app/cards/contacts-export.server'

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  exportContacts(request, context, extensionOf(request) === 'vcf' ? 'vcf' : 'csv')

const extensionOf = (request: Request) => new URL(request.url).pathname.split('.').pop()
