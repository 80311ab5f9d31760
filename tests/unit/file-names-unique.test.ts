// No file name in two folders (issue 27 point 3, ADR 037): a name such as `teams.server.ts`
// in both app/teams and app/models made every import, stack trace and editor tab ambiguous.
// A domain module says what it does (`manage-teams.server.ts`), the model keeps the aggregate's
// name. Remix's folder-route files (`route.tsx`, `_index.tsx`) are named by convention and may
// repeat inside app/routes.
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

const ROUTE_CONVENTION_NAMES = new Set(['route.tsx', 'route.ts', '_index.tsx'])

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(file) : [file]
  })
}

test('every file name in app/ is used once', () => {
  const byName = new Map<string, string[]>()
  for (const file of filesUnder('app')) {
    const name = path.basename(file)
    const inRoutes = file.startsWith(`app${path.sep}routes${path.sep}`)
    if (inRoutes && ROUTE_CONVENTION_NAMES.has(name)) continue
    byName.set(name, [...(byName.get(name) ?? []), file])
  }
  const repeated = [...byName.values()].filter((files) => files.length > 1)
  expect(repeated).toEqual([])
})
