// What "no trace of the platform" means (issue 17 point 4), shared by the crawl (no-trace.spec.ts)
// and the journeys whose emails it cannot reach (a digest needs a card edited, which the crawl's
// agency cannot do under specs running beside it).
import type { FakeEmail } from '#tests/fake-resend'
import { TENANTS } from './fixtures'

/** What must not appear: the platform organization's name, the product's, the root host. */
export const TRACES: { name: string; pattern: RegExp }[] = [
  { name: 'platform name', pattern: new RegExp(TENANTS.platform.name, 'i') },
  { name: 'product name', pattern: /brandcard/i },
  // localhost is the e2e root domain: alpha.localhost is the agency's own host, a bare
  // "localhost" (or a URL on it) would be the platform's.
  { name: 'root domain', pattern: /(?<![\w.-])localhost(?![\w-])/i },
]

export type Fetched = { url: string; status: number; type: string; headers: string; body: string }

/**
 * Occurrences that are not the platform's although they match: the e2e root domain is
 * "localhost", which is also the loopback name that app/validation/legal.ts's LOOPBACK lets
 * through on plain http (in the script bundle as `/^(localhost|…`), and that
 * @simplewebauthn/browser's domain check compares a relying party's id with
 * (`e==="localhost"||/^((xn--…`: WebAuthn lets localhost be one without a dot); a real root
 * domain is neither. `text` is matched against the occurrence and a character either side,
 * `near` against 60 either side: the chunk that holds the domain check is the bundler's choice
 * (ADR 119 merges small chunks), so its code is recognised, not its file's name.
 */
const NOT_A_TRACE: { name: string; text?: RegExp; near?: RegExp }[] = [
  { name: 'root domain', text: /\^\(localhost\|/ },
  { name: 'root domain', near: /\w==="localhost"\|\|\/\^\(\(xn--/ },
]

export function tracesIn(fetched: Fetched) {
  const found: string[] = []
  for (const { name, pattern } of TRACES) {
    const every = new RegExp(pattern.source, `${pattern.flags}g`)
    for (const [part, text] of [
      ['headers', fetched.headers],
      ['body', fetched.body],
    ] as const) {
      for (const match of text.matchAll(every)) {
        const at = match.index ?? 0
        const around = text.slice(Math.max(0, at - 60), at + 60)
        const close = text.slice(Math.max(0, at - 2), at + match[0].length + 1)
        const known = NOT_A_TRACE.some(
          (entry) =>
            entry.name === name &&
            (!entry.text || entry.text.test(close)) &&
            (!entry.near || entry.near.test(around)),
        )
        if (known) continue
        found.push(`${fetched.url} (${part}): ${name} in "…${around.replace(/\s+/g, ' ')}…"`)
        break
      }
    }
  }
  return found
}

/**
 * Traces in an email as the provider received it: its sender's name (the address is the sending
 * domain's, judged by the sending-domain specs), subject, headers, both bodies and the text of
 * its attachments (a vCard's PRODID would be one).
 */
export function emailTraces(kind: string, email: FakeEmail) {
  const senderName = email.from.replace(/\s*<[^>]*>\s*$/, '')
  const parts: [string, string][] = [
    ['sender and subject', `${senderName}\n${email.subject}`],
    [
      'headers',
      Object.entries(email.headers ?? {})
        .map(([name, value]) => `${name}: ${value}`)
        .join('\n'),
    ],
    ['html', email.html ?? ''],
    ['text', email.text ?? ''],
    ...(email.attachments ?? []).map(({ filename, content }): [string, string] => [
      `attachment ${filename}`,
      `${filename}\n${Buffer.from(content, 'base64').toString('utf8')}`,
    ]),
  ]
  return parts.flatMap(([part, body]) =>
    tracesIn({ url: `${kind} email (${part})`, status: 200, type: '', headers: '', body }),
  )
}
