// A person's data exports (issue 31 point 4, ADR 052): the row the profile's progress reads,
// and the zip once built. Every function takes the organization; those a person reaches take
// the person too, so nobody reads another's export by its id.
import { and, desc, eq, getTableColumns, gt, inArray, lte, type SQL, sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { dataExports } from '#drizzle/schema'

// Everything but the bytes: what the profile and the job read.
const { zip: _zip, ...summaryColumns } = getTableColumns(dataExports)

export type DataExportSummary = Omit<typeof dataExports.$inferSelect, 'zip'>

/** The person's exports in the organization, narrowed by `more` (one of them, a state). */
const exportsOf = (organizationId: string, userId: string, ...more: SQL[]) =>
  and(eq(dataExports.organizationId, organizationId), eq(dataExports.userId, userId), ...more)

/** The person's export by id once it is ready, narrowed by `more` (not expired). */
const readyExportOf = (organizationId: string, userId: string, exportId: string, ...more: SQL[]) =>
  exportsOf(
    organizationId,
    userId,
    eq(dataExports.id, exportId),
    eq(dataExports.state, 'ready'),
    ...more,
  )

/** One export of the organization, narrowed by `more` (the states it may be in). */
const exportById = (organizationId: string, exportId: string, ...more: SQL[]) =>
  and(eq(dataExports.organizationId, organizationId), eq(dataExports.id, exportId), ...more)

/**
 * A new queued export for the person, or undefined when one of theirs is queued or running
 * already (the partial unique index decides, so two presses at once make one).
 */
export async function insertDataExport(db: Queryable, organizationId: string, userId: string) {
  const [row] = await db
    .insert(dataExports)
    .values({ organizationId, userId })
    .onConflictDoNothing()
    .returning(summaryColumns)
  return row
}

/** The person's exports that are finished (ready or failed): replaced by a new request. */
export async function deleteFinishedDataExports(
  db: Queryable,
  organizationId: string,
  userId: string,
) {
  const rows = await db
    .delete(dataExports)
    .where(exportsOf(organizationId, userId, inArray(dataExports.state, ['ready', 'failed'])))
    .returning({ id: dataExports.id })
  return rows.length
}

/** The person's newest export, without its bytes. */
export async function findLatestDataExport(db: Queryable, organizationId: string, userId: string) {
  const [row] = await db
    .select(summaryColumns)
    .from(dataExports)
    .where(exportsOf(organizationId, userId))
    .orderBy(desc(dataExports.createdAt), desc(dataExports.id))
    .limit(1)
  return row
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** An export by id, for the job that builds it (the job names its organization). */
export async function findDataExport(db: Queryable, organizationId: string, exportId: string) {
  if (!UUID.test(exportId)) return undefined
  const [row] = await db
    .select(summaryColumns)
    .from(dataExports)
    .where(exportById(organizationId, exportId))
    .limit(1)
  return row
}

/** The person's own export, ready and not expired: what the download may send. */
export async function findDownloadableDataExport(
  db: Queryable,
  organizationId: string,
  userId: string,
  exportId: string,
  now: Date,
) {
  if (!UUID.test(exportId)) return undefined
  const [row] = await db
    .select(summaryColumns)
    .from(dataExports)
    .where(readyExportOf(organizationId, userId, exportId, gt(dataExports.expiresAt, now)))
    .limit(1)
  return row
}

/**
 * One piece of a ready export's zip (the download streams it piece by piece, each read in its
 * own short transaction: a slow client never holds the embedded database's one connection).
 */
export async function readDataExportChunk(
  db: Queryable,
  organizationId: string,
  userId: string,
  exportId: string,
  offset: number,
  length: number,
) {
  const [row] = await db
    .select({ chunk: sql<Buffer>`substring(${dataExports.zip} from ${offset + 1} for ${length})` })
    .from(dataExports)
    .where(readyExportOf(organizationId, userId, exportId))
    .limit(1)
  if (!row) return undefined
  const chunk = row.chunk as unknown
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array)
}

/** The job took it: running from 0 %. False when it is not queued or running (gone, finished). */
export async function startDataExport(db: Queryable, organizationId: string, exportId: string) {
  const rows = await db
    .update(dataExports)
    .set({ state: 'running', progress: 0, error: null })
    .where(exportById(organizationId, exportId, inArray(dataExports.state, ['queued', 'running'])))
    .returning({ id: dataExports.id })
  return rows.length > 0
}

export async function setDataExportProgress(
  db: Queryable,
  organizationId: string,
  exportId: string,
  progress: number,
) {
  await db
    .update(dataExports)
    .set({ progress: Math.max(0, Math.min(99, Math.round(progress))) })
    .where(exportById(organizationId, exportId, eq(dataExports.state, 'running')))
}

/** The zip is built: ready until `expiresAt`. False when the export is no longer running. */
export async function finishDataExport(
  db: Queryable,
  organizationId: string,
  exportId: string,
  zip: Uint8Array,
  expiresAt: Date,
) {
  const rows = await db
    .update(dataExports)
    .set({
      state: 'ready',
      progress: 100,
      zip: Buffer.from(zip),
      byteSize: zip.byteLength,
      finishedAt: new Date(),
      expiresAt,
    })
    .where(exportById(organizationId, exportId, eq(dataExports.state, 'running')))
    .returning({ id: dataExports.id })
  return rows.length > 0
}

/** The job gave up: the person sees `error` and may try again. */
export async function failDataExport(
  db: Queryable,
  organizationId: string,
  exportId: string,
  error: string,
  expiresAt: Date,
) {
  await db
    .update(dataExports)
    .set({ state: 'failed', error, finishedAt: new Date(), expiresAt, zip: null })
    .where(exportById(organizationId, exportId, inArray(dataExports.state, ['queued', 'running'])))
}

/** Ready exports whose time is up, and failed ones as old: deleted by the hourly sweep. */
export async function deleteExpiredDataExports(db: Queryable, organizationId: string, now: Date) {
  const rows = await db
    .delete(dataExports)
    .where(and(eq(dataExports.organizationId, organizationId), lte(dataExports.expiresAt, now)))
    .returning({ id: dataExports.id })
  return rows.length
}
