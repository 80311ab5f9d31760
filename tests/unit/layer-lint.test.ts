// Issue 27 §3: the direction routes → domain → models → database holds by lint (biome.json's
// noRestrictedImports overrides per folder). Each case writes a probe file in a copy of the
// folder's path inside a temporary directory that holds biome.json (so other tests walking app/
// never meet the probe), runs biome on it, and expects the rule to fire, or not for the allowed
// control imports.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'

const BIOME = path.resolve('node_modules/.bin/biome')
const root = mkdtempSync(path.join(tmpdir(), 'layer-probe-'))
// The project's configuration, without the git ignore file (the copy is not a repository).
const config = JSON.parse(readFileSync('biome.json', 'utf8'))
delete config.$schema
config.vcs = { enabled: false }
writeFileSync(path.join(root, 'biome.json'), JSON.stringify(config))

afterAll(() => rmSync(root, { recursive: true, force: true }))

let count = 0

/** biome's verdict on `code` placed in `folder`: the rule's diagnostics, or '' when it passes. */
function lint(folder: string, code: string) {
  count += 1
  const file = `${folder}/zz-layer-probe-${count}.server.ts`
  mkdirSync(path.join(root, folder), { recursive: true })
  writeFileSync(path.join(root, file), `${code}\nexport const probe = [x]\n`)
  try {
    execFileSync(BIOME, ['lint', '--only=style/noRestrictedImports', file], {
      cwd: root,
      stdio: 'pipe',
    })
    return ''
  } catch (error) {
    const { stdout, stderr } = error as { stdout: Buffer; stderr: Buffer }
    return `${stdout}${stderr}`
  }
}

describe('an import that climbs a layer fails lint', () => {
  test.each([
    [
      'a model importing a domain module',
      'app/models',
      "import { x } from '#app/crm/forwarding.server'",
    ],
    ['a model importing a route', 'app/models', "import { x } from '#app/routes/onboarding'"],
    ['a model importing a component', 'app/models', "import { x } from '#app/components/forms'"],
    ['a model importing a service', 'app/models', "import { x } from '#app/services/qr.server'"],
    ['a service importing a model', 'app/services', "import { x } from '#app/models/users.server'"],
    [
      'a component importing server code',
      'app/components',
      "import { x } from '#app/auth/guards.server'",
    ],
    [
      'a component importing a model',
      'app/components',
      "import { x } from '#app/models/users.server'",
    ],
    [
      'a domain module importing a route',
      'app/cards',
      "import { x } from '#app/routes/onboarding'",
    ],
    [
      'a domain module importing a component',
      'app/teams',
      "import { x } from '#app/components/forms'",
    ],
    // The screens' loaders and actions (app/people, app/team-admin) are domain modules too.
    [
      'a people module importing a component',
      'app/people',
      "import { x } from '#app/components/people/end-users-page'",
    ],
    [
      "the team admin's module importing a route",
      'app/team-admin',
      "import { x } from '#app/routes/dashboard.team-member.users'",
    ],
  ])('%s', (_, folder, code) => {
    expect(lint(folder, code)).toContain('noRestrictedImports')
  })
})

describe('imports that go down a layer pass', () => {
  test.each([
    ['a model importing the database', 'app/models', "import { x } from '#drizzle/schema'"],
    ['a model importing validation', 'app/models', "import { x } from '#app/validation/teams'"],
    [
      'a service importing a service',
      'app/services',
      "import { x } from '#app/services/qr.server'",
    ],
    [
      'a domain module importing a model',
      'app/cards',
      "import { x } from '#app/models/cards.server'",
    ],
    [
      'a component naming a server type',
      'app/components',
      "import type { Xy } from '#app/a.server'\nconst x: Xy = 1",
    ],
  ])('%s', (_, folder, code) => {
    expect(lint(folder, code)).toBe('')
  })
})
