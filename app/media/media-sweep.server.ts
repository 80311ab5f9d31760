// The media sweep (ADR 029): images nothing references any more are deleted once they have been
// unreferenced for MEDIA_GRACE_MS. A queued job (app/jobs) runs it every hour, one tenant at a
// time, each in its own transaction under row-level security. The same visit deletes the
// personal data exports whose days are over (ADR 052).
import { deleteExpiredDataExports } from '#app/models/data-exports.server'
import { sweepUnreferencedMedia } from '#app/models/media.server'
import { listOrganizationIds } from '#app/models/organizations.server'
import { MEDIA_GRACE_MS } from '#app/validation/media-limits'
import { withDatabase, withTenant } from '#drizzle/db.server'

/** Sweeps every tenant's images; returns how many were deleted. */
export async function sweepMedia(now = new Date()) {
  const cutoff = new Date(now.getTime() - MEDIA_GRACE_MS)
  const organizations = await withDatabase((tx) => listOrganizationIds(tx))
  let deleted = 0
  for (const { id } of organizations) {
    deleted += await withTenant(id, async (tx) => {
      // Personal data exports past their 7 days go with the same visit (ADR 052).
      await deleteExpiredDataExports(tx, id, now)
      return sweepUnreferencedMedia(tx, id, cutoff)
    })
  }
  return deleted
}
