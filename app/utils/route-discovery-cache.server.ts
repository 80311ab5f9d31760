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
