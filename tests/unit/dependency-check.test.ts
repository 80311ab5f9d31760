// Issue 40 point 2 (ADR 060): the dependency check of `npm test` (scripts/check-dependencies.ts,
// dependency-cruiser with .dependency-cruiser.cjs) fails on a folder cycle, a file cycle and every
// import the layer table of docs/architecture.md forbids, passes the imports the table allows,
// and fails when its baseline of known violations holds an entry that no longer occurs. Each
// case writes probe files into a temporary tree that holds the project's rules and floors (so
// nothing else walking app/ meets them) and runs the check there, as `npm test` runs it.
import { execFile } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  BASELINE_FILE,
  docsSection,
  floorProblems,
  floorsMarkdown,
  loadFloors,
  missingFloorPaths,
  type Violation,
} from '../../scripts/check-dependencies'

const SCRIPT = path.resolve('scripts/check-dependencies.ts')
const roots: string[] = []
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

/** A temporary tree with the project's rules and floors, and `files` (path → code). */
function tree(files: Record<string, string>, baseline?: Violation[]) {
  const root = mkdtempSync(path.join(tmpdir(), 'dependency-probe-'))
  roots.push(root)
  mkdirSync(path.join(root, 'scripts'))
  copyFileSync('.dependency-cruiser.cjs', path.join(root, '.dependency-cruiser.cjs'))
  copyFileSync('scripts/dependency-floors.cjs', path.join(root, 'scripts/dependency-floors.cjs'))
  const imports = { '#app/*': './app/*', '#drizzle/*': './drizzle/*' }
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ type: 'module', imports }))
  const paths = { '#app/*': ['./app/*'], '#drizzle/*': ['./drizzle/*'] }
  const compilerOptions = { module: 'ESNext', moduleResolution: 'Bundler', jsx: 'react-jsx', paths }
  writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions }))
  for (const [file, code] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), `${code}\nexport const probe = 1\n`)
  }
  if (baseline) {
    writeFileSync(path.join(root, BASELINE_FILE), JSON.stringify(baseline))
  }
  return root
}

type Outcome = { status: number; output: string }

/** Runs the check in `root` as `npm run check:deps` does (node 24 runs the TypeScript itself). */
function check(root: string, ...args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { cwd: root }, (error, stdout, stderr) => {
      const status = error ? Number((error as { code?: number }).code ?? 1) : 0
      resolve({ status, output: `${stdout}${stderr}` })
    })
  })
}

/** The check's verdict with the violations it found (--json). */
async function violations(root: string) {
  const outcome = await check(root, '--json')
  return { status: outcome.status, found: JSON.parse(outcome.output) as Violation[] }
}

// Files the probes import: each exists, so the import resolves as it would in app/.
const TARGETS = {
  'app/root.tsx': '',
  'app/env.server.ts': '',
  'app/routes/onboarding.tsx': '',
  'app/components/forms.tsx': '',
  'app/components/ui/button.tsx': '',
  'app/auth/guards.server.ts': '',
  'app/auth/rate-limit.server.ts': '',
  'app/cards/card-paths.ts': '',
  'app/teams/plans.ts': '',
  'app/media/uploads.server.ts': '',
  'app/models/users.server.ts': '',
  'app/services/qr.server.ts': '',
  'app/utils/misc.ts': '',
  'app/utils/private-files.server.ts': '',
  'app/validation/teams.ts': '',
  'drizzle/schema.ts': '',
}

