// `BENCH_SOAK_SECONDS` of `npm run bench` (issue 44 point 4): the signed-in pages loaded for a
// long while, the server's resident memory sampled every 10 s. Memory that keeps growing after
// the heap and the JIT have settled is a leak; the slope of a least-squares line says how fast.
import autocannon from 'autocannon'
import { rssSlopeMbPerMinute, type SoakFigures } from './budgets'
import type { RequestOptions } from './http'
import { CONNECTIONS } from './scenarios'
import { readCpuMs, readMemory } from './server'

const SAMPLE_EVERY_MS = 10_000

/** The first part of the soak left out of the slope: a third of it, at most two minutes. */
export const soakWarmupSeconds = (seconds: number) => Math.min(120, Math.round(seconds / 3))

export async function soak(
  port: number,
  pid: number,
  pages: RequestOptions[],
  seconds: number,
  log: (message: string) => void,
): Promise<SoakFigures> {
  const samples: [number, number][] = []
  const started = performance.now()
  const sample = async () => {
    const { rss } = await readMemory(pid).catch(() => ({ rss: Number.NaN }))
    if (!Number.isFinite(rss)) return
    const at = Math.round((performance.now() - started) / 1000)
    samples.push([at, rss])
    log(`soak ${at} s: RSS ${Math.round(rss / 1e6)} MB`)
  }
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
  await sample()
  const cpuAfter = await readCpuMs(pid)
  const warmupSeconds = soakWarmupSeconds(seconds)
  const answers = Object.values(result.statusCodeStats ?? {}).reduce(
    (sum, { count }) => sum + Number(count),
    0,
  )
  return {
    seconds,
    samples,
    warmupSeconds,
    slopeMbPerMinute: rssSlopeMbPerMinute(samples, warmupSeconds),
    answers,
    cpuMsPerRequest:
      cpuBefore === null || cpuAfter === null || !(result.requests.sent > 0)
        ? null
        : Math.round(((cpuAfter - cpuBefore) / result.requests.sent) * 100) / 100,
  }
}
