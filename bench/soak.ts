// `BENCH_SOAK_SECONDS` of `npm run bench` (issue 44 point 4): the signed-in pages loaded for a
// long while, the server's resident memory sampled every 10 s. The leak test is what the process
// keeps alive: at the soak's middle and just before its end, the bench has the server run full
// collections through its inspector and reads the heap that is left (bench/heap-alive.ts);
// a leak is objects that survive every collection, so that figure rises between the soak's
// middle and its end. RSS and the heap in use are printed beside it: RSS moves in steps as V8
// commits pages up to limits its collections set, which is not something the app keeps.
import autocannon from 'autocannon'
import { floorSamples, rssSlopeMbPerMinute, type SoakFigures } from './budgets'
import { readHeapAlive } from './heap-alive'
import type { RequestOptions } from './http'
import { CONNECTIONS } from './scenarios'
import { readCpuMs, readMemory } from './server'

const SAMPLE_EVERY_MS = 10_000
// The heap in use swings by a fifth between collections; its lowest sample in each two minutes
// is what survived them, and a leak shows in that floor.
const HEAP_FLOOR_WINDOW_SECONDS = 120

/** The first part of the soak left out of the slope: a third of it, at most two minutes. */
export const soakWarmupSeconds = (seconds: number) => Math.min(120, Math.round(seconds / 3))

export async function soak(
  port: number,
  pid: number,
  pages: RequestOptions[],
  seconds: number,
  log: (message: string) => void,
  /** The server's METRICS_PORT, or null: V8's heap is then not sampled. */
  metricsPort: number | null = null,
  /** The server's inspector port, or null: the heap alive after a collection is then not read. */
  inspectPort: number | null = null,
): Promise<SoakFigures> {
  const samples: [number, number][] = []
  const heapSamples: [number, number, number, number][] = []
  const liveSamples: [number, number][] = []
  const started = performance.now()
  const sample = async () => {
    const { rss, anon } = await readMemory(pid).catch(() => ({ rss: Number.NaN, anon: Number.NaN }))
    if (!Number.isFinite(rss)) return
    const at = Math.round((performance.now() - started) / 1000)
    samples.push([at, rss])
    const heap = metricsPort === null ? null : await readHeap(metricsPort)
    if (heap) heapSamples.push([at, heap.used, heap.total, heap.external])
    // The gauge holds the last full collection's figure until the next one: each is kept once.
    if (heap?.live && heap.live !== liveSamples.at(-1)?.[1]) liveSamples.push([at, heap.live])
    log(
      `soak ${at} s: RSS ${Math.round(rss / 1e6)} MB (anonymous ${Math.round(anon / 1e6)} MB)${heap ? `, heap used ${Math.round(heap.used / 1e6)} MB of ${Math.round(heap.total / 1e6)} MB (code ${Math.round(heap.code / 1e6)} MB), alive after the last full collection ${heap.live ? `${(heap.live / 1e6).toFixed(1)} MB` : '?'}, external ${Math.round(heap.external / 1e6)} MB` : ''}`,
    )
  }
  const warmupSeconds = soakWarmupSeconds(seconds)
  // [seconds, bytes alive, of them compiled code], read at the middle and 10 s before the end
  // while the load runs: two readings, each three full collections the load alone would not
  // have run.
  const aliveSamples: [number, number, number][] = []
  const aliveAt = [seconds / 2, seconds - 10]
  const aliveTimers =
    inspectPort === null
      ? []
      : aliveAt.map((at) =>
          setTimeout(async () => {
            const alive = await readHeapAlive(inspectPort).catch(() => null)
            if (!alive) return
            aliveSamples.push([at, alive.usedBytes, alive.codeBytes])
            log(
              `soak ${at} s: alive after a full collection ${(alive.usedBytes / 1e6).toFixed(2)} MB (compiled code ${(alive.codeBytes / 1e6).toFixed(2)} MB)`,
            )
          }, at * 1000),
        )
  await sample()
  const timer = setInterval(() => void sample(), SAMPLE_EVERY_MS)
  const cpuBefore = await readCpuMs(pid)
  // Every connection goes round the pages in turn: each page's garbage mixes with the others'.
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: pages.map(({ method = 'GET', path, host, headers = {}, body }) => ({
      method: method as autocannon.Request['method'],
      path,
      headers: { host, ...headers },
      body,
    })),
  })
  clearInterval(timer)
  for (const aliveTimer of aliveTimers) clearTimeout(aliveTimer)
  await sample()
  const cpuAfter = await readCpuMs(pid)
  const answers = Object.values(result.statusCodeStats ?? {}).reduce(
    (sum, { count }) => sum + Number(count),
    0,
  )
  return {
    seconds,
    samples,
    warmupSeconds,
    slopeMbPerMinute: rssSlopeMbPerMinute(samples, warmupSeconds),
    heapSamples,
    liveSamples,
    aliveSamples: aliveSamples.sort((a, b) => a[0] - b[0]),
    heapSlopeMbPerMinute: rssSlopeMbPerMinute(
      floorSamples(
        heapSamples.map(([at, used]) => [at, used]),
        HEAP_FLOOR_WINDOW_SECONDS,
      ),
      warmupSeconds,
    ),
    answers,
    cpuMsPerRequest:
      cpuBefore === null || cpuAfter === null || !(result.requests.sent > 0)
        ? null
        : Math.round(((cpuAfter - cpuBefore) / result.requests.sent) * 100) / 100,
  }
}

/**
 * V8's heap in use, the heap V8 holds, its code space, external memory and the heap alive after
 * the last full collection, from the server's Prometheus series; null if unread.
 */
async function readHeap(port: number) {
  try {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
    const series = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1])
    const used = series('nodejs_heap_size_used_bytes')
    const total = series('nodejs_heap_size_total_bytes')
    // Compiled code lives outside the old generation: JIT tiers can grow it after the heap settles.
    const code = series('nodejs_heap_space_size_total_bytes\\{space="code"\\}')
    const external = series('nodejs_external_memory_bytes')
    // 0 until the first full collection of the process (a gauge starts at 0).
    const live = series('nodejs_heap_live_after_full_gc_bytes') || null
    return Number.isFinite(used) ? { used, total, code, external, live } : null
  } catch {
    return null
  }
}
