// Reading multipart forms with images, and turning an image field into a media reference.
import { and, eq, sql } from 'drizzle-orm'
import { getEnv } from '#app/env.server'
import { isUuid } from '#app/models/cards.server'
import { hasMediaWithHash, mediaHash, mediaUsage, storeMedia } from '#app/models/media.server'
import {
  type ImagePurpose,
  INVALID_IMAGE_MESSAGE,
  InvalidImageError,
  MAX_UPLOAD_BYTES,
  type ProcessedImage,
  processImage,
} from '#app/services/images.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { IMAGE_REFUSALS, isRefusal, Refusal } from '#app/utils/action-error'
import { tenantQuotaMessage, userQuotaMessage } from '#app/validation/media-limits'
import { type Transaction, withTenant } from '#drizzle/db.server'
import { media } from '#drizzle/schema'

/** Who uploads: the tenant the image belongs to and the signed-in user whose quota it counts against. */
export type Uploader = { tenant: Tenant; user: { id: string } }

export const UNREADABLE_FORM_MESSAGE =
  'The form could not be read. Please reload the page and submit it again.'

/**
 * Form data of a URL-encoded or multipart request; a part over the upload limit
 * (validation/images.ts) is a Refusal coded image_refused, and a body that is not a form at all
 * (malformed multipart, JSON, ...) a thrown 400 that says so.
 *
 * Multipart bodies are read by Node's own parser (undici's, behind Request.formData), whole: the
 * server refuses a body over MAX_BODY_BYTES before any action reads it (server.ts). Remix's
 * streaming parser (@web3-storage/multipart-parser) searched for the boundary one byte at a time
 * in JavaScript: a form with a photo at the upload limit took about 150 ms of CPU to read, against
 * 15 ms (ADR 124).
 */
export async function readForm(request: Request): Promise<FormData> {
  const multipart = (request.headers.get('Content-Type') ?? '').startsWith('multipart/form-data')
  let form: FormData
  try {
    form = await request.formData()
  } catch {
    throw new Response(UNREADABLE_FORM_MESSAGE, { status: 400 })
  }
  if (multipart) {
    for (const [field, value] of form) {
      const bytes = typeof value === 'string' ? Buffer.byteLength(value) : value.size
      if (bytes > MAX_UPLOAD_BYTES)
        throw new Refusal('image_refused', INVALID_IMAGE_MESSAGE, { field })
    }
  }
  return form
}

/** readForm for forms without image fields: a part over the upload limit is a thrown 413 that says so. */
export async function readPlainForm(request: Request): Promise<FormData> {
  try {
    return await readForm(request)
  } catch (error) {
    if (!isRefusal(error, ...IMAGE_REFUSALS)) throw error
    throw new Response(`The form field "${error.field}" is too large.`, { status: 413 })
  }
}

/**
 * Stores an image; in `tx` when given, so a refusal later in the same form rolls it back. An
 * image that would take its uploader or the tenant past their quota (ADR 029) is refused with
 * a Refusal coded over_quota that says so; bytes the tenant stores already add nothing and always pass.
 */
export async function saveImage(
  uploader: Uploader,
  file: Blob,
  purpose: ImagePurpose,
  field: string,
  tx?: Transaction,
) {
  const { tenant, user } = uploader
  let image: ProcessedImage
  try {
    image = await processImage(new Uint8Array(await file.arrayBuffer()), purpose)
  } catch (error) {
    if (error instanceof InvalidImageError)
      throw new Refusal('image_refused', INVALID_IMAGE_MESSAGE, { field })
    throw error
  }
  const store = async (db: Transaction) => {
    await refuseOverQuota(db, uploader, image, field)
    return storeMedia(db, tenant.id, { ...image, purpose, uploadedBy: user.id })
  }
  return tx ? store(tx) : withTenant(tenant.id, store)
}

async function refuseOverQuota(
  db: Transaction,
  { tenant, user }: Uploader,
  image: ProcessedImage,
  field: string,
) {
  // Two uploads of one tenant at once must not both pass on the same total (on PGlite there is
  // one session and this is free).
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`media-quota:${tenant.id}`}))`)
  if (await hasMediaWithHash(db, tenant.id, mediaHash(image.bytes))) return
  const env = getEnv()
  const userQuota = env.MEDIA_QUOTA_USER_MB * 1024 * 1024
  const tenantQuota = env.MEDIA_QUOTA_TENANT_MB * 1024 * 1024
  const { userBytes, tenantBytes } = await mediaUsage(db, tenant.id, user.id)
  const size = image.bytes.length
  if (userBytes + size > userQuota) {
    throw new Refusal('over_quota', userQuotaMessage(userBytes, userQuota), { field })
  }
  if (tenantBytes + size > tenantQuota) {
    throw new Refusal('over_quota', tenantQuotaMessage(tenantBytes, tenantQuota), { field })
  }
}

/**
 * An image field of a form: a new file (`{name}File`, sent without JavaScript), else the id
 * of an already uploaded image (`{name}MediaId`, 'none' to remove). Returns the media id to
 * store, null to clear it, or undefined for "unchanged". A form with several image fields
 * passes its transaction: a refused field then leaves none of the others' images behind.
 */
export async function resolveImageField(
  uploader: Uploader,
  formData: FormData,
  name: string,
  purpose: ImagePurpose,
  tx?: Transaction,
): Promise<string | null | undefined> {
  const { tenant } = uploader
  const file = formData.get(`${name}File`)
  if (file instanceof Blob && file.size > 0)
    return (await saveImage(uploader, file, purpose, name, tx)).id
  const reference = formData.get(`${name}MediaId`)
  if (typeof reference !== 'string' || reference === '') return undefined
  if (reference === 'none') return null
  // Strictly a uuid: anything else would make the query itself fail (a 500, not a refusal).
  if (!isUuid(reference)) throw new Refusal('image_refused', INVALID_IMAGE_MESSAGE, { field: name })
  // Only media of this organization may be referenced.
  const find = (db: Transaction) =>
    db
      .select({ id: media.id })
      .from(media)
      .where(and(eq(media.organizationId, tenant.id), eq(media.id, reference)))
  const [row] = await (tx ? find(tx) : withTenant(tenant.id, find))
  if (!row) throw new Refusal('image_refused', INVALID_IMAGE_MESSAGE, { field: name })
  return row.id
}
