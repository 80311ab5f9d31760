import * as Label from '@radix-ui/react-label'
import { ImagePlus, Loader2, Trash2, Upload } from 'lucide-react'
import { type DragEvent, useId, useRef, useState } from 'react'
import { toast } from '#app/components/ui/toasts'
import { cn } from '#app/utils/cn'
import { ImagePreparationError, type ImagePurpose, prepareImage } from '#app/utils/prepare-image'
import {
  IMAGE_ACCEPT,
  IMAGE_HINT,
  INVALID_IMAGE_MESSAGE,
  imageFileProblem,
} from '#app/validation/images'
import { ErrorList } from './forms'
import { Button } from './ui/button'

type UploadResult = { mediaId: string; url: string }

function upload(file: File, purpose: string, onProgress: (percent: number) => void) {
  return new Promise<UploadResult>((resolve, reject) => {
    const body = new FormData()
    body.set('purpose', purpose)
    body.set('file', file)
    // XHR rather than fetch: fetch reports no upload progress.
    const xhr = new XMLHttpRequest()
    xhr.open('POST', '/resources/upload')
    xhr.responseType = 'json'
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100))
    }
    xhr.onload = () => {
      const response = xhr.response as Partial<UploadResult> & { error?: string }
      if (xhr.status === 200 && response?.mediaId && response.url) resolve(response as UploadResult)
      else reject(new Error(response?.error ?? INVALID_IMAGE_MESSAGE))
    }
    xhr.onerror = () => reject(new Error('Failed to process image. Please try again.'))
    xhr.send(body)
  })
}

/** Whether a drag carries files (not text or a link dragged from the page). */
function carriesFiles(event: DragEvent) {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files')
}

/**
 * The one image input (issue 30): a drop zone around a real `<input type="file">`. The input
 * covers the zone, transparent, so a click, a tap, Enter or Space (the input has the focus) and,
 * without JavaScript, even a dropped file reach the browser's own control, and a form without
 * JavaScript sends the file itself as `{name}File`. With JavaScript a chosen or dropped file is
 * checked against the image rule (validation/images.ts, the limit's one home), scaled, uploaded
 * at once through /resources/upload with its progress and previewed; the form then sends its
 * media id as `{name}MediaId`. The server checks every file again: it is the authority.
 */
