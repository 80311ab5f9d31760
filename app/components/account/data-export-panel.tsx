// "Download my data" on every profile's Security tab (issue 31 point 4, ADR 052). The panel
// keeps its own state: it loads the person's newest export from /account/data-export and asks
// again every couple of seconds while the export is queued or running.
import { Form, useFetcher, useLocation } from '@remix-run/react'
import { Download, Loader2 } from 'lucide-react'
import { useEffect } from 'react'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'
import {
  DATA_EXPORT_DAYS,
  DATA_EXPORT_DOWNLOAD_PATH,
  DATA_EXPORT_PATH,
  type DataExportView,
  isPreparing,
} from '#app/data-export/data-export-rules'

const POLL_MS = 1500

type StatusAnswer = { export: DataExportView }
type RequestAnswer = { error?: string | null }

const formatDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })

function formatSize(bytes: number | null) {
  if (!bytes) return ''
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

export function DataExportPanel() {
  const status = useFetcher<StatusAnswer>({ key: 'data-export-status' })
  const request = useFetcher<RequestAnswer>({ key: 'data-export-request' })
  const location = useLocation()
  const view = status.data?.export
  const preparing = view ? isPreparing(view) : false

  // First load once mounted (the profile's own loader does not read exports: ADR 052).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on mount
  useEffect(() => {
    if (!status.data && status.state === 'idle') status.load(DATA_EXPORT_PATH)
  }, [])

  // While it is being prepared, ask again after each answer.
  useEffect(() => {
    if (!preparing || status.state !== 'idle') return
    const timer = setTimeout(() => status.load(DATA_EXPORT_PATH), POLL_MS)
    return () => clearTimeout(timer)
  }, [preparing, status.state, status.load])

  const requesting = request.state !== 'idle'
  const refusal = request.state === 'idle' ? request.data?.error : null
  const requestForm = (label: string, variant: 'primary' | 'secondary') => (
    <request.Form method="post" action={DATA_EXPORT_PATH}>
      <input type="hidden" name="intent" value="request" />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <StatusButton
        variant={variant}
        pending={requesting}
        pendingText="Asking…"
        disabled={preparing}
      >
        {label}
      </StatusButton>
    </request.Form>
  )

  return (
    <section
      id="data-export"
      aria-labelledby="data-export-heading"
      className="flex flex-col gap-4 rounded-2xl border border-gray-200 bg-white p-6 dark:border-gray-800 dark:bg-gray-900"
    >
      <div className="flex flex-col gap-2">
        <h2 id="data-export-heading" className="text-lg font-semibold">
          Download my data
        </h2>
        <p className="text-sm text-gray-600 dark:text-gray-400">
          A copy of what you keep here in one zip file: your profile and settings, your cards (each
          also as a contact file), your contacts and leads, your cards' view counts, your activity,
          and your images. We prepare it in the background and email you when it is ready. It can be
          downloaded for {DATA_EXPORT_DAYS} days, and only while you are signed in.
        </p>
      </div>

      {!view ? (
        <div aria-busy="true" aria-live="polite" className="flex flex-col gap-2">
          <span className="sr-only">Loading your data export…</span>
          <div className="h-4 w-48 animate-pulse rounded bg-gray-200 dark:bg-gray-800" />
          <div className="h-10 w-40 animate-pulse rounded-md bg-gray-200 dark:bg-gray-800" />
        </div>
      ) : (
        <div className="flex flex-col gap-3" data-testid="data-export-status">
          <ExportRow view={view} />
          <div className="flex flex-wrap items-center gap-3">
            {view.state === 'ready' ? (
              <Form method="post" action={DATA_EXPORT_DOWNLOAD_PATH} reloadDocument>
                <input type="hidden" name="exportId" value={view.id} />
                <Button type="submit">
                  <Download aria-hidden className="h-4 w-4" />
                  Download zip
                </Button>
              </Form>
            ) : null}
            {view.state === 'none' ? requestForm('Download my data', 'primary') : null}
            {view.state === 'failed' ? requestForm('Try again', 'primary') : null}
            {view.state === 'ready' ? requestForm('Prepare a new copy', 'secondary') : null}
          </div>
          {refusal ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {refusal}
            </p>
          ) : null}
        </div>
      )}
    </section>
  )
}

function ExportRow({ view }: { view: DataExportView }) {
  if (view.state === 'none') return null
  if (view.state === 'queued' || view.state === 'running') {
    const percent = view.state === 'running' ? view.progress : 0
    return (
      <div className="flex flex-col gap-2" aria-live="polite">
        <p className="flex items-center gap-2 text-sm text-gray-700 dark:text-gray-300">
          <Loader2 aria-hidden className="h-4 w-4 animate-spin" />
          {view.state === 'queued'
            ? 'Queued: your data export starts in a moment…'
            : `Preparing your data: ${percent}%`}
        </p>
        <div
          role="progressbar"
          aria-label="Data export progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-2 w-full max-w-md overflow-hidden rounded-full bg-gray-200 dark:bg-gray-800"
        >
          <div
            className="h-full rounded-full bg-brand transition-[width]"
            style={{ width: `${percent}%` }}
          />
        </div>
      </div>
    )
  }
  if (view.state === 'failed') {
    return (
      <p className="text-sm text-red-700 dark:text-red-400" data-testid="data-export-failed">
        {view.error}
      </p>
    )
  }
  return (
    <p className="text-sm text-gray-700 dark:text-gray-300">
      Your data is ready{view.byteSize ? ` (${formatSize(view.byteSize)})` : ''}. You can download
      it until {view.expiresAt ? formatDate(view.expiresAt) : 'it expires'}.
    </p>
  )
}
