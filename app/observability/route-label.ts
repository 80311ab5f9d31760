// The route a request's metrics are labelled with: the id of the Remix route that answers its
// path ("routes/c.$slug"), never the path itself, whose ids and tokens would make a series per
// card and per emailed link (and put the tokens in the metrics). Matched the way React Router
// ranks its routes (its computeScore and compilePath, remade here over the build's manifest so
// a request costs one pass of precompiled expressions, not a second flatten-and-sort).

export type ManifestRoute = {
  id: string
  parentId?: string
  path?: string
  index?: boolean
  caseSensitive?: boolean
}

type Candidate = { id: string; pattern: RegExp; score: number; order: number }

const PARAM = /^:[\w-]+$/
const isSplat = (segment: string) => segment === '*'

/** React Router's ranking of a route's full path: static beats dynamic beats splat. */
function score(path: string, index: boolean | undefined) {
  const segments = path.split('/')
  let total = segments.length
  if (segments.some(isSplat)) total -= 2
  if (index) total += 2
  for (const segment of segments) {
    if (isSplat(segment)) continue
    total += PARAM.test(segment) ? 3 : segment === '' ? 1 : 10
  }
  return total
}

/** React Router's compilePath, with the whole path to match (`end`). */
function compile(path: string, caseSensitive: boolean | undefined) {
  let source = `^${path
    .replace(/\/*\*?$/, '')
    .replace(/^\/*/, '/')
    .replace(/[\\.*+^${}|()[\]]/g, '\\$&')
    .replace(/\/:[\w-]+(\?)?/g, (_, optional) => (optional ? '(?:/([^\\/]+))?' : '/([^\\/]+)'))}`
  if (path.endsWith('*')) {
    source += path === '*' || path === '/*' ? '(.*)$' : '(?:\\/(.+)|\\/*)$'
  } else {
    source += '\\/*$'
  }
  return new RegExp(source, caseSensitive ? undefined : 'i')
}

/** Labels a routed path with the id of the route that answers it; `unmatched` when none does. */
export function routeLabeller(
  routes: Record<string, ManifestRoute | undefined>,
  unmatched = 'unrouted',
) {
  const fullPaths = new Map<string, string>()
  const fullPath = (route: ManifestRoute): string => {
    const known = fullPaths.get(route.id)
    if (known !== undefined) return known
    const parent = route.parentId ? routes[route.parentId] : undefined
    const base = parent ? fullPath(parent) : ''
    const own = route.path ?? ''
    const joined = [base, own].filter(Boolean).join('/').replace(/\/\/+/g, '/')
    fullPaths.set(route.id, joined)
    return joined
  }
  const candidates: Candidate[] = []
  let order = 0
  for (const route of Object.values(routes)) {
    if (!route) continue
    if (route.path == null && !route.index) continue
    const path = fullPath(route)
    candidates.push({
      id: route.id,
      pattern: compile(path, route.caseSensitive),
      score: score(path, route.index),
      order: order++,
    })
  }
  candidates.sort((a, b) => b.score - a.score || a.order - b.order)

  return (routedPath: string): string => {
    // Single fetch's data requests are the page's path plus `.data` (`/_root.data` for `/`).
    let path = routedPath
    if (path.endsWith('.data')) {
      path = path.slice(0, -'.data'.length)
      if (path === '/_root') path = '/'
    }
    for (const candidate of candidates) {
      if (candidate.pattern.test(path)) return candidate.id
    }
    return unmatched
  }
}