// [what, the rule that must fire, the probe's file, its import, the module the import reaches]
const FORBIDDEN: [string, string, string, string, string][] = [
  [
    'validation importing a domain module',
    'validation-imports-nothing-of-the-app',
    'app/validation/zz-1.ts',
    "import { probe as x } from '#app/teams/plans'",
    'app/teams/plans.ts',
  ],
  [
    'validation importing utils',
    'validation-imports-nothing-of-the-app',
    'app/validation/zz-2.ts',
    "import { probe as x } from '#app/utils/misc'",
    'app/utils/misc.ts',
  ],
  [
    'a service importing a domain module',
    'services-import-no-domain-model-component-or-route',
    'app/services/zz-3.server.ts',
    "import { probe as x } from '#app/auth/rate-limit.server'",
    'app/auth/rate-limit.server.ts',
  ],
  [
    'a service importing a model',
    'services-import-no-domain-model-component-or-route',
    'app/services/zz-4.server.ts',
    "import { probe as x } from '#app/models/users.server'",
    'app/models/users.server.ts',
  ],
  [
    'a util importing a domain module',
    'utils-import-no-domain-component-or-route',
    'app/utils/zz-5.server.ts',
    "import { probe as x } from '#app/media/uploads.server'",
    'app/media/uploads.server.ts',
  ],
  [
    'a util importing a component other than ui/',
    'utils-import-no-domain-component-or-route',
    'app/utils/zz-6.ts',
    "import { probe as x } from '#app/components/forms'",
    'app/components/forms.tsx',
  ],
  [
    'a component importing app/root.tsx',
    'components-import-no-model-database-or-route',
    'app/components/cards/zz-7.tsx',
    "import { probe as x } from '#app/root'",
    'app/root.tsx',
  ],
  [
    'a component importing a model',
    'components-import-no-model-database-or-route',
    'app/components/zz-8.tsx',
    "import { probe as x } from '#app/models/users.server'",
    'app/models/users.server.ts',
  ],
  [
    'a component importing the database',
    'components-import-no-model-database-or-route',
    'app/components/zz-9.tsx',
    "import { probe as x } from '#drizzle/schema'",
    'drizzle/schema.ts',
  ],
  [
    "a component importing a route (even a loader's type)",
    'components-import-no-model-database-or-route',
    'app/components/zz-10.tsx',
    "import type { probe as x } from '#app/routes/onboarding'",
    'app/routes/onboarding.tsx',
  ],
  [
    'a component importing a value of a .server module',
    'components-import-only-types-of-server-modules',
    'app/components/zz-11.tsx',
    "import { probe as x } from '#app/auth/guards.server'",
    'app/auth/guards.server.ts',
  ],
  [
    'a model importing a domain module',
    'models-only-query',
    'app/models/zz-12.server.ts',
    "import { probe as x } from '#app/auth/guards.server'",
    'app/auth/guards.server.ts',
  ],
  [
    'a model importing a service',
    'models-only-query',
    'app/models/zz-13.server.ts',
    "import { probe as x } from '#app/services/qr.server'",
    'app/services/qr.server.ts',
  ],
  [
    'a model importing a component',
    'models-only-query',
    'app/models/zz-14.server.ts',
    "import { probe as x } from '#app/components/forms'",
    'app/components/forms.tsx',
  ],
  [
    'a model importing a route, by a relative path',
    'models-only-query',
    'app/models/zz-15.server.ts',
    "import { probe as x } from '../routes/onboarding'",
    'app/routes/onboarding.tsx',
  ],
  [
    'a domain module importing a route',
    'domain-imports-no-component-or-route',
    'app/cards/zz-16.server.ts',
    "import { probe as x } from '#app/routes/onboarding'",
    'app/routes/onboarding.tsx',
  ],
  [
    'a domain module importing app/root.tsx',
    'domain-imports-no-component-or-route',
    'app/team-admin/zz-17.server.ts',
    "import { probe as x } from '#app/root'",
    'app/root.tsx',
  ],
  [
    'a domain module importing a component',
    'domain-imports-no-component-or-route',
    'app/people/zz-18.server.ts',
    "import { probe as x } from '#app/components/forms'",
    'app/components/forms.tsx',
  ],
  [
    'the database importing a model',
    'database-imports-only-utils-and-validation',
    'drizzle/zz-19.server.ts',
    "import { probe as x } from '#app/models/users.server'",
    'app/models/users.server.ts',
  ],
  [
    'the database importing a domain module',
    'database-imports-only-utils-and-validation',
    'drizzle/zz-20.server.ts',
    "import { probe as x } from '#app/auth/guards.server'",
    'app/auth/guards.server.ts',
  ],
  [
    'the database importing a service',
    'database-imports-only-utils-and-validation',
    'drizzle/zz-21.server.ts',
    "import { probe as x } from '#app/services/qr.server'",
    'app/services/qr.server.ts',
  ],
]

const withImports = (...targets: string[]) =>
  targets
    .map((t, i) => `import { probe as x${i} } from '${t}'\nexport const y${i} = [x${i}]`)
    .join('\n')

const breach = {
  'app/validation/zz.ts': withImports('#app/teams/plans'),
  'app/teams/plans.ts': '',
}
const known = {
  rule: 'validation-imports-nothing-of-the-app',
  from: 'app/validation/zz.ts',
  to: 'app/teams/plans.ts',
}
const gone = { rule: 'no-folder-cycle', from: 'app/cards', to: 'app/teams' }

