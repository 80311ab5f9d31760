// Free space on the disk that holds the embedded database (issue 26 point 13, ADR 033). PGlite
// that meets a full disk fails one write and then spins in its WAL flush, holding the event
// loop: so writes stop before the disk is full. Below DISK_MIN_FREE_MB the health check says
// 503 with the reason, every request that may write (any method but GET, HEAD and OPTIONS) is
// answered 503, and the background writers (card views, the job queue) wait. Reads go on.
// On Postgres the database's disk is the database server's to watch: nothing is gated here.
import { statfs } from 'node:fs/promises'
import path from 'node:path'
import { getEnv } from '#app/env.server'
import { resolveTenant } from '#app/tenancy/tenant.server'
import { getDatabaseHandle } from '#drizzle/db.server'
import { SAVING_PAUSED_MESSAGE } from '#drizzle/unavailable.server'

export type DiskSpace = {
  directory: string
  freeBytes: number
  minFreeBytes: number
  short: boolean
}

const MB = 1024 * 1024
// A statfs costs microseconds, but the gate runs on every write and every card-view flush.
const FRESH_FOR_MS = 1_000

let last: { at: number; space: DiskSpace } | undefined
let reading: Promise<DiskSpace | null> | undefined

/** The embedded database's disk, or null when nothing is watched (Postgres, DISK_MIN_FREE_MB=0). */
export async function diskSpace(): Promise<DiskSpace | null> {
  const env = getEnv()
  if (env.DISK_MIN_FREE_MB === 0 || getDatabaseHandle().driver !== 'pglite') return null
  const directory = path.resolve(env.DATA_DIR)
  if (last?.space.directory === directory && Date.now() - last.at < FRESH_FOR_MS) return last.space
  reading ??= measure(directory, env.DISK_MIN_FREE_MB * MB).finally(() => {
    reading = undefined
  })
  return reading
}

async function measure(directory: string, minFreeBytes: number): Promise<DiskSpace | null> {
  try {
    const stats = await statfs(directory)
    // bavail, not bfree: the blocks reserved for root are not ours to count on.
    const freeBytes = stats.bavail * stats.bsize
    const space = { directory, freeBytes, minFreeBytes, short: freeBytes < minFreeBytes }
    last = { at: Date.now(), space }
    return space
  } catch {
    // Not created yet, or not readable: not knowing is no reason to refuse writes.
    return null
  }
}

/** The one gate of every writer: true while the database's disk is short of space. */
export async function writesPausedForDiskSpace(): Promise<boolean> {
  return (await diskSpace())?.short === true
}

/** Tests change the disk under the gate and must not wait for the cached reading to age. */
export function forgetDiskSpaceReading() {
  last = undefined
}

export function describeDiskShortage(space: DiskSpace) {
  return `Disk space low: ${Math.floor(space.freeBytes / MB)} MB free where the database lives, below DISK_MIN_FREE_MB (${Math.floor(space.minFreeBytes / MB)} MB)`
}

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * The answer to a request that may write while the disk is short (server.ts asks before any
 * route runs), or null when it may go on: a plain page named after the tenant for browsers,
 * JSON for everything else. Nothing was changed, and the answer says so.
 */
export async function diskSpaceResponse(
  method: string,
  host: string | null,
  accept: string,
  nonce = '',
): Promise<Response | null> {
  if (SAFE_METHODS.has(method.toUpperCase())) return null
  if (!(await writesPausedForDiskSpace())) return null
  const headers = { 'Cache-Control': 'no-store', 'Retry-After': '60' }
  if (!accept.includes('text/html')) {
    return new Response(JSON.stringify({ error: SAVING_PAUSED_MESSAGE }), {
      status: 503,
      headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' },
    })
  }
  const resolution = await resolveTenant(host).catch(() => null)
  const name = resolution?.status === 'found' ? resolution.tenant.name : 'This site'
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Saving is paused</title><style nonce="${escapeHtml(nonce)}">body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:100vh;margin:0;padding:1rem;color:#111827;background:#fff;text-align:center}@media (prefers-color-scheme:dark){body{color:#f3f4f6;background:#030712}}</style></head><body><main><h1>Saving is paused</h1><p>${escapeHtml(name)} cannot save changes right now: the server is short of disk space. Nothing was changed. Please try again in a little while.</p></main></body></html>`
  return new Response(html, {
    status: 503,
    headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8' },
  })
}