export function ImageField({
  name,
  label,
  purpose,
  currentUrl,
  hint,
  errors,
  onUploaded,
  onRemoved,
  readOnly = false,
}: {
  /** Someone who may only look (a read-only member): the image, without upload or Remove. */
  readOnly?: boolean
  name: string
  label: string
  purpose: ImagePurpose
  currentUrl: string | null
  hint?: string
  errors?: string[]
  onUploaded?: (result: UploadResult) => void
  /** Remove was pressed: the form will clear the image (a live preview follows it). */
  onRemoved?: () => void
}) {
  const id = useId()
  const describedBy = `${id}-rule`
  const errorId = `${id}-errors`
  const input = useRef<HTMLInputElement>(null)
  const [preview, setPreview] = useState(currentUrl)
  const [mediaId, setMediaId] = useState('')
  const [progress, setProgress] = useState<number | null>(null)
  const [error, setError] = useState<string[]>([])
  const [dragging, setDragging] = useState(false)

  function refuse(messages: string[], toastTitle: string) {
    setError(messages)
    toast.error(toastTitle)
    if (input.current) input.current.value = ''
  }

  async function onChoose(file: File | undefined) {
    if (!file) return
    setError([])
    // Refused before a byte is sent: the file's own problem, then the spec's rule (§5).
    const problem = imageFileProblem(file)
    if (problem) return refuse([problem, INVALID_IMAGE_MESSAGE], 'Invalid image file')
    let prepared: File
    try {
      prepared = await prepareImage(file, purpose)
    } catch (prepareError) {
      const message =
        prepareError instanceof ImagePreparationError ? prepareError.message : 'Invalid image file'
      return refuse([message], message)
    }
    const localPreview = URL.createObjectURL(prepared)
    setPreview(localPreview)
    setProgress(0)
    try {
      const result = await upload(prepared, purpose, setProgress)
      setMediaId(result.mediaId)
      setPreview(result.url)
      onUploaded?.(result)
    } catch (uploadError) {
      const message = uploadError instanceof Error ? uploadError.message : INVALID_IMAGE_MESSAGE
      setError([message])
      setPreview(currentUrl)
      toast.error(message)
    } finally {
      URL.revokeObjectURL(localPreview)
      setProgress(null)
      // The file has been uploaded: the form sends its id, not the bytes again.
      if (input.current) input.current.value = ''
    }
  }

  const uploading = progress !== null
  const shownErrors = [...(errors ?? []), ...error]
  const thumbnail = (
    <div className="flex h-20 w-20 shrink-0 items-center justify-center overflow-hidden rounded-lg border border-gray-200 bg-white dark:border-gray-700 dark:bg-gray-950">
      {preview ? (
        <img
          src={preview}
          alt={`${label} preview`}
          className="h-full w-full object-contain"
          onError={() => {
            // The stored image is gone or unreadable: show the placeholder and say so.
            setPreview(null)
            toast.error(
              purpose === 'profilePicture'
                ? 'Failed to load profile image'
                : 'Failed to load image',
            )
          }}
        />
      ) : (
        <ImagePlus aria-hidden className="h-6 w-6 text-gray-400" />
      )}
    </div>
  )

  if (readOnly) {
    return (
      <div className="flex min-w-0 flex-col gap-2">
        <Label.Root className="text-sm font-medium">{label}</Label.Root>
        {thumbnail}
      </div>
    )
  }

  return (
    <div className="flex min-w-0 flex-col gap-2">
      <Label.Root htmlFor={id} className="text-sm font-medium">
        {label}
      </Label.Root>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is the pointer's shortcut; the input inside is the control for keys and screen readers. */}
      <div
        data-testid="image-drop-zone"
        data-dragging={dragging ? '' : undefined}
        aria-busy={uploading || undefined}
        onDragEnter={(event) => {
          if (!carriesFiles(event)) return
          event.preventDefault()
          setDragging(true)
        }}
        onDragOver={(event) => {
          if (!carriesFiles(event)) return
          // Without this the browser would open the file instead of dropping it here.
          event.preventDefault()
          event.dataTransfer.dropEffect = 'copy'
        }}
        onDragLeave={(event) => {
          // Leaving for a child of the zone is not leaving the zone.
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false)
        }}
        onDrop={(event) => {
          const file = event.dataTransfer?.files?.[0]
          setDragging(false)
          if (!file) return
          event.preventDefault()
          void onChoose(file)
        }}
        className={cn(
          'relative flex min-w-0 items-center gap-4 rounded-xl border-2 border-dashed border-gray-300 bg-white p-3 transition-colors hover:border-brand dark:border-gray-700 dark:bg-gray-900',
          'has-[input:focus-visible]:border-brand has-[input:focus-visible]:ring-2 has-[input:focus-visible]:ring-brand has-[input:focus-visible]:ring-offset-2 dark:ring-offset-gray-950',
          dragging && 'border-brand bg-brand/10 dark:bg-brand/20',
          shownErrors.length > 0 && 'border-red-500 dark:border-red-400',
        )}
      >
        {thumbnail}
        <div className="flex min-w-0 flex-col gap-1 text-sm">
          <p className="flex items-center gap-2 font-medium text-gray-900 dark:text-gray-100">
            <Upload aria-hidden className="h-4 w-4 shrink-0 text-brand-text dark:text-gray-300" />
            <span>
              {dragging ? 'Drop the image here' : 'Drag an image here or '}
              {dragging ? null : (
                <span className="text-brand-text underline dark:text-gray-100">choose a file</span>
              )}
            </span>
          </p>
          <p id={describedBy} className="flex flex-col text-xs text-gray-600 dark:text-gray-400">
            <span>{IMAGE_HINT}</span>
            {hint ? <span>{hint}</span> : null}
          </p>
          {uploading ? (
            <div
              className="flex items-center gap-2 text-xs text-gray-600 dark:text-gray-400"
              role="status"
            >
              <Loader2 aria-hidden className="h-3 w-3 animate-spin" />
              <progress
                max={100}
                value={progress}
                className="h-2 w-24 min-w-0"
                aria-label={`Uploading ${label}`}
              />
              {progress}%
            </div>
          ) : null}
        </div>
        {/* The real control, over the whole zone: it takes clicks, keys and native drops. */}
        <input
          ref={input}
          id={id}
          type="file"
          name={`${name}File`}
          accept={IMAGE_ACCEPT}
          // Else the hover tooltip over the whole zone is the browser's "No file chosen".
          title={`Choose or drop an image: ${label}`}
          aria-describedby={shownErrors.length > 0 ? `${describedBy} ${errorId}` : describedBy}
          aria-invalid={shownErrors.length > 0 || undefined}
          onChange={(event) => void onChoose(event.currentTarget.files?.[0])}
          onKeyDown={(event) => {
            // Chromium opens a file input's picker on neither key by itself: both do here, as
            // on a button.
            if (event.key !== 'Enter' && event.key !== ' ') return
            event.preventDefault()
            event.currentTarget.click()
          }}
          className="absolute inset-0 h-full w-full cursor-pointer opacity-0"
        />
      </div>
      {preview ? (
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="self-start"
          disabled={uploading}
          onClick={() => {
            setPreview(null)
            setMediaId('none')
            onRemoved?.()
          }}
        >
          <Trash2 aria-hidden className="h-4 w-4" /> Remove
        </Button>
      ) : null}
      <input type="hidden" name={`${name}MediaId`} value={mediaId} />
      <ErrorList id={errorId} errors={shownErrors} />
    </div>
  )
}
