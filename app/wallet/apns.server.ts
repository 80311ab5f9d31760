// Apple Push Notification service for Wallet passes (issue 29 point 1): an empty push to each
// registered device's token tells it one of its passes changed; the device then asks the web
// service which. HTTP/2 to APPLE_APNS_URL, authenticated by the pass certificate itself (TLS
// client certificate), topic the pass type identifier. Tests point it at a local fake.
import http2, { type ClientSessionOptions, type SecureClientSessionOptions } from 'node:http2'
import type { AppleWalletConfig } from '#app/cards/apple-config.server'
import { callOutside } from '#app/utils/outside-call.server'

/** What APNs said of each token: delivered, gone for good, or failed for now. */
export type PushOutcome = { delivered: string[]; gone: string[]; failed: string[] }

// Tests trust their fake's self-signed certificate here; in production Node's own CAs check
// Apple's.
let extraTls: SecureClientSessionOptions = {}
export function setApnsTlsForTests(options: SecureClientSessionOptions) {
  extraTls = options
}

export async function pushPassUpdates(
  config: AppleWalletConfig,
  pushTokens: readonly string[],
): Promise<PushOutcome> {
  const outcome: PushOutcome = { delivered: [], gone: [], failed: [] }
  if (pushTokens.length === 0) return outcome
  const options: ClientSessionOptions & SecureClientSessionOptions = {
    cert: config.certificates.signerCert,
    key: config.certificates.signerKey,
    passphrase: config.certificates.signerKeyPassphrase,
    ...extraTls,
  }
  // One deadline for the connection and every push on it (callOutside): an APNs that is silent,
  // or trickles bytes, fails the pushes still open then, which stay owed; a session idle timeout
  // alone never fired for the trickle, and held the job (and the queue behind it) forever.
  await callOutside('APNs', async (signal) => {
    const session = http2.connect(config.apnsUrl, options)
    signal.addEventListener('abort', () => session.destroy(), { once: true })
    // A refused connection fails every push below; the error is theirs to report.
    session.on('error', () => {})
    try {
      await Promise.all(
        pushTokens.map(async (token) => {
          const status = await push(session, config.passTypeId, token).catch(() => 0)
          // Cut short (a destroyed stream may still end with the status it had): failed below.
          if (signal.aborted) return
          if (status === 200) outcome.delivered.push(token)
          // 410: the device no longer takes pushes for this topic; 400 here is a malformed token.
          else if (status === 410 || status === 400) outcome.gone.push(token)
          else outcome.failed.push(token)
        }),
      )
    } finally {
      session.close()
    }
  }).catch(() => {
    // Cut short: every push without an answer yet failed for now.
    const answered = new Set([...outcome.delivered, ...outcome.gone, ...outcome.failed])
    for (const token of pushTokens) if (!answered.has(token)) outcome.failed.push(token)
  })
  return outcome
}

function push(session: http2.ClientHttp2Session, topic: string, token: string) {
  return new Promise<number>((resolve, reject) => {
    const request = session.request({
      ':method': 'POST',
      ':path': `/3/device/${encodeURIComponent(token)}`,
      'apns-topic': topic,
      'content-type': 'application/json',
    })
    let status = 0
    request.on('response', (headers) => {
      status = Number(headers[':status'] ?? 0)
    })
    request.on('error', reject)
    request.on('end', () => resolve(status))
    request.resume()
    request.end('{}')
  })
}
