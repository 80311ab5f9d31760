// One way to write a route's server half (issue 40 point 5, ADR 061, docs/architecture.md
// "Route modules"). A route module in app/routes only wires; the loader and action it wires
// (`<name>Loader`, `<name>Action`, taking the request first) live in the domain folder in a
// module named `<screen>-route.server.ts`, and only there. Such a module is the top of its
// folder: routes, components (types), the entry points and other route modules import it; a
// domain module, a job or a model never does (what they need is an operation, which lives in a
// plain `<what-it-does>.server.ts` beside it).
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

const ROUTE_LOGIC_SUFFIX = '-route.server.ts'

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(file) : [file]
  })
}

const posix = (file: string) => file.split(path.sep).join('/')
const APP = filesUnder('app').map(posix)
const DOMAIN_SERVER = APP.filter(
  (file) => file.endsWith('.server.ts') && !file.startsWith('app/routes/'),
)

/**
 * The loaders and actions a module exports: `<name>Loader` / `<name>Action` taking the request and
 * the load context first, as Remix hands them to a route (the action helper takes options instead).
 */
function loadersAndActions(code: string) {
  return [
    ...code.matchAll(
      /export\s+(?:async\s+)?function\s+([a-z]\w*(?:Loader|Action))\s*(?:<[^>]*>)?\(\s*request\s*:\s*Request\s*,\s*context\s*:\s*AppLoadContext\b/g,
    ),
  ].map((match) => match[1] as string)
}

/** Who may import a route-logic module: what sits above the domain. */
function mayImportRouteLogic(file: string) {
  return (
    file.startsWith('app/routes/') ||
    file.startsWith('app/components/') ||
    file === 'app/root.tsx' ||
    file === 'app/entry.server.tsx' ||
    file.endsWith(ROUTE_LOGIC_SUFFIX)
  )
}

/** The modules a file imports, as paths under app/ (by alias or relative path). */
function importsOf(file: string, code: string) {
  return [...code.matchAll(/from\s+'([^']+)'/g)].flatMap(([, spec = '']) => {
    if (spec.startsWith('#app/')) return [`app/${spec.slice('#app/'.length)}`]
    if (spec.startsWith('.')) return [posix(path.join(path.dirname(file), spec))]
    return []
  })
}

/** The breaches of the convention in a set of files (name → code). */
function breaches(files: Record<string, string>) {
  const found: string[] = []
  for (const [file, code] of Object.entries(files)) {
    const name = path.basename(file)
    const exported = loadersAndActions(code)
    if (file.endsWith('.server.ts') && !file.startsWith('app/routes/')) {
      if (exported.length > 0 && !name.endsWith(ROUTE_LOGIC_SUFFIX))
        found.push(
          `${file} exports ${exported.join(', ')}: a route's logic lives in *${ROUTE_LOGIC_SUFFIX}`,
        )
      if (name.endsWith(ROUTE_LOGIC_SUFFIX) && exported.length === 0)
        found.push(`${file} is named as route logic but exports no <name>Loader or <name>Action`)
      if (name.endsWith('-routes.server.ts'))
        found.push(`${file}: one suffix, *${ROUTE_LOGIC_SUFFIX} (even for several screens)`)
    }
    if (!mayImportRouteLogic(file)) {
      for (const target of importsOf(file, code)) {
        if (target.endsWith('-route.server'))
          found.push(
            `${file} imports ${target}: route logic is imported only by what sits above it`,
          )
      }
    }
  }
  return found
}

test("every route's loader and action live in a *-route.server.ts, imported only from above", () => {
  const sources = APP.filter((file) => /\.tsx?$/.test(file))
  const files = Object.fromEntries(sources.map((file) => [file, readFileSync(file, 'utf8')]))
  expect(breaches(files)).toEqual([])
  // The convention has something to hold: today's route-logic modules are found by it.
  const routeLogic = DOMAIN_SERVER.filter((file) => file.endsWith(ROUTE_LOGIC_SUFFIX))
  expect(routeLogic.length).toBeGreaterThan(10)
})

test('the check fails on a loader outside a route module, a plural suffix and an import from below', () => {
  const loader =
    'export async function teamsLoader(request: Request, context: AppLoadContext) {\n  return null\n}\n'
  expect(breaches({ 'app/teams/manage-teams.server.ts': loader })).toHaveLength(1)
  expect(
    breaches({ 'app/teams/teams.server.ts': loader.replace('Loader', 'Action') }),
  ).toHaveLength(1)
  expect(breaches({ 'app/teams/teams-route.server.ts': loader })).toEqual([])
  expect(breaches({ 'app/teams/teams-routes.server.ts': loader })).toHaveLength(2)
  expect(
    breaches({ 'app/teams/teams-route.server.ts': 'export const TEAM_PATH = "/team"\n' }),
  ).toHaveLength(1)
  const importsRouteLogic = "import { x } from '#app/teams/teams-route.server'\n"
  expect(breaches({ 'app/jobs/handlers.server.ts': importsRouteLogic })).toHaveLength(1)
  expect(
    breaches({ 'app/teams/team-policy.server.ts': "import { x } from './teams-route.server'\n" }),
  ).toHaveLength(1)
  expect(breaches({ 'app/routes/team.tsx': importsRouteLogic })).toEqual([])
  expect(breaches({ 'app/components/teams/team-page.tsx': importsRouteLogic })).toEqual([])
})
