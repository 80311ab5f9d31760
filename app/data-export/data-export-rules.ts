// "Download my data" (issue 31 point 4, ADR 052): what the profile's panel and the server share.
// The rule's numbers and texts live here once.

/** How long a ready export can be downloaded; the hourly sweep deletes it after. */
export const DATA_EXPORT_DAYS = 7

/** The status (GET) and the request (POST) of the signed-in person's export. */
export const DATA_EXPORT_PATH = '/account/data-export'
/** The download (POST with the export's id): the zip, for its owner only. */
export const DATA_EXPORT_DOWNLOAD_PATH = '/account/data-export.zip'

export const DATA_EXPORT_QUEUED = "We're preparing your data"
export const DATA_EXPORT_QUEUED_DESCRIPTION =
  'This takes a minute or two. We will email you when it is ready to download.'
export const DATA_EXPORT_ALREADY_PENDING =
  'Your data export is already being prepared. Please wait for it to finish.'
export const DATA_EXPORT_FAILED = 'We could not prepare your data. Please try again.'

export type DataExportState = 'queued' | 'running' | 'ready' | 'failed'

/** What the panel shows of the person's newest export (none: never asked, or expired). */
export type DataExportView =
  | { state: 'none' }
  | {
      state: DataExportState
      id: string
      progress: number
      requestedAt: string
      /** Ready: until when it can be downloaded. */
      expiresAt: string | null
      byteSize: number | null
      error: string | null
    }

/** Whether the panel keeps asking for news. */
export const isPreparing = (view: DataExportView) =>
  view.state === 'queued' || view.state === 'running'
