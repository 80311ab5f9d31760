// The metrics' route label (ADR 097) is the route React Router picks for the path: checked
// against React Router's own matchRoutes over the app's real route files, for a path made from
// every route (its params filled in) and its single-fetch `.data` twin.
import path from 'node:path'
import { UNSAFE_flatRoutes } from '@remix-run/dev'
import { type AgnosticRouteObject, matchRoutes } from '@remix-run/router'
import { expect, test } from 'vitest'
import { type ManifestRoute, routeLabeller } from '#app/observability/route-label'

const manifest: Record<string, ManifestRoute> = {
  root: { id: 'root', path: '' },
  ...(UNSAFE_flatRoutes(path.resolve('app'), ['**/*.test.*', '**/.*'], 'routes') as Record<
    string,
    ManifestRoute
  >),
}
for (const route of Object.values(manifest)) {
  if (route.id !== 'root') route.parentId ??= 'root'
}

function tree(parentId: string | undefined): AgnosticRouteObject[] {
  return Object.values(manifest)
    .filter((route) => route.parentId === parentId)
    .map((route) =>
      route.index
        ? { id: route.id, index: true, path: route.path }
        : { id: route.id, path: route.path, children: tree(route.id) },
    ) as AgnosticRouteObject[]
}
const routes = tree(undefined)
const label = routeLabeller(manifest)

function fullPath(route: ManifestRoute): string {
  const parent = route.parentId ? manifest[route.parentId] : undefined
  return [parent ? fullPath(parent) : '', route.path ?? ''].filter(Boolean).join('/')
}

const samples = Object.values(manifest).flatMap((route) => {
  const filled = `/${fullPath(route)}`.replace(/:[\w-]+/g, 'x1f3').replace(/\*$/, 'some/deep/path')
  return [filled, `${filled === '/' ? '/_root' : filled}.data`]
})

test('the app has routes to label', () => {
  expect(Object.keys(manifest).length).toBeGreaterThan(50)
})

test.each(samples)('%s is labelled with the route React Router matches', (sample) => {
  const pathname = sample.endsWith('.data') ? sample.slice(0, -5).replace(/^\/_root$/, '/') : sample
  const matches = matchRoutes(routes, pathname)
  expect(label(sample)).toBe(matches?.at(-1)?.route.id ?? 'unrouted')
})

test('ids and tokens never become labels', () => {
  expect(label('/c/olivia-4f2a')).toBe('routes/c.$slug')
  expect(label('/invitations/secret-token-123')).toBe('routes/invitations.$token')
  expect(label('/no/such/page')).toBe('routes/$')
  expect(label('')).toBe('unrouted')
})
