// Apple Wallet's outside world for tests (issue 29 point 1): throwaway certificates made with
// openssl (a CA standing in for Apple's WWDR, the pass certificate it signs, and a server
// certificate for the fake APNs), nothing real committed; the configuration that points the app
// at them; a fake APNs that checks the client certificate and records pushes; and a reader for
// the .pkpass zip.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http2 from 'node:http2'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { inflateRawSync } from 'node:zlib'
import { resetEnvForTests } from '#app/env.server'
import { setApnsTlsForTests } from '#app/wallet/apns.server'

// Neutral, as an operator's should be: every pass carries it, on every agency's host (ADR 042).
export const TEST_PASS_TYPE_ID = 'pass.test.cards.card'
export const TEST_TEAM_ID = 'TESTTEAM42'

export type TestCertificates = {
  dir: string
  wwdrPath: string
  certPath: string
  keyPath: string
  serverCertPath: string
  serverKeyPath: string
  wwdr: string
  cert: string
  serverCert: string
  serverKey: string
}

const openssl = (dir: string, args: string[]) =>
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' })

const FILES = ['wwdr.pem', 'wwdr.key', 'pass.pem', 'pass.key', 'server.pem', 'server.key'] as const
type Files = Record<(typeof FILES)[number], string>

// One set per test process, written anew for each caller: openssl's three RSA keys took 1.2 s of
// CPU, and six integration files on two drivers each made their own (ADR 124). Each caller still
// gets a directory of its own, which it removes.
let made: Files | undefined

/** The CA, the pass certificate it signs and the fake APNs's certificate, in a new directory. */
export function makeTestCertificates(): TestCertificates {
  made ??= generateCertificates()
  const dir = mkdtempSync(path.join(tmpdir(), 'wallet-certs-'))
  for (const name of FILES) writeFileSync(path.join(dir, name), made[name], { mode: 0o600 })
  const file = (name: string) => path.join(dir, name)
  return {
    dir,
    wwdrPath: file('wwdr.pem'),
    certPath: file('pass.pem'),
    keyPath: file('pass.key'),
    serverCertPath: file('server.pem'),
    serverKeyPath: file('server.key'),
    wwdr: made['wwdr.pem'],
    cert: made['pass.pem'],
    serverCert: made['server.pem'],
    serverKey: made['server.key'],
  }
}

