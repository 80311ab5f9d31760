// Where a card view came from (issue 28 point 4). Each channel marks the link it hands out with
// `?s={code}`, one letter (ADR 039), except a QR code of a short link, which says so by its
// capitals (ADR 041). The page cache answers a marked request from the unmarked page's entry and counts
// the view with its source (server.ts); anything unknown counts as a direct visit, never an
// error. Shared by the server, the share controls and the vCard: one place for the codes.

/** Stored in card_views.source (the view_source enum); wallet, signature, background are the next issue's. */
export const VIEW_SOURCES = [
  'direct',
  'qr',
  'nfc',
  'link',
  'share',
  'vcard',
  'wallet',
  'signature',
  'background',
] as const
export type ViewSource = (typeof VIEW_SOURCES)[number]

/** The query parameter that carries the marker. */
export const SOURCE_PARAM = 's'

const CODES: Record<Exclude<ViewSource, 'direct'>, string> = {
  qr: 'q',
  nfc: 'n',
  link: 'l',
  share: 's',
  vcard: 'v',
  wallet: 'w',
  signature: 'e',
  background: 'b',
}
const SOURCE_OF_CODE = new Map(Object.entries(CODES).map(([source, code]) => [code, source]))

/** What the dashboards call each source. */
export const SOURCE_LABELS: Record<ViewSource, string> = {
  direct: 'Direct',
  qr: 'QR code',
  nfc: 'NFC',
  link: 'Copied link',
  share: 'Share sheet',
  vcard: 'vCard',
  wallet: 'Wallet',
  signature: 'Email signature',
  background: 'Background',
}

/**
 * `url` marked with the channel it is handed out by (`direct` leaves it unmarked). A marker
 * already on it is replaced; the rest of the query and any fragment stay.
 */
export function withSource(url: string, source: ViewSource): string {
  const hashAt = url.indexOf('#')
  const fragment = hashAt >= 0 ? url.slice(hashAt) : ''
  const [path = '', query = ''] = (hashAt >= 0 ? url.slice(0, hashAt) : url).split('?', 2)
  const kept = query.split('&').filter((part) => part && !isMarker(part))
  if (source !== 'direct') kept.push(`${SOURCE_PARAM}=${CODES[source]}`)
  return `${path}${kept.length ? `?${kept.join('&')}` : ''}${fragment}`
}

const isMarker = (part: string) => part.split('=', 1)[0]?.toLowerCase() === SOURCE_PARAM

/** The source a marker's code stands for; no code or an unknown one is a direct visit. */
export function sourceOfCode(code: string | null | undefined): ViewSource {
  if (!code) return 'direct'
  return (SOURCE_OF_CODE.get(code.toLowerCase()) as ViewSource | undefined) ?? 'direct'
}

/**
 * A QR code carries a card's short link in capitals (`HTTPS://HOST/C/SLUG`, ADR 041): that is
 * the marker, costing no characters, which keeps the code at version 4. Every other channel
 * hands out the short link in lowercase, and people type it so.
 */
const QR_SHORT_LINK = /^\/C\//

function sourceOfPath(path: string): ViewSource {
  return QR_SHORT_LINK.test(path) ? 'qr' : 'direct'
}

/** The source of a request's URL (absolute, or a path with its query). */
export function sourceOfUrl(url: string): ViewSource {
  const [target = '', query = ''] = (url.split('#', 1)[0] ?? '').split('?', 2)
  const marker = query.split('&').find(isMarker)
  const source = sourceOfCode(marker?.split('=', 2)[1])
  if (source !== 'direct') return source
  const path = /^[a-z][a-z0-9+.-]*:\/\//i.test(target)
    ? target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '')
    : target
  return sourceOfPath(path)
}

// A query that is a marker and nothing else (a QR code scanned by a camera app that upper-cases
// it included): such a request is still the page cache's.
const MARKER_ONLY = /^[sS]=[A-Za-z0-9]{0,8}$/

/**
 * For the page cache: a request target whose only query is a marker, split into the path the
 * cache keys on and the view's source; null for any other query (not a cache candidate).
 */
export function splitSourceMarker(target: string): { path: string; source: ViewSource } | null {
  const at = target.indexOf('?')
  if (at < 0) return { path: target, source: sourceOfPath(target) }
  const query = target.slice(at + 1)
  if (!MARKER_ONLY.test(query)) return null
  const path = target.slice(0, at)
  const marked = sourceOfCode(query.slice(2))
  return { path, source: marked === 'direct' ? sourceOfPath(path) : marked }
}

/**
 * The source of a request a route answers: the page cache's candidates had their marker taken
 * off the URL by server.ts and carry it in the load context; any other request still has it.
 */
export function sourceOfRequest(request: Request, context: { viewSource?: ViewSource }) {
  return context.viewSource ?? sourceOfUrl(request.url)
}