// Each tree is checked once, all of them side by side (a check starts node and dependency-cruiser).
const trees = {
  forbidden: tree({
    ...TARGETS,
    ...Object.fromEntries(
      FORBIDDEN.map(([, , file, code]) => [file, `${code}\nexport const y = [x]`]),
    ),
  }),
  folderCycle: tree({
    'app/cards/a.ts': withImports('#app/teams/b'),
    'app/teams/b.ts': '',
    'app/teams/c.ts': withImports('#app/cards/d'),
    'app/cards/d.ts': '',
  }),
  fileCycle: tree({
    'app/cards/a.ts': withImports('#app/cards/b'),
    'app/cards/b.ts': withImports('./a'),
  }),
  allowed: tree({
    ...TARGETS,
    'app/routes/zz-route.tsx': withImports(
      '#app/components/forms',
      '#app/cards/card-paths',
      '#app/models/users.server',
      '#app/utils/misc',
    ),
    'app/root.tsx': withImports('#app/components/ui/button'),
    'app/components/zz-component.tsx': withImports(
      '#app/components/ui/button',
      '#app/validation/teams',
      '#app/cards/card-paths',
      '#app/utils/misc',
    ),
    'app/components/zz-types.tsx':
      "import type { probe as x } from '#app/auth/guards.server'\nexport type Y = typeof x",
    'app/cards/zz-domain.server.ts': withImports(
      '#app/models/users.server',
      '#app/services/qr.server',
      '#app/teams/plans',
      '#app/validation/teams',
      '#app/env.server',
      '#drizzle/schema',
    ),
    'app/models/zz-model.server.ts': withImports(
      '#drizzle/schema',
      '#app/validation/teams',
      '#app/utils/misc',
      './users.server',
    ),
    'app/services/zz-service.server.ts': withImports(
      './qr.server',
      '#app/utils/misc',
      '#app/validation/teams',
    ),
    'app/utils/zz-util.ts': withImports(
      '#app/components/ui/button',
      './misc',
      '#app/validation/teams',
    ),
    'drizzle/zz-db.server.ts': withImports(
      '#app/utils/private-files.server',
      '#app/validation/teams',
      './schema',
    ),
  }),
  known: tree(breach, [known]),
  stale: tree(breach, [known, gone]),
  update: tree(breach),
  newFolder: tree({ 'app/zz-new-folder/a.ts': '' }),
}

type Runs = {
  forbidden: { status: number; found: Violation[] }
  folderCycle: { status: number; found: Violation[] }
  fileCycle: { status: number; found: Violation[] }
  allowed: Outcome
  known: Outcome
  stale: Outcome
  update: Outcome
  newFolder: Outcome
}
let runs: Runs

beforeAll(async () => {
  const [forbidden, folderCycle, fileCycle, allowed, known, stale, update, newFolder] =
    await Promise.all([
      violations(trees.forbidden),
      violations(trees.folderCycle),
      violations(trees.fileCycle),
      check(trees.allowed),
      check(trees.known),
      check(trees.stale),
      check(trees.update, '--update-baseline'),
      check(trees.newFolder),
    ])
  runs = { forbidden, folderCycle, fileCycle, allowed, known, stale, update, newFolder }
}, 120_000)

describe('an import the layer table forbids fails the check', () => {
  test('the check exits non-zero', () => {
    expect(runs.forbidden.status).toBe(1)
  })

  test.each(FORBIDDEN)('%s', (_, rule, from, __, to) => {
    expect(runs.forbidden.found).toContainEqual({ rule, from, to })
  })
})

describe('cycles fail the check', () => {
  test('two folders that import each other (no file cycle)', () => {
    const { status, found } = runs.folderCycle
    expect(status).toBe(1)
    expect(found).toContainEqual({ rule: 'no-folder-cycle', from: 'app/cards', to: 'app/teams' })
    expect(found).toContainEqual({ rule: 'no-folder-cycle', from: 'app/teams', to: 'app/cards' })
    expect(found.filter((v) => v.rule !== 'no-folder-cycle')).toEqual([])
  })

  test('two files that import each other', () => {
    const { status, found } = runs.fileCycle
    expect(status).toBe(1)
    expect(found.map((v) => v.rule)).toContain('no-file-cycle')
  })
})

describe('the imports the layer table allows pass', () => {
  test('every floor importing what it may', () => {
    expect(runs.allowed.output).toContain('dependency check: 0 violations')
    expect(runs.allowed.status).toBe(0)
  })
})

describe('the baseline of known violations', () => {
  test('a known violation passes', () => {
    expect(runs.known.output).toContain('1 violations, 1 of them known')
    expect(runs.known.status).toBe(0)
  })

  test('an entry that no longer occurs fails, so the baseline only shrinks', () => {
    expect(runs.stale.status).toBe(1)
    expect(runs.stale.output).toContain('no longer occur')
    expect(runs.stale.output).toContain('no-folder-cycle: app/cards → app/teams')
  })

  test('--update-baseline writes what it finds', () => {
    expect(runs.update.status).toBe(0)
    const written = readFileSync(path.join(trees.update, BASELINE_FILE), 'utf8')
    expect(JSON.parse(written)).toEqual([known])
  })
})

describe('the floors', () => {
  test('a folder of app/ on no floor fails the check', () => {
    expect(runs.newFolder.status).toBe(1)
    expect(runs.newFolder.output).toContain('app/zz-new-folder/ sits on no floor')
  })

  test('every file and folder of app/ and drizzle/ sits on one floor, and every floor path exists', () => {
    expect(floorProblems(process.cwd())).toEqual([])
    expect(missingFloorPaths(process.cwd())).toEqual([])
  })

  test("docs/architecture.md's floor table is the one scripts/dependency-floors.cjs generates", () => {
    const docs = readFileSync('docs/architecture.md', 'utf8')
    expect(docsSection(docs)).toBe(floorsMarkdown(loadFloors(process.cwd())))
  })
})