function generateCertificates(): Files {
  const dir = mkdtempSync(path.join(tmpdir(), 'wallet-certs-'))
  writeFileSync(path.join(dir, 'leaf.ext'), 'basicConstraints=CA:FALSE\n')
  writeFileSync(
    path.join(dir, 'server.ext'),
    'basicConstraints=CA:FALSE\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n',
  )
  // The stand-in for Apple's WWDR intermediate.
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=Test WWDR',
    '-keyout',
    'wwdr.key',
    '-out',
    'wwdr.pem',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ])
  // The pass type's certificate (RSA: what passkit-generator's signer takes).
  openssl(dir, [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    `/UID=${TEST_PASS_TYPE_ID}/CN=Pass Type ID: ${TEST_PASS_TYPE_ID}/OU=${TEST_TEAM_ID}`,
    '-keyout',
    'pass.key',
    '-out',
    'pass.csr',
  ])
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'pass.csr',
    '-CA',
    'wwdr.pem',
    '-CAkey',
    'wwdr.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'leaf.ext',
    '-out',
    'pass.pem',
  ])
  // The fake APNs's own certificate, from the same CA.
  openssl(dir, [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=localhost',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
  ])
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'wwdr.pem',
    '-CAkey',
    'wwdr.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'server.ext',
    '-out',
    'server.pem',
  ])
  try {
    return Object.fromEntries(
      FILES.map((name) => [name, readFileSync(path.join(dir, name), 'utf8')]),
    ) as Files
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const APPLE_VARIABLES = [
  'APPLE_PASS_TYPE_ID',
  'APPLE_TEAM_ID',
  'APPLE_PASS_CERT',
  'APPLE_PASS_KEY',
  'APPLE_WWDR_CERT',
  'APPLE_APNS_URL',
] as const

/** Points the app at the throwaway certificates (and the fake APNs, when given). */
export function configureAppleWallet(certs: TestCertificates, apnsUrl?: string) {
  process.env.APPLE_PASS_TYPE_ID = TEST_PASS_TYPE_ID
  process.env.APPLE_TEAM_ID = TEST_TEAM_ID
  process.env.APPLE_PASS_CERT = certs.certPath
  process.env.APPLE_PASS_KEY = certs.keyPath
  process.env.APPLE_WWDR_CERT = certs.wwdrPath
  if (apnsUrl) process.env.APPLE_APNS_URL = apnsUrl
  setApnsTlsForTests({ ca: certs.wwdr })
  resetEnvForTests()
}

export function unconfigureAppleWallet() {
  for (const name of APPLE_VARIABLES) delete process.env[name]
  setApnsTlsForTests({})
  resetEnvForTests()
}

export function removeTestCertificates(certs: TestCertificates) {
  rmSync(certs.dir, { recursive: true, force: true })
}

export type RecordedPush = {
  token: string
  topic: string
  body: string
  /** The subject of the client certificate the push came with. */
  clientSubject: string
}

/**
 * APNs as far as passes use it: HTTP/2 over TLS, a client certificate signed by the test WWDR
 * required, POST /3/device/{token}. `gone` tokens answer 410, as for an uninstalled pass.
 */
export async function startFakeApns(certs: TestCertificates) {
  const pushes: RecordedPush[] = []
  const gone = new Set<string>()
  const server = http2.createSecureServer({
    cert: certs.serverCert,
    key: certs.serverKey,
    ca: certs.wwdr,
    requestCert: true,
    rejectUnauthorized: true,
  })
  server.on('stream', (stream, headers) => {
    let body = ''
    stream.setEncoding('utf8')
    stream.on('data', (chunk) => {
      body += chunk
    })
    stream.on('end', () => {
      const match = /^\/3\/device\/([^/]+)$/.exec(String(headers[':path']))
      if (headers[':method'] !== 'POST' || !match) {
        stream.respond({ ':status': 404 })
        stream.end()
        return
      }
      const token = decodeURIComponent(match[1] as string)
      const socket = stream.session?.socket as import('node:tls').TLSSocket | undefined
      const peer = socket?.getPeerCertificate()
      pushes.push({
        token,
        topic: String(headers['apns-topic'] ?? ''),
        body,
        clientSubject: peer?.subject ? `${peer.subject.CN}` : '',
      })
      stream.respond({ ':status': gone.has(token) ? 410 : 200 })
      stream.end(gone.has(token) ? JSON.stringify({ reason: 'Unregistered' }) : '')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `https://localhost:${port}`,
    pushes,
    gone,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The files of a zip archive (stored or deflated entries), read from its central directory. */
export function readZip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (end < 0) throw new Error('not a zip archive')
  const count = zip.readUInt16LE(end + 10)
  let at = zip.readUInt32LE(end + 16)
  const files = new Map<string, Buffer>()
  for (let i = 0; i < count; i += 1) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('bad central directory')
    const method = zip.readUInt16LE(at + 10)
    const compressed = zip.readUInt32LE(at + 20)
    const nameLength = zip.readUInt16LE(at + 28)
    const extraLength = zip.readUInt16LE(at + 30)
    const commentLength = zip.readUInt16LE(at + 32)
    const local = zip.readUInt32LE(at + 42)
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8')
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28)
    const data = zip.subarray(dataAt, dataAt + compressed)
    files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data))
    at += 46 + nameLength + extraLength + commentLength
  }
  return files
}

/** One push a hanging APNs took: whether the app has let go of it, and when. */
export type HangingPush = { token: string; bytesSent: number; closed: boolean; gone: Promise<void> }

/**
 * An APNs that never finishes answering (issue 39 point 4): `silent` reads each push and says
 * nothing; `trickle` answers 200 and then sends one byte of body every few milliseconds, forever,
 * so a connection idle timeout never fires. `pushed` resolves with the first push it takes.
 */
export async function startHangingApns(certs: TestCertificates, mode: 'silent' | 'trickle') {
  const pushes: HangingPush[] = []
  let firstPush: (push: HangingPush) => void = () => {}
  const pushed = new Promise<HangingPush>((resolve) => {
    firstPush = resolve
  })
  const server = http2.createSecureServer({
    cert: certs.serverCert,
    key: certs.serverKey,
    ca: certs.wwdr,
    requestCert: true,
    rejectUnauthorized: true,
  })
  const trickles = new Set<NodeJS.Timeout>()
  server.on('stream', (stream, headers) => {
    const match = /^\/3\/device\/([^/]+)$/.exec(String(headers[':path']))
    let closed: () => void = () => {}
    const push: HangingPush = {
      token: decodeURIComponent(match?.[1] ?? ''),
      bytesSent: 0,
      closed: false,
      gone: new Promise<void>((resolve) => {
        closed = resolve
      }),
    }
    pushes.push(push)
    stream.on('error', () => {})
    stream.on('close', () => {
      push.closed = true
      closed()
    })
    stream.resume()
    if (mode === 'trickle') {
      stream.respond({ ':status': 200 })
      const drip = () => {
        if (stream.closed || stream.destroyed) return
        stream.write('.')
        push.bytesSent += 1
      }
      drip()
      const timer = setInterval(drip, 20)
      trickles.add(timer)
      stream.on('close', () => {
        clearInterval(timer)
        trickles.delete(timer)
      })
    }
    firstPush(push)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const sessions = new Set<import('node:http2').ServerHttp2Session>()
  server.on('session', (session) => {
    sessions.add(session)
    session.on('close', () => sessions.delete(session))
  })
  return {
    url: `https://localhost:${port}`,
    pushes,
    pushed,
    close: () => {
      for (const timer of trickles) clearInterval(timer)
      for (const session of sessions) session.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
