// What a server process keeps alive, read through its inspector: the process runs a full
// collection of its own (`gc()`, under --expose-gc) and reports its heap's spaces. Sampled at any
// other moment the heap in use swings by a fifth with requests in flight, and even V8's own full
// collections count what was allocated while they marked; RSS moves in steps as V8 commits pages
// (ADR 113). The soak's leak test reads this at its middle and its end (issue 44 point 4).
// Not DevTools' "collect garbage" (HeapProfiler.collectGarbage): that one also flushes compiled
// code and gives pages back, and the server's RSS swung 30-40 MB above its plateau for minutes
// after it, past the 300 MB budget.

export type HeapAlive = {
  /**
   * Bytes in use in V8's heap after the collection, compiled code included and the young
   * generation left out: what it holds then was allocated by requests still in flight.
   */
  usedBytes: number
  /** Of them, compiled code (code space and large code objects): the JIT's, not the app's. */
  codeBytes: number
}

type Reply = { id: number; result?: unknown; error?: { message: string } }

/**
 * Has the server run `collections` full collections (requests still arriving between them) and
 * returns the lowest reading: the first may finish a marking already under way, which keeps
 * what was allocated since it began. The process must run with `--expose-gc` and `--inspect` on
 * `inspectPort` (bench/run.ts). null when the inspector cannot be reached.
 */
export async function readHeapAlive(
  inspectPort: number,
  collections = 3,
): Promise<HeapAlive | null> {
  let url: string | undefined
  try {
    const targets = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as {
      webSocketDebuggerUrl?: string
    }[]
    url = targets[0]?.webSocketDebuggerUrl
  } catch {
    return null
  }
  if (!url) return null
  const socket = new WebSocket(url)
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>()
  socket.addEventListener('message', (event) => {
    const reply = JSON.parse(String(event.data)) as Reply
    const waiting = pending.get(reply.id)
    if (!waiting) return
    pending.delete(reply.id)
    if (reply.error) waiting.reject(new Error(reply.error.message))
    else waiting.resolve(reply.result)
  })
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true })
    socket.addEventListener('error', () => reject(new Error('inspector refused')), { once: true })
  })
  let next = 0
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      next += 1
      pending.set(next, { resolve, reject })
      socket.send(JSON.stringify({ id: next, method, params }))
    })
  try {
    let lowest: HeapAlive | null = null
    for (let round = 0; round < collections; round++) {
      // One synchronous task: the collection and the reading with no request in between.
      const { result } = (await send('Runtime.evaluate', {
        expression: "gc(), process.getBuiltinModule('node:v8').getHeapSpaceStatistics()",
        returnByValue: true,
      })) as { result: { value: { space_name: string; space_used_size: number }[] } }
      let usedBytes = 0
      let codeBytes = 0
      for (const space of result.value) {
        if (space.space_name.startsWith('new_')) continue
        usedBytes += space.space_used_size
        if (space.space_name.startsWith('code')) codeBytes += space.space_used_size
      }
      if (!lowest || usedBytes < lowest.usedBytes) lowest = { usedBytes, codeBytes }
    }
    return lowest
  } finally {
    socket.close()
  }
}
