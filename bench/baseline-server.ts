// The baseline of `npm run bench` (bench/baseline.ts starts it): node:http answering one
// page's exact status, headers and bytes from memory, nothing else. Its own process, like the
// app's server, so both compete with autocannon for the cores in the same way.
import http, { type OutgoingHttpHeaders } from 'node:http'

export type BaselinePage = {
  port: number
  status: number
  headers: OutgoingHttpHeaders
  /** base64 */
  body: string
}

process.once('message', (message) => {
  const page = message as BaselinePage
  const body = Buffer.from(page.body, 'base64')
  const headers = { ...page.headers, 'content-length': String(body.length) }
  const server = http.createServer((_req, res) => {
    res.writeHead(page.status, headers)
    res.end(body)
  })
  server.listen(page.port, '127.0.0.1', () => process.send?.('listening'))
})
// The bench ended (or died): nothing else stops this process.
process.on('disconnect', () => process.exit(0))
