import { createHash } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { media } from '#drizzle/schema'

export type MediaInput = {
  bytes: Buffer
  contentType: 'image/jpeg' | 'image/png' | 'image/webp'
  width: number
  height: number
  purpose: string
}

const EXTENSIONS = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' } as const

/** Stores an already processed image once per organization, keyed by its content hash. */
export async function storeMedia(db: Queryable, organizationId: string, input: MediaInput) {
  const hash = createHash('sha256').update(input.bytes).digest('hex')
  const [inserted] = await db
    .insert(media)
    .values({
      organizationId,
      hash,
      ext: EXTENSIONS[input.contentType],
      contentType: input.contentType,
      purpose: input.purpose,
      width: input.width,
      height: input.height,
      byteSize: input.bytes.length,
      data: input.bytes,
    })
    .onConflictDoNothing({ target: [media.organizationId, media.hash] })
    .returning({ id: media.id, hash: media.hash, ext: media.ext })
  if (inserted) return inserted
  const [existing] = await db
    .select({ id: media.id, hash: media.hash, ext: media.ext })
    .from(media)
    .where(and(eq(media.organizationId, organizationId), eq(media.hash, hash)))
  if (!existing) throw new Error('media row vanished during insert')
  return existing
}

export async function getMediaByHash(db: Queryable, organizationId: string, hash: string) {
  const [row] = await db
    .select({ data: media.data, contentType: media.contentType, ext: media.ext })
    .from(media)
    .where(and(eq(media.organizationId, organizationId), eq(media.hash, hash)))
    .limit(1)
  return row
}

/** The public path of a media row of this organization, or null. */
export async function getMediaPath(db: Queryable, organizationId: string, mediaId: string | null) {
  if (!mediaId) return null
  const [row] = await db
    .select({ hash: media.hash, ext: media.ext })
    .from(media)
    .where(and(eq(media.organizationId, organizationId), eq(media.id, mediaId)))
    .limit(1)
  return row ? `/media/${row.hash}.${row.ext}` : null
}

export async function getMediaBytes(db: Queryable, organizationId: string, mediaId: string | null) {
  if (!mediaId) return null
  const [row] = await db
    .select({ data: media.data, hash: media.hash })
    .from(media)
    .where(and(eq(media.organizationId, organizationId), eq(media.id, mediaId)))
    .limit(1)
  return row ?? null
}
