// The REST API's router table (ADR 092): every operation of /api/v1, with its method, path,
// scope and schemas. The OpenAPI document is made from this table and a test compares the two.

import type { ApiRoute } from './api-call.server'
import { CARD_ROUTES } from './api-cards.server'
import { CONTACT_ROUTES } from './api-contacts.server'
import { PEOPLE_ROUTES } from './api-people.server'
import { WEBHOOK_ROUTES } from './api-webhooks.server'

export const API_ROUTES: readonly ApiRoute[] = [
  ...CARD_ROUTES,
  ...CONTACT_ROUTES,
  ...PEOPLE_ROUTES,
  ...WEBHOOK_ROUTES,
]

/** `/cards/{cardId}` as a matcher of path segments. */
function matcherOf(path: string) {
  const parts = path.split('/').filter(Boolean)
  return (segments: string[]) => {
    if (segments.length !== parts.length) return null
    const params: Record<string, string> = {}
    for (const [index, part] of parts.entries()) {
      const segment = segments[index] ?? ''
      const name = /^\{(\w+)\}$/.exec(part)?.[1]
      if (name) params[name] = segment
      else if (part !== segment) return null
    }
    return params
  }
}

const MATCHERS = API_ROUTES.map((entry) => ({ entry, match: matcherOf(entry.path) }))

/**
 * The operation a method and path name: the route and its path parameters; `allowed` lists the
 * methods of a path that exists under another method (a 405), none for an unknown path (404).
 */
export function findApiRoute(method: string, segments: string[]) {
  const allowed: string[] = []
  for (const { entry, match } of MATCHERS) {
    const params = match(segments)
    if (!params) continue
    if (entry.method === method) return { entry, params, allowed }
    allowed.push(entry.method)
  }
  return { entry: null, params: {}, allowed }
}
