// A DNS server on 127.0.0.1 for tests: answers TXT questions from a table the test fills in,
// NXDOMAIN for names it does not know, and can be told to fail (SERVFAIL), for every name or
// for some. UDP only, which is what node:dns asks first; long values are split into 255-byte
// chunks as real servers do.
import { createSocket, type Socket } from 'node:dgram'

const TYPE_TXT = 16

export type FakeDns = {
  port: number
  /** Sets the TXT values of a name (an empty list removes it). */
  setTxt(name: string, values: string[]): void
  /** Every name asked, in order. */
  questions: string[]
  /** Every question fails (SERVFAIL). */
  failing: boolean
  /** Questions for these names fail (SERVFAIL); lower-case names. */
  failingNames: Set<string>
  close(): Promise<void>
}

function readName(message: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = []
  let at = offset
  while (message[at] !== 0) {
    const length = message[at] ?? 0
    labels.push(message.subarray(at + 1, at + 1 + length).toString('ascii'))
    at += length + 1
  }
  return { name: labels.join('.').toLowerCase(), end: at + 1 }
}

function txtData(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8')
  const parts: Buffer[] = []
  for (let i = 0; i < bytes.length || i === 0; i += 255) {
    const chunk = bytes.subarray(i, i + 255)
    parts.push(Buffer.from([chunk.length]), chunk)
  }
  return Buffer.concat(parts)
}

function answer(query: Buffer, table: Map<string, string[]>, dns: FakeDns): Buffer {
  const { name, end } = readName(query, 12)
  const failing = dns.failing || dns.failingNames.has(name)
  const qtype = query.readUInt16BE(end)
  const question = query.subarray(12, end + 4)
  const values = table.get(name)
  // Flags: response, recursion desired and available; rcode 2 SERVFAIL, 3 NXDOMAIN.
  const rcode = failing ? 2 : values ? 0 : 3
  const answers = !failing && values && qtype === TYPE_TXT ? values : []
  const header = Buffer.alloc(12)
  query.copy(header, 0, 0, 2)
  header.writeUInt16BE(0x8180 | rcode, 2)
  header.writeUInt16BE(1, 4)
  header.writeUInt16BE(answers.length, 6)
  const records = answers.map((value) => {
    const data = txtData(value)
    const fixed = Buffer.alloc(12)
    fixed.writeUInt16BE(0xc00c, 0) // the name: a pointer to the question's
    fixed.writeUInt16BE(TYPE_TXT, 2)
    fixed.writeUInt16BE(1, 4) // class IN
    fixed.writeUInt32BE(60, 6)
    fixed.writeUInt16BE(data.length, 10)
    return Buffer.concat([fixed, data])
  })
  return Buffer.concat([header, question, ...records])
}

export async function startFakeDns(port = 0): Promise<FakeDns> {
  const table = new Map<string, string[]>()
  const socket: Socket = createSocket('udp4')
  const dns: FakeDns = {
    port: 0,
    questions: [],
    failing: false,
    failingNames: new Set(),
    setTxt(name, values) {
      if (values.length === 0) table.delete(name.toLowerCase())
      else table.set(name.toLowerCase(), values)
    },
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  }
  socket.on('message', (message, remote) => {
    try {
      dns.questions.push(readName(message, 12).name)
      socket.send(answer(message, table, dns), remote.port, remote.address)
    } catch {
      // A malformed packet gets no answer, as from a real server.
    }
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject)
    socket.bind(port, '127.0.0.1', () => resolve())
  })
  dns.port = socket.address().port
  return dns
}

/**
 * A fake DNS server on a port that specs of one project share (e2e/fixtures.ts dnsPort): while
 * another spec holds it, binding is retried until it is free, up to `waitMs`. A spec holds it
 * only around the lookups it answers.
 */
export async function startFakeDnsWhenFree(port: number, waitMs = 300_000): Promise<FakeDns> {
  const deadline = Date.now() + waitMs
  for (;;) {
    try {
      return await startFakeDns(port)
    } catch (error) {
      const busy = (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
      if (!busy || Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
}
