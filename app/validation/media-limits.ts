// How much stored image data one person and one agency may hold, and how long an image nothing
// references lingers (ADR 029). Every number of the media lifecycle lives here; the quotas can
// be changed with MEDIA_QUOTA_USER_MB and MEDIA_QUOTA_TENANT_MB (app/env.server.ts).

/** Default per-user quota: a profile's images and a few cards' (each processed image < 1 MB). */
export const DEFAULT_MEDIA_QUOTA_USER_MB = 25
/** Default per-tenant quota: an agency and its people together. */
export const DEFAULT_MEDIA_QUOTA_TENANT_MB = 1024

/**
 * An upload that no saved form references yet is served (for its form's preview) this long;
 * an image nothing references any more is deleted once it has been unreferenced this long.
 */
export const MEDIA_GRACE_MS = 60 * 60_000

const megabytes = (bytes: number) => {
  const mb = bytes / (1024 * 1024)
  if (mb < 1) return `${Math.round(bytes / 1024)} kB`
  return mb >= 10 ? `${Math.round(mb)} MB` : `${Math.round(mb * 10) / 10} MB`
}

export function userQuotaMessage(usedBytes: number, quotaBytes: number) {
  return `Upload refused: your images already use ${megabytes(usedBytes)} of your ${megabytes(quotaBytes)}. Remove images you no longer use and try again in an hour.`
}

export function tenantQuotaMessage(usedBytes: number, quotaBytes: number) {
  return `Upload refused: this agency's images already use ${megabytes(usedBytes)} of its ${megabytes(quotaBytes)}. Ask your agency administrator to remove unused images.`
}
