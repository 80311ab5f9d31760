// Reading multipart forms with images, and turning an image field into a media reference.
import {
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from '@remix-run/node'
import { and, eq } from 'drizzle-orm'
import { isUuid } from '#app/models/cards.server'
import { storeMedia } from '#app/models/media.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { type Transaction, withTenant } from '#drizzle/db.server'
import { media } from '#drizzle/schema'
import {
  type ImagePurpose,
  INVALID_IMAGE_MESSAGE,
  InvalidImageError,
  MAX_UPLOAD_BYTES,
  processImage,
} from './images.server'

export class UploadError extends Error {
  constructor(
    public field: string,
    message = INVALID_IMAGE_MESSAGE,
  ) {
    super(message)
  }
}

export const UNREADABLE_FORM_MESSAGE =
  'The form could not be read. Please reload the page and submit it again.'

/**
 * Form data of a URL-encoded or multipart request; a file over 5 MB is an UploadError, and a
 * body that is not a form at all (malformed multipart, JSON, ...) a thrown 400 that says so.
 */
export async function readForm(request: Request): Promise<FormData> {
  const type = request.headers.get('Content-Type') ?? ''
  try {
    if (!type.startsWith('multipart/form-data')) return await request.formData()
    return await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({ maxPartSize: MAX_UPLOAD_BYTES }),
    )
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) throw new UploadError(error.field)
    throw new Response(UNREADABLE_FORM_MESSAGE, { status: 400 })
  }
}

/** readForm for forms without image fields: a part over 5 MB is a thrown 413 that says so. */
export async function readPlainForm(request: Request): Promise<FormData> {
  try {
    return await readForm(request)
  } catch (error) {
    if (!(error instanceof UploadError)) throw error
    throw new Response(`The form field "${error.field}" is too large.`, { status: 413 })
  }
}

/** Stores an image; in `tx` when given, so a refusal later in the same form rolls it back. */
export async function saveImage(
  tenant: Tenant,
  file: Blob,
  purpose: ImagePurpose,
  field: string,
  tx?: Transaction,
) {
  try {
    const image = await processImage(new Uint8Array(await file.arrayBuffer()), purpose)
    const store = (db: Transaction) => storeMedia(db, tenant.id, { ...image, purpose })
    return await (tx ? store(tx) : withTenant(tenant.id, store))
  } catch (error) {
    if (error instanceof InvalidImageError) throw new UploadError(field)
    throw error
  }
}

/**
 * An image field of a form: a new file (`{name}File`, sent without JavaScript), else the id
 * of an already uploaded image (`{name}MediaId`, 'none' to remove). Returns the media id to
 * store, null to clear it, or undefined for "unchanged". A form with several image fields
 * passes its transaction: a refused field then leaves none of the others' images behind.
 */
export async function resolveImageField(
  tenant: Tenant,
  formData: FormData,
  name: string,
  purpose: ImagePurpose,
  tx?: Transaction,
): Promise<string | null | undefined> {
  const file = formData.get(`${name}File`)
  if (file instanceof Blob && file.size > 0)
    return (await saveImage(tenant, file, purpose, name, tx)).id
  const reference = formData.get(`${name}MediaId`)
  if (typeof reference !== 'string' || reference === '') return undefined
  if (reference === 'none') return null
  // Strictly a uuid: anything else would make the query itself fail (a 500, not a refusal).
  if (!isUuid(reference)) throw new UploadError(name)
  // Only media of this organization may be referenced.
  const find = (db: Transaction) =>
    db
      .select({ id: media.id })
      .from(media)
      .where(and(eq(media.organizationId, tenant.id), eq(media.id, reference)))
  const [row] = await (tx ? find(tx) : withTenant(tenant.id, find))
  if (!row) throw new UploadError(name)
  return row.id
}
