// A TCP proxy to a database server for the tests of what a lost connection does to the app and
// its driver: `down()` cuts every connection through it and refuses new ones, as a server that
// is restarting does, until `up()`; `reset()` ends the client connections with a TCP reset, as a
// load balancer or a dead host's network does (the client sees ECONNRESET, an error before the
// close, not the clean close of a terminated backend).
import net from 'node:net'

export async function startTcpProxy(target: URL) {
  const sockets = new Set<net.Socket>()
  const clients = new Set<net.Socket>()
  const accept = (client: net.Socket) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname)
    clients.add(client)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('error', () => {})
    }
    client.on('close', () => {
      sockets.delete(client)
      clients.delete(client)
      upstream.destroy()
    })
    upstream.on('close', () => {
      sockets.delete(upstream)
      client.destroy()
    })
    client.pipe(upstream).pipe(client)
  }
  let listener = net.createServer(accept)
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
  const port = (listener.address() as net.AddressInfo).port
  const close = () => new Promise<void>((resolve) => listener.close(() => resolve()))
  return {
    port,
    /** The target's URL through this proxy. */
    url: Object.assign(new URL(target), { hostname: '127.0.0.1', port: String(port) }).toString(),
    async down() {
      const closed = close()
      for (const socket of sockets) socket.destroy()
      await closed
    },
    async up() {
      listener = net.createServer(accept)
      await new Promise<void>((resolve) => listener.listen(port, '127.0.0.1', resolve))
    },
    reset() {
      for (const client of clients) client.resetAndDestroy()
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      if (listener.listening) await close()
    },
  }
}
