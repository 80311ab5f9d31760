// The zip of "Download my data" (ADR 052), streamed to its owner only (anyone else: 404). A POST
// from the profile's panel: each download writes its audit event, and no GET here writes.
import type { ActionFunctionArgs } from '@remix-run/node'
import { downloadDataExport } from '#app/data-export/data-export.server'

export const action = ({ request, context }: ActionFunctionArgs) =>
  downloadDataExport(request, context)
