// A TCP listener on 127.0.0.1 that only counts the connections made to it: a test of the
// identity providers' address rule points a URL here and proves nothing connected.
import { createServer, type Socket } from 'node:net'

export async function startConnectionCounter() {
  const sockets = new Set<Socket>()
  let connections = 0
  const server = createServer((socket) => {
    connections += 1
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.destroy()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  return {
    port: address.port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/** Runs `work` with the identity providers' loopback exception off, as in production. */
export async function withoutLoopbackIdps<T>(reset: () => void, work: () => Promise<T>) {
  const before = process.env.SSO_ALLOW_HTTP_LOOPBACK
  process.env.SSO_ALLOW_HTTP_LOOPBACK = '0'
  reset()
  try {
    return await work()
  } finally {
    if (before === undefined) delete process.env.SSO_ALLOW_HTTP_LOOPBACK
    else process.env.SSO_ALLOW_HTTP_LOOPBACK = before
    reset()
  }
}
