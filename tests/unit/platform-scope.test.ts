// The platform scope (reads across every tenant) is issued in one place: the super-admin guard.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) return sourceFiles(full)
    return /\.tsx?$/.test(name) ? [full] : []
  })
}

test('only the super-admin guard issues platform scope grants', () => {
  const users = [...sourceFiles('app'), ...sourceFiles('drizzle')]
    .filter((file) => readFileSync(file, 'utf8').includes('issuePlatformScopeGrant'))
    .sort()
  expect(users).toEqual([path.join('app/auth/guards.server.ts'), path.join('drizzle/db.server.ts')])
})

test('no code sets the platform scope setting except withPlatformScope and the backup', () => {
  const setters = [...sourceFiles('app'), ...sourceFiles('drizzle')].filter((file) =>
    readFileSync(file, 'utf8').includes('app.platform_scope'),
  )
  // The backup is the one other reader of every tenant's rows: a pg_dump process of its own,
  // as the tables' owner, never a request (ADR 018), and its manifest, counted in the dump's
  // snapshot and checked by restore (ADR 029).
  expect(setters.sort()).toEqual([
    path.join('app/backups/backups.server.ts'),
    path.join('app/backups/manifest.server.ts'),
    path.join('drizzle/db.server.ts'),
  ])
})
