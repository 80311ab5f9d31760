// What a client takes of an answer kept whole in memory: the page caches' stored pages
// (app/cache/page-cache-http.server.ts) and the client's built assets (client-assets.server.ts).

/** The best encoding the client takes of those a stored answer has (identity when none). */
export function acceptedEncoding(
  header: string | undefined,
  offered: { br: boolean; gzip?: boolean } = { br: true },
): 'br' | 'gzip' | null {
  if (!header) return null
  // q=0 refusals are rare enough to answer uncompressed rather than parse every weight.
  if (offered.br && /\bbr\b(?!;q=0(\.0*)?\b)/.test(header)) return 'br'
  if (offered.gzip !== false && /\bgzip\b(?!;q=0(\.0*)?\b)/.test(header)) return 'gzip'
  return null
}

/** Whether an If-None-Match header names this entity tag (weak comparison, as for a GET). */
export function matchesEtag(header: string | undefined, etag: string) {
  if (!header) return false
  const bare = etag.replace(/^W\//, '')
  return header.split(',').some((tag) => {
    const candidate = tag.trim()
    return candidate === '*' || candidate.replace(/^W\//, '') === bare
  })
}
