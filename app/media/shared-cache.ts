// How long shared caches (a CDN, a proxy, a mail client's image proxy) may keep an uploaded
// image or a drawn one (link previews, app icons) before asking again (issue 39 point 3). Their
// addresses name their content, so the bytes behind one never change, but a removed photo or
// logo must stop being served: a year's `immutable` kept it in every cache that had fetched it.
// Minutes, then a revalidation, which the media route answers 304 while the image is still in use
// and 404 once it is not.
export const SHARED_IMAGE_MAX_AGE_SECONDS = 300

export const SHARED_IMAGE_CACHE_CONTROL = `public, max-age=${SHARED_IMAGE_MAX_AGE_SECONDS}, must-revalidate`

/** Whether an If-None-Match header names the ETag (weak or strong, or `*`). */
export function matchesEntityTag(header: string | null, etag: string) {
  if (!header) return false
  const bare = etag.replace(/^W\//, '')
  return header
    .split(',')
    .some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === bare)
}
