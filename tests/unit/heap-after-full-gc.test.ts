// The series a leak shows in (issue 44 point 4): V8's heap in use just after each full
// collection, read from Node's GC profiler.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterEach, expect, test } from 'vitest'
import {
  type FullCollection,
  watchFullCollections,
} from '#app/observability/heap-after-full-gc.server'

// A full collection on demand: --expose-gc set at run time gives a new context its gc().
setFlagsFromString('--expose-gc')
const fullCollection = runInNewContext('gc') as () => void

let stop: (() => void) | undefined
afterEach(() => stop?.())

async function nextFullCollection(seen: FullCollection[]) {
  const before = seen.length
  fullCollection()
  await expect.poll(() => seen.length, { timeout: 10_000, interval: 20 }).toBeGreaterThan(before)
  return seen.at(-1) as FullCollection
}

test('each full collection is read with what stayed alive after it', async () => {
  const seen: FullCollection[] = []
  stop = watchFullCollections((collection) => seen.push(collection), 20)
  const before = await nextFullCollection(seen)
  expect(before.liveBytes).toBeGreaterThan(0)

  // About 30 MB of small objects alive through the next collection count; once dropped they do not.
  let held: { index: number }[][] | null = Array.from({ length: 100 }, () =>
    Array.from({ length: 10_000 }, (_, index) => ({ index })),
  )
  const holding = await nextFullCollection(seen)
  expect(holding.count).toBeGreaterThan(before.count)
  expect(holding.liveBytes - before.liveBytes).toBeGreaterThan(10e6)
  expect(held.length).toBe(100)
  held = null
  const released = await nextFullCollection(seen)
  expect(holding.liveBytes - released.liveBytes).toBeGreaterThan(10e6)
})

test('a stopped watch reports no further collection', async () => {
  const seen: FullCollection[] = []
  stop = watchFullCollections((collection) => seen.push(collection), 20)
  await nextFullCollection(seen)
  stop()
  stop = undefined
  const count = seen.length
  fullCollection()
  await new Promise((resolve) => setTimeout(resolve, 100))
  expect(seen.length).toBe(count)
})
