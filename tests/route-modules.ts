// The app's route modules, loaded by file name, for tests that call loaders and actions directly
// with a Request (the route matrix, the card surfaces).
import type { AppLoadContext } from '@remix-run/node'
import { asResponse } from './factories'

type RouteArgs = { request: Request; context: AppLoadContext; params: Record<string, string> }

export type RouteModule = {
  loader?: (args: RouteArgs) => unknown
  action?: (args: RouteArgs) => unknown
}

const modules = import.meta.glob<RouteModule>('../app/routes/*.{ts,tsx}')

/**
 * The route module in `app/routes/{file}`, its loader and action answering Responses (or naked
 * objects) as before single fetch: `data(value, init)`, returned or thrown, becomes the JSON
 * Response it stands for (tests/factories.ts `asResponse`).
 */
export async function loadRoute(file: string): Promise<RouteModule> {
  const importer = modules[`../app/routes/${file}`]
  if (!importer) throw new Error(`no route module ${file}`)
  const module = await importer()
  const wrap = (run: RouteModule['loader']) =>
    run &&
    (async (args: RouteArgs) => {
      try {
        return asResponse(await run(args))
      } catch (thrown) {
        throw asResponse(thrown)
      }
    })
  return { ...module, loader: wrap(module.loader), action: wrap(module.action) }
}
