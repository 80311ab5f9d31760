// Saves, link taps and exchanges, counted in memory and written in batches off the request path
// (ADR 082), as the page cache's views are (view-batcher.server.ts): an event costs a map
// update, and a flush adds each organization's counts to card_event_hours with one upsert in
// its own tenant transaction. A failed flush keeps its counts for the next one; shutdown
// flushes what is left. Counts, not rows: a burst of taps on one link is one row per hour.

import { LRUCache } from 'lru-cache'
import {
  type CardEventCount,
  type CardEventKind,
  recordCardEvents,
} from '#app/models/card-events.server'
import { REPEAT_WINDOW_MINUTES } from '#app/models/card-views.server'
import { writesPausedForDiskSpace } from '#app/storage/disk-space.server'
import type { ViewSource } from '#app/utils/view-sources'
import { withTenant } from '#drizzle/db.server'
import { databaseErrorSummary } from '#drizzle/redact.server'

const HOUR_MS = 3_600_000
const flushMs = () => Number(process.env.VIEW_FLUSH_MS ?? 1_000)
const MAX_BACKOFF_MS = 60_000
// Distinct (card, hour, source, kind, link) keys waiting: past this many (a database down for
// long) new keys are dropped and counted in the next log line; existing keys still add up.
const MAX_KEYS = 100_000

type Pending = CardEventCount & { organizationId: string }

let pending = new Map<string, Pending>()
let timer: NodeJS.Timeout | null = null
let flushing: Promise<void> | null = null
let failures = 0
let dropped = 0
let log: (message: string) => void = (message) => console.warn(message)

// A visitor saving the same card twice, or tapping the same link again, within the views'
// repeat window counts once, as a repeat view does: the key is the visitor's keyed hash.
const recentRepeats = new LRUCache<string, true>({
  max: 100_000,
  ttl: REPEAT_WINDOW_MINUTES * 60_000,
})

export function setEventBatchLog(logger: (message: string) => void) {
  log = logger
}

export type CardEvent = {
  organizationId: string
  cardId: string
  kind: CardEventKind
  source: ViewSource
  linkId?: string
  /** The visitor's keyed hash: a repeat within the window is not counted again. */
  visitorHash?: string
}

export function queueCardEvent(event: CardEvent, at = new Date()) {
  const linkId = event.kind === 'link' ? (event.linkId ?? '') : ''
  if (event.visitorHash) {
    const repeat = `${event.visitorHash}|${event.kind}|${linkId}`
    if (recentRepeats.has(repeat)) return
    recentRepeats.set(repeat, true)
  }
  const hour = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS)
  const key = [
    event.organizationId,
    event.cardId,
    hour.toISOString(),
    event.source,
    event.kind,
    linkId,
  ].join('|')
  const found = pending.get(key)
  if (found) found.count++
  else if (pending.size >= MAX_KEYS) dropped++
  else
    pending.set(key, {
      organizationId: event.organizationId,
      cardId: event.cardId,
      hour,
      source: event.source,
      kind: event.kind,
      linkId,
      count: 1,
    })
  scheduleFlush(flushMs())
}

function scheduleFlush(delayMs: number) {
  timer ??= setTimeout(() => {
    timer = null
    void flushCardEvents().catch(() => {})
  }, delayMs)
  timer.unref()
}

export function pendingCardEvents() {
  return [...pending.values()].reduce((sum, event) => sum + event.count, 0)
}

/** Tests leave nothing queued for the next test or file (tests/setup/process-state.ts). */
export function discardCardEventsForTests() {
  pending = new Map()
  dropped = 0
  failures = 0
  if (timer) clearTimeout(timer)
  timer = null
  recentRepeats.clear()
}

/** Writes every queued count; concurrent callers share one flush. */
export function flushCardEvents(): Promise<void> {
  flushing ??= drain()
    .then(
      () => {
        failures = 0
      },
      (error: unknown) => {
        failures++
        const delay = Math.min(flushMs() * 2 ** (failures - 1), MAX_BACKOFF_MS)
        const droppedNote = dropped > 0 ? `, ${dropped} dropped from the full queue` : ''
        dropped = 0
        log(
          `card events: ${pendingCardEvents()} not written yet${droppedNote} (${databaseErrorSummary(error)}); attempt ${failures}, next in ${Math.round(delay / 1000)} s`,
        )
        if (timer) clearTimeout(timer)
        timer = null
        scheduleFlush(delay)
        throw error
      },
    )
    .finally(() => {
      flushing = null
    })
  return flushing
}

async function drain() {
  while (pending.size > 0) {
    if (await writesPausedForDiskSpace()) {
      throw Object.assign(new Error('the disk is short of space, writes are paused'), {
        code: 'DISK_SPACE_LOW',
      })
    }
    const batch = pending
    pending = new Map()
    const byOrganization = new Map<string, Pending[]>()
    for (const event of batch.values()) {
      const list = byOrganization.get(event.organizationId) ?? []
      list.push(event)
      byOrganization.set(event.organizationId, list)
    }
    const left = [...byOrganization.entries()]
    while (left.length > 0) {
      const [organizationId, events] = left[0] as [string, Pending[]]
      try {
        await withTenant(organizationId, (tx) => recordCardEvents(tx, organizationId, events))
        left.shift()
      } catch (error) {
        // What was not written goes back, added to anything queued since.
        for (const event of left.flatMap(([, list]) => list)) requeue(event)
        throw error
      }
    }
  }
}

function requeue(event: Pending) {
  const key = [
    event.organizationId,
    event.cardId,
    event.hour.toISOString(),
    event.source,
    event.kind,
    event.linkId,
  ].join('|')
  const found = pending.get(key)
  if (found) found.count += event.count
  else pending.set(key, event)
}
