// Clients that each open a new connection (as new visitors do) as soon as their last request
// ended, until told to stop: the load under which issue 39's outside probe saw a stopping
// server reset the connections waiting in its accept queue.
import http from 'node:http'

/** A request's end: its status code, or the error code of a connection that failed. */
function outcome(port: number, pathname: string, host: string) {
  return new Promise<string>((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: pathname, agent: false, headers: { host } },
      (res) => {
        res.resume()
        res.on('end', () => resolve(String(res.statusCode)))
        res.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
      },
    )
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer in 30 s: ${host}${pathname}`)))
    req.end()
  })
}

export function continuousLoad(
  port: number,
  targets: [pathname: string, host: string][],
  clients = 16,
) {
  const outcomes: string[] = []
  let running = true
  const loops = Array.from({ length: clients }, async (_, i) => {
    const [pathname, host] = targets[i % targets.length] as [string, string]
    while (running) {
      const ended = await outcome(port, pathname, host)
      outcomes.push(ended)
      // A closed port answers at once: no need to spin on it.
      if (ended === 'ECONNREFUSED') await new Promise((r) => setTimeout(r, 10))
    }
  })
  return {
    outcomes,
    async stop() {
      running = false
      await Promise.all(loops)
      return outcomes
    },
  }
}
