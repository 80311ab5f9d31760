import { createHash } from 'node:crypto'
import { and, eq, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { digitalCards, media, organizations, users } from '#drizzle/schema'

export type MediaInput = {
  bytes: Buffer
  contentType: 'image/jpeg' | 'image/png' | 'image/webp'
  width: number
  height: number
  purpose: string
  /** The uploader, whose quota it counts against; null for the demo's and the platform's own. */
  uploadedBy?: string | null
}

const EXTENSIONS = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' } as const

export const mediaHash = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

/**
 * Every column that references an image, from drizzle/schema.ts (each media foreign key; a test
 * compares this list with the schema's). An image is in use while any of them names it.
 */
export const MEDIA_REFERENCES = [
  {
    table: organizations,
    organizationId: organizations.id,
    columns: [organizations.logoMediaId, organizations.faviconMediaId],
  },
  {
    table: users,
    organizationId: users.organizationId,
    columns: [users.logoMediaId, users.profilePictureMediaId],
  },
  {
    table: digitalCards,
    organizationId: digitalCards.organizationId,
    columns: [
      digitalCards.logoMediaId,
      digitalCards.profilePictureMediaId,
      digitalCards.backgroundMediaId,
      digitalCards.coverMediaId,
    ],
  },
] as const

/** True for the `media` row of the outer query while anything references it. */
const isReferenced: SQL = sql.join(
  MEDIA_REFERENCES.map(
    (reference) =>
      sql`exists (select 1 from ${reference.table} where ${reference.organizationId} = ${media.organizationId} and (${sql.join(
        reference.columns.map((column) => sql`${column} = ${media.id}`),
        sql` or `,
      )}))`,
  ),
  sql` or `,
)

/** True for the `media` row of the outer query while nothing references it. */
export const isUnreferencedMedia: SQL = sql`not (${isReferenced})`

/**
 * Stores an already processed image once per organization, keyed by its content hash. Storing
 * bytes that are stored already makes that row pending again: its uploader's form shows it
 * until the form is saved (ADR 029).
 */
export async function storeMedia(db: Queryable, organizationId: string, input: MediaInput) {
  const [stored] = await db
    .insert(media)
    .values({
      organizationId,
      hash: mediaHash(input.bytes),
      ext: EXTENSIONS[input.contentType],
      contentType: input.contentType,
      purpose: input.purpose,
      width: input.width,
      height: input.height,
      byteSize: input.bytes.length,
      data: input.bytes,
      uploadedBy: input.uploadedBy ?? null,
      pendingSince: sql`now()`,
    })
    .onConflictDoUpdate({
      target: [media.organizationId, media.hash],
      set: { pendingSince: sql`now()` },
    })
    .returning({ id: media.id, hash: media.hash, ext: media.ext })
  if (!stored) throw new Error('media row vanished during insert')
  return stored
}

/** Whether these bytes are stored for the organization already (a new upload of them adds none). */
export async function hasMediaWithHash(db: Queryable, organizationId: string, hash: string) {
  const [row] = await db
    .select({ id: media.id })
    .from(media)
    .where(and(eq(media.organizationId, organizationId), eq(media.hash, hash)))
    .limit(1)
  return Boolean(row)
}

/** Bytes of stored images: the organization's, and those `userId` uploaded. */
export async function mediaUsage(db: Queryable, organizationId: string, userId: string) {
  const [usage] = await db
    .select({
      tenantBytes: sql<string>`coalesce(sum(${media.byteSize}), 0)::text`,
      userBytes: sql<string>`coalesce(sum(${media.byteSize}) filter (where ${media.uploadedBy} = ${userId}), 0)::text`,
    })
    .from(media)
    .where(eq(media.organizationId, organizationId))
  return { tenantBytes: Number(usage?.tenantBytes ?? 0), userBytes: Number(usage?.userBytes ?? 0) }
}

/**
 * The sweep of one organization's images (ADR 029): marks when each stopped being referenced,
 * unmarks those referenced again, and deletes those unreferenced since before `cutoff` (and not
 * uploaded since). Returns how many it deleted.
 */
export async function sweepUnreferencedMedia(db: Queryable, organizationId: string, cutoff: Date) {
  const ours = eq(media.organizationId, organizationId)
  await db
    .update(media)
    .set({ unreferencedSince: null })
    .where(and(ours, isNotNull(media.unreferencedSince), isReferenced))
  await db
    .update(media)
    .set({ unreferencedSince: sql`now()` })
    .where(and(ours, isNull(media.unreferencedSince), sql`not (${isReferenced})`))
  const deleted = await db
    .delete(media)
    .where(
      and(
        ours,
        lt(media.unreferencedSince, cutoff),
        or(isNull(media.pendingSince), lt(media.pendingSince, cutoff)),
        sql`not (${isReferenced})`,
      ),
    )
    .returning({ id: media.id })
  return deleted.length
}

/** An image by its hash, with whether anything references it and since when it is pending. */
export async function getMediaByHash(db: Queryable, organizationId: string, hash: string) {
  const [row] = await db
    .select({
      data: media.data,
      contentType: media.contentType,
      ext: media.ext,
      referenced: sql<boolean>`(${isReferenced})`,
      pendingSince: media.pendingSince,
    })
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
    .select({ data: media.data, hash: media.hash, ext: media.ext })
    .from(media)
    .where(and(eq(media.organizationId, organizationId), eq(media.id, mediaId)))
    .limit(1)
  return row ?? null
}
