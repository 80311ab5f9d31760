// The patches of patches/ that keep a signed-in document's routing work to once per build
// (issue 44, ADR 107): React Router's matching keeps a tree's ranked branches and its answer per
// path, Remix makes the server's routes once per manifest, and React Router DOM its data routes
// once per tree. An answer must stay React Router's own, on the calling tree, with fresh params.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, test } from 'vitest'

const require = createRequire(import.meta.url)
type Route = { id: string; path?: string; index?: boolean; children?: Route[] }
type Match = { params: Record<string, string | undefined>; pathname: string; route: Route }
const router = require('@remix-run/router') as {
  matchRoutes(routes: Route[], location: string, basename?: string): Match[] | null
}

const tree = (): Route[] => [
  {
    id: 'root',
    path: '',
    children: [
      { id: 'index', index: true },
      { id: 'card', path: 'card/:ref' },
      { id: 'splat', path: 'files/*' },
      { id: 'optional', path: 'lang/:code?/about' },
      { id: 'rest', path: '*' },
    ],
  },
]
const PATHS = ['/', '/card/abc', '/card/a%20b', '/files/a/b', '/lang/about', '/lang/de/about', '/x']

describe('the routing patches', () => {
  test('are applied (npm install runs patch-package)', () => {
    const files = {
      '@remix-run/router': 'matchesCache',
      '@remix-run/react/dist/server.js': 'serverRoutesCache',
      'react-router-dom/server.js': 'dataRoutesCache',
      '@remix-run/express/dist/server.js': 'res.on("close", () => controller.abort())',
    }
    for (const [module, marker] of Object.entries(files)) {
      expect(readFileSync(require.resolve(module), 'utf8'), module).toContain(marker)
    }
  })

  test('a kept answer is the one a tree seen for the first time gets', () => {
    const kept = tree()
    for (let round = 0; round < 3; round++) {
      for (const path of PATHS) {
        const answer = router.matchRoutes(kept, path)
        expect(answer, `${path}, round ${round}`).toEqual(router.matchRoutes(tree(), path))
        for (const match of answer ?? []) {
          expect([kept[0], ...(kept[0]?.children ?? [])]).toContain(match.route)
        }
      }
    }
    expect(router.matchRoutes(kept, '/card/abc')?.at(-1)?.params).toEqual({ ref: 'abc' })
    expect(router.matchRoutes(kept, '/files/a/b')?.at(-1)?.params).toEqual({ '*': 'a/b' })
  })

  test('every answer has fresh params, shared by its matches as React Router shares them', () => {
    const kept = tree()
    const first = router.matchRoutes(kept, '/card/abc') as Match[]
    expect(first[0]?.params).toBe(first[1]?.params)
    ;(first[1] as Match).params.ref = 'changed'
    expect(router.matchRoutes(kept, '/card/abc')?.at(-1)?.params.ref).toBe('abc')
  })
})
