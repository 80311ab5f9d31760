// The request target as the app will route it, worked out once in server.ts before any guard
// (issue 39 point 3). The Remix adapter builds request.url with the URL parser, which resolves
// dot segments, encoded ones too (`/wallet/apple/v1/%2e%2e/%2e%2e/%2e%2e/auth/logout` is
// `/auth/logout`), and the router decodes each segment before matching. A guard that reads the
// raw path (Express's req.path) sees a prefix it exempts while Remix runs another route, so the
// guards read the path this module gives, and the request goes on with its normalised target.

export type RequestTarget = {
  /** The target the app is handed: the normalised path and the query. */
  url: string
  /** The path as the router matches it: dot segments resolved, each segment decoded. */
  path: string
}

/**
 * The normalised target, or null for one that is not a path (origin-form): an absolute-form
 * target (`GET http://host/path`, which only proxies are sent), `*` or an authority. Those are
 * answered 400: the adapter would throw building the request's URL from them, a 500.
 */
export function requestTarget(raw: string | undefined): RequestTarget | null {
  if (!raw?.startsWith('/')) return null
  let parsed: URL
  try {
    // Appended to an origin as the adapter does (not resolved against it: `//evil.test/x` stays
    // a path here as it does there).
    parsed = new URL(`http://target.invalid${raw}`)
  } catch {
    return null
  }
  if (parsed.host !== 'target.invalid') return null
  return { url: `${parsed.pathname}${parsed.search}`, path: routedPath(parsed.pathname) }
}

/** Each segment decoded as the router does, an encoded slash kept encoded within its segment. */
function routedPath(pathname: string) {
  return pathname
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment).replaceAll('/', '%2F')
      } catch {
        return segment
      }
    })
    .join('/')
}

/**
 * The non-empty segments of a path below a route's base, each decoded as the router decodes it
 * (a malformed escape kept as sent): what the API and SCIM dispatchers match their resources on.
 */
export function pathSegments(path: string): string[] {
  return path
    .split('/')
    .filter(Boolean)
    .map((part) => {
      try {
        return decodeURIComponent(part)
      } catch {
        return part
      }
    })
}
