// The route matching caches of app/utils/route-discovery-cache.server.ts (issue 44, ADR 099):
// a cached answer is React Router's own, with the calling tree's route objects.
import { createRequire } from 'node:module'
import { describe, expect, test } from 'vitest'
import { cacheRouteMatching } from '#app/utils/route-discovery-cache.server'

type Route = { id: string; path?: string; index?: boolean; children?: Route[] }
const router = createRequire(import.meta.url)('@remix-run/router') as {
  matchRoutes(routes: Route[], location: string, basename?: string): unknown
}
const original = router.matchRoutes

// A fresh tree of the same shape on every call, as React Router builds one for each render.
const tree = (): Route[] => [
  {
    id: 'root',
    path: '',
    children: [
      { id: 'routes/_index', index: true },
      { id: 'routes/card.$ref', path: 'card/:ref' },
      {
        id: 'routes/dashboard',
        path: 'dashboard',
        children: [
          { id: 'routes/dashboard.end-user._index', path: 'end-user', index: true },
          { id: 'routes/dashboard.end-user.digital-cards', path: 'end-user/digital-cards' },
        ],
      },
      { id: 'routes/$', path: '*' },
    ],
  },
]

const PATHS = [
  '/',
  '/card/abc',
  '/card/a%20b',
  '/dashboard/end-user',
  '/dashboard/end-user/digital-cards',
  '/nowhere/at/all',
  '/card/abc?x=1',
]

describe('cacheRouteMatching', () => {
  cacheRouteMatching()

  test("answers as React Router does, with the calling tree's own routes, twice over", () => {
    for (const path of PATHS) {
      for (let round = 0; round < 2; round++) {
        const routes = tree()
        const cached = router.matchRoutes(routes, path) as { route: Route }[] | null
        expect(cached).toEqual(original(tree(), path))
        for (const match of cached ?? []) {
          expect(JSON.stringify(routes)).toContain(`"id":"${match.route.id}"`)
          const own = routes[0]?.id === match.route.id ? routes[0] : undefined
          if (own) expect(match.route).toBe(own)
        }
      }
    }
  })

  test('params are fresh for every answer', () => {
    const first = router.matchRoutes(tree(), '/card/abc') as { params: Record<string, string> }[]
    ;(first[0] as { params: Record<string, string> }).params.ref = 'changed'
    const second = router.matchRoutes(tree(), '/card/abc') as { params: Record<string, string> }[]
    expect(second[0]?.params.ref).toBe('abc')
  })

  test('a tree of another shape is matched on its own', () => {
    const other: Route[] = [{ id: 'root', path: '', children: [{ id: 'x', path: 'card/:ref/x' }] }]
    expect(router.matchRoutes(other, '/card/abc')).toEqual(original(other, '/card/abc'))
    expect(router.matchRoutes(other, '/card/abc')).toBeNull()
  })
})
