// Remix's lazy route discovery (`v3_lazyRouteDiscovery`) writes into every document the part of
// the route manifest its path needs: `getPartialManifest` matches the path and each of its
// parents against all the app's routes, flattening, ranking and compiling every route pattern
// again each time. On a signed-in page that was a tenth of the server's CPU (issue 44, ADR 099).
// Its answer depends only on the build's manifest, the routes matched and the path, all of
// which this cache keys on, so each path's answer is worked out once per build.
import { createRequire } from 'node:module'

type Manifest = { routes: Record<string, unknown> }
type StaticRouter = {
  state: { location: { pathname: string }; matches: { route: { id: string } }[] }
}
type FogOfWar = {
  getPartialManifest(manifest: Manifest, router: StaticRouter): Manifest
  __brandcardCached?: true
}

// Paths are bounded in practice (a signed-in user's pages), but a crawler's stream of distinct
// ones must not grow memory: the cache starts afresh past this many per build.
const MAX_PATHS = 2_000

export function cacheRouteDiscovery() {
  // The module the server's Remix calls it through (its CommonJS build, which Node loads).
  const fogOfWar = createRequire(import.meta.url)('@remix-run/react/dist/fog-of-war.js') as FogOfWar
  if (fogOfWar.__brandcardCached) return
  const original = fogOfWar.getPartialManifest
  const byManifest = new WeakMap<Manifest, Map<string, Manifest>>()
  fogOfWar.getPartialManifest = (manifest, router) => {
    let cached = byManifest.get(manifest)
    if (!cached) {
      cached = new Map()
      byManifest.set(manifest, cached)
    }
    const { matches, location } = router.state
    const key = `${matches.map((match) => match.route.id).join('\n')}\n\n${location.pathname}`
    let partial = cached.get(key)
    if (!partial) {
      partial = original(manifest, router)
      if (cached.size >= MAX_PATHS) cached.clear()
      cached.set(key, partial)
    }
    return partial
  }
  fogOfWar.__brandcardCached = true
}

type Route = {
  id?: string
  path?: string
  index?: boolean
  caseSensitive?: boolean
  children?: Route[]
}
type Match = {
  params: Record<string, string | undefined>
  pathname: string
  pathnameBase: string
  route: Route
}
type Router = {
  matchRoutes(
    routes: Route[],
    location: string | { pathname?: string },
    basename?: string,
  ): Match[] | null
  __brandcardCached?: true
}
type RoutesIndex = { shape: number; byId: Map<string, Route> } | null
/** What a match keeps across requests: the route by id, never the route object itself. */
type KeptMatch = { routeId: string; pathname: string; pathnameBase: string }
type Kept = { matches: KeptMatch[]; params: Record<string, string | undefined> } | null

/**
 * The same for matching a path against the routes (React Router's `matchRoutes`), which flattens,
 * ranks and compiles every route again on each call: three times per signed-in document (the
 * server's match, then React Router's over the routes it builds for each render). An answer is
 * kept per shape of the route tree (ids, paths, index and case flags) and path, and handed out
 * with the calling tree's own route objects and a fresh params object.
 */
export function cacheRouteMatching() {
  const router = createRequire(import.meta.url)('@remix-run/router') as Router
  if (router.__brandcardCached) return
  const original = router.matchRoutes
  const indexes = new WeakMap<Route[], RoutesIndex>()
  const answers = new Map<string, Kept>()
  router.matchRoutes = (routes, location, basename = '/') => {
    const pathname = typeof location === 'string' ? location : location.pathname
    // A location with a search or hash, or a tree without ids, goes the long way.
    if (pathname === undefined || /[?#]/.test(pathname)) return original(routes, location, basename)
    let index = indexes.get(routes)
    if (index === undefined) {
      index = indexRoutes(routes)
      indexes.set(routes, index)
    }
    if (!index) return original(routes, location, basename)
    const key = `${index.shape}\n${basename}\n${pathname}`
    let kept = answers.get(key)
    if (kept === undefined) {
      const matches = original(routes, location, basename)
      kept = matches && {
        matches: matches.map(({ route, pathname, pathnameBase }) => ({
          routeId: route.id as string,
          pathname,
          pathnameBase,
        })),
        params: { ...(matches.at(-1)?.params ?? {}) },
      }
      if (answers.size >= MAX_PATHS) answers.clear()
      answers.set(key, kept)
    }
    if (!kept) return null
    // One params object shared by every match of an answer, as React Router's own answer has.
    const params = { ...kept.params }
    const found: Match[] = []
    for (const { routeId, pathname, pathnameBase } of kept.matches) {
      const route = index.byId.get(routeId)
      if (!route) return original(routes, location, basename)
      found.push({ params, pathname, pathnameBase, route })
    }
    return found
  }
  router.__brandcardCached = true
}

// Each tree's shape by a number: a key of one per path instead of the whole tree's text.
const shapes = new Map<string, number>()

function indexRoutes(routes: Route[]): RoutesIndex {
  const byId = new Map<string, Route>()
  const parts: string[] = []
  const walk = (level: Route[]): boolean => {
    parts.push('[')
    for (const route of level) {
      if (!route.id || byId.has(route.id)) return false
      byId.set(route.id, route)
      parts.push(
        `${route.id}\t${route.path ?? ''}\t${route.index ? 1 : 0}${route.caseSensitive ? 1 : 0}`,
      )
      if (route.children && !walk(route.children)) return false
    }
    parts.push(']')
    return true
  }
  if (!walk(routes)) return null
  const text = parts.join('\n')
  let shape = shapes.get(text)
  if (shape === undefined) {
    shape = shapes.size
    shapes.set(text, shape)
  }
  return { shape, byId }
}
