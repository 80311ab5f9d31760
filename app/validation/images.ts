// The image upload rule, one home for the browser and the server (spec accounts-cards-sharing.md
// §5 and §9: jpeg, png, webp or gif, at most 5 MB, and the message; images scaled down to each
// purpose's maxima). The image field checks a file here and scales it before uploading it
// (utils/prepare-image.ts); the server (services/images.server.ts, media/uploads.server.ts)
// refuses the same with the same message and scales again, whatever the browser did.

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const
/** The file input's accept attribute. */
export const IMAGE_ACCEPT = IMAGE_TYPES.join(',')

export const MAX_IMAGE_MEGABYTES = 5
export const MAX_UPLOAD_BYTES = MAX_IMAGE_MEGABYTES * 1024 * 1024

// The spec's text names three of the four types it accepts; it is quoted as it stands.
export const INVALID_IMAGE_MESSAGE = `Invalid file. Please upload a JPG, PNG, or WebP image under ${MAX_IMAGE_MEGABYTES}MB.`
/** The hint under an image field. */
export const IMAGE_HINT = `JPG, PNG, WebP or GIF, up to ${MAX_IMAGE_MEGABYTES}MB.`

/**
 * What is wrong with a chosen file, in words about this file (its name, its size against the
 * limit), or null when the browser may send it. Its claimed type only: the server sniffs the
 * bytes and stays the authority. The image field shows this beside the spec's message.
 */
export function imageFileProblem(file: { name?: string; size: number; type: string }) {
  const name = file.name ? `"${file.name}"` : 'This file'
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) {
    return `${name} is not a JPG, PNG, WebP or GIF image.`
  }
  if (file.size === 0) return `${name} is empty.`
  if (file.size > MAX_UPLOAD_BYTES) {
    // One decimal, rounded up, so a file just over the limit never reads as exactly the limit.
    const megabytes = Math.ceil((file.size / 1024 / 1024) * 10) / 10
    return `${name} is ${megabytes} MB; the limit is ${MAX_IMAGE_MEGABYTES} MB.`
  }
  return null
}

/** Whether the browser may send this file; its claimed type only, the server sniffs the bytes. */
export function isAcceptedImageFile(file: { size: number; type: string }) {
  return imageFileProblem(file) === null
}

export type PurposeSpec = {
  width: number
  height: number
  /** JPEG quality, 1 to 100. */
  quality: number
  /** PNG keeps a brand mark's transparency; photos become JPEG (spec §9). */
  format: 'jpeg' | 'png'
  /** Exactly this size, letterboxed (a favicon), rather than at most this size. */
  exact?: boolean
}

/** The most each kind of image is stored at (spec §9), in pixels. */
export const IMAGE_PURPOSES = {
  profilePicture: { width: 500, height: 500, quality: 90, format: 'jpeg' },
  logo: { width: 400, height: 200, quality: 90, format: 'jpeg' },
  background: { width: 1200, height: 800, quality: 85, format: 'jpeg' },
  // A card's cover (issue 41 point 6, ADR 083): shown 3:1 across the card's top, cropped to fit.
  cover: { width: 1200, height: 600, quality: 85, format: 'jpeg' },
  // Agency branding (spec: logo recommended 200x80, favicon 32x32); twice the logo for sharp
  // screens.
  brandLogo: { width: 400, height: 160, quality: 90, format: 'png' },
  favicon: { width: 32, height: 32, quality: 90, format: 'png', exact: true },
} as const satisfies Record<string, PurposeSpec>
export type ImagePurpose = keyof typeof IMAGE_PURPOSES
