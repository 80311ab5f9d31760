// The app's route modules, loaded by file name, for tests that call loaders and actions directly
// with a Request (the route matrix, the card surfaces).
import type { AppLoadContext } from '@remix-run/node'

type RouteArgs = { request: Request; context: AppLoadContext; params: Record<string, string> }

export type RouteModule = {
  loader?: (args: RouteArgs) => unknown
  action?: (args: RouteArgs) => unknown
}

const modules = import.meta.glob<RouteModule>('../app/routes/*.{ts,tsx}')

/** The route module in `app/routes/{file}`. */
export function loadRoute(file: string) {
  const importer = modules[`../app/routes/${file}`]
  if (!importer) throw new Error(`no route module ${file}`)
  return importer()
}
