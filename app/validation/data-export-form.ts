// "Download my data" (ADR 052): the panel's two forms, shared by the panel and the actions.
import { z } from 'zod'

/** Ask for a new export (or again after a failure); lands back on the page it was asked from. */
export const DataExportRequestSchema = z.object({
  intent: z.literal('request'),
  redirectTo: z.string().max(2000).optional(),
})

/** Download one export: the person's own, by its id (anything else is a 404). */
export const DataExportDownloadSchema = z.object({
  exportId: z.uuid(),
})
