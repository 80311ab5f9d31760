import * as Label from '@radix-ui/react-label'
import { ImagePlus, Loader2, Trash2 } from 'lucide-react'
import { useId, useRef, useState } from 'react'
import { toast } from '#app/components/ui/toasts'
import { ImagePreparationError, type ImagePurpose, prepareImage } from '#app/utils/prepare-image'
import { IMAGE_ACCEPT, INVALID_IMAGE_MESSAGE, isAcceptedImageFile } from '#app/validation/images'
import { ErrorList } from './forms'
import { Button } from './ui/button'

type UploadResult = { mediaId: string; url: string }

function upload(file: File, purpose: string, onProgress: (percent: number) => void) {
  return new Promise<UploadResult>((resolve, reject) => {
    const body = new FormData()
    body.set('purpose', purpose)
    body.set('file', file)
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

/**
 * An image input that uploads at once (with progress and a preview) and submits the media id
 * as `{name}MediaId`. Without JavaScript the file itself is sent as `{name}File`.
 */
export function ImageField({
  name,
  label,
  purpose,
  currentUrl,
  hint,
  errors,
  onUploaded,
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
}) {
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  const [preview, setPreview] = useState(currentUrl)
  const [mediaId, setMediaId] = useState('')
  const [progress, setProgress] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)

  async function onChange(file: File | undefined) {
    if (!file) return
    setError(null)
    if (!isAcceptedImageFile(file)) {
      setError(INVALID_IMAGE_MESSAGE)
      toast.error('Invalid image file')
      if (input.current) input.current.value = ''
      return
    }
    let prepared: File
    try {
      prepared = await prepareImage(file, purpose)
    } catch (prepareError) {
      const message =
        prepareError instanceof ImagePreparationError ? prepareError.message : 'Invalid image file'
      setError(message)
      toast.error(message)
      if (input.current) input.current.value = ''
      return
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
      setError(message)
      setPreview(currentUrl)
      toast.error(message)
    } finally {
      URL.revokeObjectURL(localPreview)
      setProgress(null)
      // The file has been uploaded: the form sends its id, not the bytes again.
      if (input.current) input.current.value = ''
    }
  }

  return (
    <div className="flex min-w-0 flex-col gap-2">
      <Label.Root htmlFor={readOnly ? undefined : id} className="text-sm font-medium">
        {label}
      </Label.Root>
      <div className="flex items-center gap-4">
        <div className="flex h-20 w-20 shrink-0 items-center justify-center overflow-hidden rounded-lg border border-dashed border-gray-300 bg-gray-50 dark:border-gray-700 dark:bg-gray-900">
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
        <div className="flex min-w-0 flex-col gap-2">
          {readOnly ? null : (
            <input
              ref={input}
              id={id}
              type="file"
              name={`${name}File`}
              accept={IMAGE_ACCEPT}
              onChange={(event) => void onChange(event.currentTarget.files?.[0])}
              className="w-full min-w-0 text-sm file:mr-3 file:rounded-md file:border-0 file:bg-gray-100 file:px-3 file:py-2 file:text-sm file:font-medium dark:file:bg-gray-800"
            />
          )}
          {progress !== null ? (
            <div className="flex items-center gap-2 text-xs text-gray-600" role="status">
              <Loader2 aria-hidden className="h-3 w-3 animate-spin" />
              <progress
                max={100}
                value={progress}
                className="h-2 w-32"
                aria-label={`Uploading ${label}`}
              />
              {progress}%
            </div>
          ) : null}
          {preview && !readOnly ? (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              className="self-start"
              onClick={() => {
                setPreview(null)
                setMediaId('none')
              }}
            >
              <Trash2 aria-hidden className="h-4 w-4" /> Remove
            </Button>
          ) : null}
        </div>
      </div>
      <input type="hidden" name={`${name}MediaId`} value={mediaId} />
      {hint ? <p className="text-xs text-gray-500">{hint}</p> : null}
      <ErrorList errors={[...(errors ?? []), ...(error ? [error] : [])]} />
    </div>
  )
}
