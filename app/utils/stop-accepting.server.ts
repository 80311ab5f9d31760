import { closeSync, openSync, readSync } from 'node:fs'
import type http from 'node:http'
import net, { type Socket } from 'node:net'

/**
 * Stops a listening server from accepting without resetting what the kernel already queued.
 *
 * Closing a listening socket makes the kernel reset every connection whose handshake completed
 * but that the process has not accepted yet: a client that sent its request gets ECONNRESET and
 * cannot know whether it was handled. A busy server always has such connections: the embedded
 * database runs on the event loop, and each client answered during a loop turn reconnects while
 * the turn lasts (28–29 resets in issue 39's outside probe). So, in order:
 *
 * 1. The listen backlog shrinks (`listen()` again on the listening socket): beyond a few queued
 *    connections the kernel drops new SYNs, whose clients try again a second later and then
 *    find the port refused, which is safe to retry: nothing was sent.
 * 2. Requests on connections accepted from now on wait (`hold`) until the listener is closed:
 *    no answer, no reconnection, so the queue stops refilling while the loop takes what is in it.
 * 3. The listener closes in the check phase right after a poll phase shorter than `quietMs`
 *    (the sliver in which a handshake could complete unseen) once the kernel reports nothing
 *    queued and no handshake under way for the port (`pendingHandshakes`), and the accept queue
 *    read once more right before the close is still empty (`queuedConnections`); a loop that
 *    never gets there closes after `maxWaitMs` all the same.
 * 4. The held requests go on, as every request already accepted does.
 */
export function stopAccepting(
  server: http.Server,
  {
    backlog = 8,
    quietMs = 2,
    maxWaitMs = 5_000,
  }: { backlog?: number; quietMs?: number; maxWaitMs?: number } = {},
) {
  const handle = (server as unknown as { _handle?: { listen?: (backlog: number) => number } })
    ._handle
  // Node's TCP handle; Linux and the BSDs apply a new backlog to a socket already listening.
  handle?.listen?.(backlog)
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const started = performance.now()
  let held: (() => void)[] | null = []
  // Only connections accepted from now on wait: a request on an older keep-alive connection
  // (a health check among them) is answered at once, with Connection: close.
  const fresh = new WeakSet<Socket>()
  const markFresh = (socket: Socket) => fresh.add(socket)
  server.on('connection', markFresh)
  const closed = new Promise<void>((resolve) => {
    // A timer runs in the loop's timers phase and an immediate set there in its check phase:
    // between them lies the poll phase alone (accepts, reads, the app's callbacks).
    const sample = () => {
      const polled = performance.now()
      setImmediate(() => {
        const now = performance.now()
        // The whole table takes milliseconds to read under load (every connection and TIME_WAIT
        // on the machine), long enough for a client to connect unseen: one did, 1 run in 25 on
        // a busy machine. A handshake completes on loopback as soon as it starts, so the queue's
        // own row, read in microseconds right before the close, sees whoever came meanwhile.
        const settled =
          now - polled < quietMs && pendingHandshakes(port) === 0 && queuedConnections(port) === 0
        if (!settled && now - started < maxWaitMs) {
          setTimeout(sample, 0)
          return
        }
        // http.Server#close would also drop idle connections, whose request may be unread yet.
        net.Server.prototype.close.call(server)
        server.off('connection', markFresh)
        const waiting = held ?? []
        held = null
        for (const next of waiting) next()
        resolve()
      })
    }
    setTimeout(sample, 0)
  })
  return {
    closed,
    /** Keeps `next` (the request's handling) for after the close and says so, or says it may run now. */
    hold(socket: Socket, next: () => void): boolean {
      if (!held || !fresh.has(socket)) return false
      held.push(next)
      return true
    },
  }
}

/**
 * Connections the kernel holds for a listening port that the process has not accepted: the
 * accept queue's length (the LISTEN row's rx_queue) and handshakes under way (SYN_RECV rows).
 * 0 where /proc/net cannot be read (not Linux): the quiet loop turn is then the only guard.
 */
export function pendingHandshakes(port: number): number {
  let pending = 0
  for (const fields of socketRows(port, { listenersOnly: false })) {
    if (fields[3] === '03') pending++
    else if (fields[3] === '0A') pending += acceptQueue(fields)
  }
  return pending
}

/**
 * The accept queue's length alone, from the listening rows that head /proc/net/tcp and tcp6 (the
 * kernel lists its listeners before any connection): a read of a page or two instead of every
 * connection on the machine, quick enough to come right before the close. 0 where they cannot be
 * read.
 */
export function queuedConnections(port: number): number {
  let queued = 0
  for (const fields of socketRows(port, { listenersOnly: true })) queued += acceptQueue(fields)
  return queued
}

/** A LISTEN row's rx_queue: how many connections wait in its accept queue. */
const acceptQueue = (fields: string[]) => Number.parseInt(fields[4]?.split(':')[1] ?? '0', 16)

/**
 * The rows of the kernel's TCP tables (IPv4, then IPv6) whose local address is on `port`, split
 * into fields; with `listenersOnly`, each table is read only as far as its listeners go.
 */
function* socketRows(port: number, { listenersOnly }: { listenersOnly: boolean }) {
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, '0')}`
  const chunk = Buffer.alloc(16_384)
  tables: for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let fd: number
    try {
      fd = openSync(file, 'r')
    } catch {
      continue
    }
    try {
      let rest = ''
      for (;;) {
        const read = readSync(fd, chunk, 0, chunk.length, null)
        const lines = (rest + chunk.toString('latin1', 0, read)).split('\n')
        rest = read === 0 ? '' : (lines.pop() ?? '')
        for (const line of lines) {
          const fields = line.trim().split(/\s+/)
          if (fields[0] === 'sl' || fields.length < 5) continue
          if (listenersOnly && fields[3] !== '0A') continue tables
          if (fields[1]?.endsWith(hexPort)) yield fields
        }
        if (read === 0) break
      }
    } finally {
      closeSync(fd)
    }
  }
}
