// The image upload rule, one home for the browser and the server (spec accounts-cards-sharing.md
// §5 and §9: jpeg, png, webp or gif, at most 5 MB, and the message). The image field checks a
// file here before uploading it; the server (services/images.server.ts, media/uploads.server.ts)
// refuses the same with the same message, whatever the browser did.

export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const
/** The file input's accept attribute. */
export const IMAGE_ACCEPT = IMAGE_TYPES.join(',')

export const MAX_IMAGE_MEGABYTES = 5
export const MAX_UPLOAD_BYTES = MAX_IMAGE_MEGABYTES * 1024 * 1024

// The spec's text names three of the four types it accepts; it is quoted as it stands.
export const INVALID_IMAGE_MESSAGE = `Invalid file. Please upload a JPG, PNG, or WebP image under ${MAX_IMAGE_MEGABYTES}MB.`
/** The hint under an image field. */
export const IMAGE_HINT = `JPG, PNG, WebP or GIF, up to ${MAX_IMAGE_MEGABYTES}MB.`

/** Whether the browser may send this file; its claimed type only, the server sniffs the bytes. */
export function isAcceptedImageFile(file: { size: number; type: string }) {
  return (
    file.size > 0 &&
    file.size <= MAX_UPLOAD_BYTES &&
    (IMAGE_TYPES as readonly string[]).includes(file.type)
  )
}
