// What the process keeps alive, as V8 itself counts it: the heap in use right after each full
// collection (mark-compact). Sampled at any other moment the heap in use swings by a fifth with the
// garbage of requests in flight, and RSS moves in steps as V8 commits pages up to the limits its
// collections set (docs/performance.md); neither tells a plateau from a leak within ten minutes.
// A leak is objects that survive every collection, so it shows here first (issue 44 point 4).
import { GCProfiler } from 'node:v8'

/** How often the profile is read and a new one started: its record grows with every collection. */
const WINDOW_MS = 10_000

export type FullCollection = {
  /** Bytes in use in V8's heap just after the collection. */
  liveBytes: number
  /** Full collections seen since the watch began, this one included. */
  count: number
}

/**
 * Calls `onFullCollection` with the last full collection of each window that had one. Node's GC
 * profiler records each collection's heap before and after as it happens (no sampling); it is
 * stopped and started again every window, so its record holds a window's collections at most.
 * Returns a function that ends the watch.
 */
export function watchFullCollections(
  onFullCollection: (collection: FullCollection) => void,
  windowMs = WINDOW_MS,
) {
  let profiler = new GCProfiler()
  profiler.start()
  let count = 0
  const read = () => {
    const profile = profiler.stop()
    profiler = new GCProfiler()
    profiler.start()
    let last: number | undefined
    for (const collection of profile?.statistics ?? []) {
      if (collection.gcType !== 'MarkSweepCompact') continue
      count += 1
      last = collection.afterGC.heapStatistics.usedHeapSize
    }
    if (last !== undefined) onFullCollection({ liveBytes: last, count })
  }
  // unref: a watch never keeps the process alive, and SIGTERM's shutdown does not wait for it.
  const timer = setInterval(read, windowMs)
  timer.unref()
  return () => {
    clearInterval(timer)
    profiler.stop()
  }
}
