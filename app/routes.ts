// The route config of Remix's v3_routeConfig future flag (ADR 038): the same flat-file routes of
// app/routes/ as before, declared the way React Router 7's routes.ts declares them, so that move
// renames the two packages and changes nothing here. Test files and dotfiles beside the routes
// are not routes.
import { flatRoutes } from '@remix-run/fs-routes'
import type { RouteConfig } from '@remix-run/route-config'

export default flatRoutes({ ignoredRouteFiles: ['**/*.test.*', '**/.*'] }) satisfies RouteConfig
