// Issue 39 point 4: a server that stops under load resets no connection it let in. The server
// here is busy the way the embedded database makes ours (each request holds the event loop), so
// the kernel's accept queue is never empty; closing the listener then reset every client
// waiting in it, as the outside probe saw. The drill on the real server under continuous load,
// on both drivers, is in e2e/server-lifecycle.spec.ts and e2e/database-faults.spec.ts.
import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import {
  pendingHandshakes,
  queuedConnections,
  stopAccepting,
} from '../../app/utils/stop-accepting.server'

function holdLoop(ms: number) {
  const until = performance.now() + ms
  while (performance.now() < until) {}
}

function get(port: number) {
  return new Promise<string>((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, agent: false, path: '/' }, (res) => {
      res.resume()
      res.on('end', () => resolve(String(res.statusCode)))
      res.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
    })
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
    req.end()
  })
}

async function busyServer() {
  let stopping: ReturnType<typeof stopAccepting> | undefined
  const server = http.createServer((req, res) => {
    const answer = () => {
      holdLoop(5)
      res.writeHead(200, { Connection: 'close' }).end('ok')
    }
    if (stopping?.hold(req.socket, answer)) return
    answer()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    server,
    port,
    stop: () => {
      stopping = stopAccepting(server)
      return stopping.closed
    },
  }
}

/** Clients that each open a new connection as soon as the last one answered, until told. */
function hammer(port: number, clients: number) {
  const outcomes: string[] = []
  let running = true
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      const outcome = await get(port)
      outcomes.push(outcome)
      if (outcome === 'ECONNREFUSED') await new Promise((r) => setTimeout(r, 5))
    }
  })
  return {
    outcomes,
    stop: async () => {
      running = false
      await Promise.all(loops)
    },
  }
}

describe('stopAccepting', () => {
  it('closes a busy listener without resetting a queued connection, and answers every request it let in', async () => {
    const { server, port, stop } = await busyServer()
    const load = hammer(port, 24)
    // Until the accept queue has been seen holding connections: the case that resets.
    await expect
      .poll(() => pendingHandshakes(port), { timeout: 60_000, interval: 1 })
      .toBeGreaterThan(0)
    const closed = new Promise((resolve) => server.on('close', resolve))
    await stop()
    // The port refuses new connections once closed, and everything let in ends answered.
    await expect.poll(() => get(port), { timeout: 60_000 }).toBe('ECONNREFUSED')
    await closed
    await load.stop()
    expect(load.outcomes.filter((o) => o !== '200' && o !== 'ECONNREFUSED')).toEqual([])
    expect(load.outcomes).toContain('200')
  })

  it('closes an idle listener at once', async () => {
    const { server, port, stop } = await busyServer()
    expect(await get(port)).toBe('200')
    await stop()
    expect(server.listening).toBe(false)
    expect(await get(port)).toBe('ECONNREFUSED')
  })

  it('reads the accept queue from the listeners’ rows alone, as the whole table does', async () => {
    const accepted: net.Socket[] = []
    const server = net.createServer((socket) => accepted.push(socket))
    await new Promise<void>((resolve) => server.listen(0, resolve))
    const { port } = server.address() as AddressInfo
    expect(queuedConnections(port)).toBe(0)
    const clients = [net.connect(port, '127.0.0.1'), net.connect(port, '127.0.0.1')]
    // The connects run on the next tick; loopback completes each handshake within its call, and
    // the loop has not polled since, so nothing is accepted yet.
    await new Promise((resolve) => process.nextTick(resolve))
    expect(queuedConnections(port)).toBe(2)
    expect(pendingHandshakes(port)).toBe(2)
    // A port nobody listens on has no queue, whatever else is connected.
    expect(queuedConnections(port === 65_535 ? 1 : port + 1)).toBe(0)
    await expect.poll(() => accepted.length).toBe(2)
    expect(queuedConnections(port)).toBe(0)
    for (const socket of [...clients, ...accepted]) socket.destroy()
    await new Promise((resolve) => server.close(resolve))
  })
})
