// Reading multipart forms with images, and turning an image field into a media reference.
import {
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from '@remix-run/node'
import { and, eq } from 'drizzle-orm'
import { storeMedia } from '#app/models/media.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { withTenant } from '#drizzle/db.server'
import { media } from '#drizzle/schema'
import {
  type ImagePurpose,
  INVALID_IMAGE_MESSAGE,
  InvalidImageError,
  MAX_UPLOAD_BYTES,
  processImage,
} from './images.server'

export class UploadError extends Error {
  constructor(public field: string) {
    super(INVALID_IMAGE_MESSAGE)
  }
}

/** Form data of a URL-encoded or multipart request; a file over 5 MB is an UploadError. */
export async function readForm(request: Request): Promise<FormData> {
  const type = request.headers.get('Content-Type') ?? ''
  if (!type.startsWith('multipart/form-data')) return request.formData()
  try {
    return await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({ maxPartSize: MAX_UPLOAD_BYTES }),
    )
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) throw new UploadError(error.field)
    throw error
  }
}

export async function saveImage(tenant: Tenant, file: Blob, purpose: ImagePurpose, field: string) {
  try {
    const image = await processImage(new Uint8Array(await file.arrayBuffer()), purpose)
    return await withTenant(tenant.id, (tx) => storeMedia(tx, tenant.id, { ...image, purpose }))
  } catch (error) {
    if (error instanceof InvalidImageError) throw new UploadError(field)
    throw error
  }
}

/**
 * An image field of a form: a new file (`{name}File`, sent without JavaScript), else the id
 * of an already uploaded image (`{name}MediaId`, 'none' to remove). Returns the media id to
 * store, null to clear it, or undefined for "unchanged".
 */
export async function resolveImageField(
  tenant: Tenant,
  formData: FormData,
  name: string,
  purpose: ImagePurpose,
): Promise<string | null | undefined> {
  const file = formData.get(`${name}File`)
  if (file instanceof Blob && file.size > 0)
    return (await saveImage(tenant, file, purpose, name)).id
  const reference = formData.get(`${name}MediaId`)
  if (typeof reference !== 'string' || reference === '') return undefined
  if (reference === 'none') return null
  if (!/^[0-9a-f-]{36}$/i.test(reference)) throw new UploadError(name)
  // Only media of this organization may be referenced.
  const [row] = await withTenant(tenant.id, (tx) =>
    tx
      .select({ id: media.id })
      .from(media)
      .where(and(eq(media.organizationId, tenant.id), eq(media.id, reference))),
  )
  if (!row) throw new UploadError(name)
  return row.id
}
