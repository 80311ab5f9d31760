// Spec §9: images are scaled down in the browser before they are sent (in proportion, as JPEG,
// to the same maxima the server applies), so a phone photo of several megabytes uploads as a
// few hundred kilobytes. The server still checks, decodes and re-encodes every upload.
import { IMAGE_PURPOSES, type ImagePurpose, type PurposeSpec } from '#app/validation/images'

export type { ImagePurpose }

// The server makes an exact-size image (the 32×32 favicon) from the upload: the browser only
// keeps such an upload small.
const EXACT_UPLOAD_MAX = 256

/** The server's maxima for the purpose (validation/images.ts), as a canvas takes them. */
function maximaOf(purpose: ImagePurpose) {
  const spec: PurposeSpec = IMAGE_PURPOSES[purpose]
  return spec.exact
    ? { width: EXACT_UPLOAD_MAX, height: EXACT_UPLOAD_MAX, quality: spec.quality / 100 }
    : { width: spec.width, height: spec.height, quality: spec.quality / 100 }
}

const KEEPS_TRANSPARENCY: ReadonlySet<ImagePurpose> = new Set(['logo', 'brandLogo', 'favicon'])

/** A failure with the spec's message for it (§8, images). */
export class ImagePreparationError extends Error {}

function readAsDataUrl(file: File) {
  return new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(new ImagePreparationError('Failed to read file'))
    reader.readAsDataURL(file)
  })
}

function loadImage(src: string) {
  return new Promise<HTMLImageElement>((resolve, reject) => {
    const image = new Image()
    image.onload = () => resolve(image)
    image.onerror = () => reject(new ImagePreparationError('Failed to load image'))
    image.src = src
  })
}

/**
 * The file to upload: the original when it is already within the maxima (or a GIF, whose
 * frames a canvas would drop), else a scaled copy. A file the browser cannot read or decode is
 * refused here, before any upload.
 */
export async function prepareImage(file: File, purpose: ImagePurpose): Promise<File> {
  const image = await loadImage(await readAsDataUrl(file))
  const max = maximaOf(purpose)
  const scale = Math.min(1, max.width / image.naturalWidth, max.height / image.naturalHeight)
  if (scale === 1 || file.type === 'image/gif') return file
  const canvas = document.createElement('canvas')
  canvas.width = Math.max(1, Math.round(image.naturalWidth * scale))
  canvas.height = Math.max(1, Math.round(image.naturalHeight * scale))
  const context = canvas.getContext('2d')
  if (!context) throw new ImagePreparationError('Could not get canvas context')
  // Logos keep their transparency (PNG); photos and backgrounds become JPEG as the spec says.
  const type =
    KEEPS_TRANSPARENCY.has(purpose) && file.type !== 'image/jpeg' ? 'image/png' : 'image/jpeg'
  if (type === 'image/jpeg') {
    context.fillStyle = '#ffffff'
    context.fillRect(0, 0, canvas.width, canvas.height)
  }
  context.drawImage(image, 0, 0, canvas.width, canvas.height)
  const blob = await new Promise<Blob | null>((resolve) =>
    canvas.toBlob(resolve, type, max.quality),
  )
  if (!blob) throw new ImagePreparationError('Failed to process image. Please try again.')
  const base = file.name.replace(/\.[^.]*$/, '') || 'image'
  return new File([blob], `${base}.${type === 'image/png' ? 'png' : 'jpg'}`, { type })
}
