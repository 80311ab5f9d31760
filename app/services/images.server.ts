// Uploaded images: type checked by magic bytes, size and pixel count limited, decoded and
// re-encoded by sharp as JPEG at the spec's maxima, metadata stripped (spec §9).
import {
  IMAGE_PURPOSES,
  type ImagePurpose,
  MAX_UPLOAD_BYTES,
  type PurposeSpec,
} from '#app/validation/images'
import sharp from './sharp.server'

// The limit, its message and each purpose's maxima live with the browser's check
// (validation/images.ts), which scales an image down to the same maxima before sending it.
export {
  IMAGE_PURPOSES,
  type ImagePurpose,
  INVALID_IMAGE_MESSAGE,
  MAX_UPLOAD_BYTES,
} from '#app/validation/images'
// Decompression bombs: a small file that decodes to an enormous bitmap is refused.
export const MAX_INPUT_PIXELS = 40_000_000

export class InvalidImageError extends Error {
  constructor(reason: string) {
    super(reason)
  }
}

type Sniffed = 'jpeg' | 'png' | 'webp' | 'gif'

/** The image type from the file's first bytes; the name and the browser's claim are ignored. */
export function sniffImageType(bytes: Uint8Array): Sniffed | null {
  const at = (i: number) => bytes[i]
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'jpeg'
  if ([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => at(i) === b)) return 'png'
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to))
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp'
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif'
  return null
}

export type ProcessedImage = {
  bytes: Buffer
  width: number
  height: number
  contentType: 'image/jpeg' | 'image/png'
}

export async function processImage(
  input: Uint8Array,
  purpose: ImagePurpose,
): Promise<ProcessedImage> {
  if (input.byteLength === 0 || input.byteLength > MAX_UPLOAD_BYTES) {
    throw new InvalidImageError('size')
  }
  const type = sniffImageType(input)
  if (!type) throw new InvalidImageError('type')
  const spec: PurposeSpec = IMAGE_PURPOSES[purpose]
  const { width, height, quality } = spec
  try {
    const image = sharp(input, {
      limitInputPixels: MAX_INPUT_PIXELS,
      failOn: 'error',
      animated: false,
    })
    const metadata = await image.metadata()
    if (metadata.format !== type && !(type === 'jpeg' && metadata.format === 'jpeg')) {
      throw new InvalidImageError('type mismatch')
    }
    const oriented = image.rotate() // honour EXIF orientation before the metadata is dropped
    if (spec.format === 'png') {
      const { data, info } = await oriented
        .resize(
          spec.exact
            ? { width, height, fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } }
            : { width, height, fit: 'inside', withoutEnlargement: true },
        )
        .png({ compressionLevel: 9 })
        .toBuffer({ resolveWithObject: true })
      return { bytes: data, width: info.width, height: info.height, contentType: 'image/png' }
    }
    const { data, info } = await oriented
      .resize({ width, height, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality, mozjpeg: true })
      .toBuffer({ resolveWithObject: true })
    return { bytes: data, width: info.width, height: info.height, contentType: 'image/jpeg' }
  } catch (error) {
    if (error instanceof InvalidImageError) throw error
    // Truncated, corrupt or too large to decode.
    throw new InvalidImageError(error instanceof Error ? error.message : 'decode failed')
  }
}
