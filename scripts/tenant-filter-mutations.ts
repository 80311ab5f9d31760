// Checks, by trying, that deleting any tenant filter from a model function makes a test fail.
// Each `organizationId` condition in app/models/*.server.ts is neutralised on its own (the
// column compared with itself, or the raw SQL condition dropped), the model isolation tests
// run, and the file is restored. Prints one line per mutant; exits 1 if any survived.
//   npm run mutate:tenant-filters            (PGlite; about 15 s a mutant, an hour in all)
//   npm run mutate:tenant-filters -- --from 26   (resumes an interrupted run at its 26th mutant)
import { type ChildProcess, spawn } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const MODELS = path.resolve('app/models')
const TEST = 'tests/integration/model-isolation.test.ts'

type Mutant = { file: string; line: number; before: string; after: string; index: number }

// Column = organizationId (drizzle), organizations.id = organizationId, and raw SQL filters.
const PATTERNS: { find: RegExp; replace: (match: RegExpExecArray) => string }[] = [
  {
    find: /eq\((\w+)\.organizationId, organizationId\)/g,
    replace: (m) => `eq(${m[1]}.organizationId, ${m[1]}.organizationId)`,
  },
  {
    find: /eq\(organizations\.id, organizationId\)/g,
    replace: () => 'eq(organizations.id, organizations.id)',
  },
  { find: /organization_id = \$\{organizationId\} and /g, replace: () => '' },
]

function findMutants(): Mutant[] {
  const mutants: Mutant[] = []
  for (const name of readdirSync(MODELS)
    .filter((f) => f.endsWith('.server.ts'))
    .sort()) {
    const file = path.join(MODELS, name)
    const source = readFileSync(file, 'utf8')
    for (const { find, replace } of PATTERNS) {
      for (const match of source.matchAll(find)) {
        const index = match.index ?? 0
        mutants.push({
          file,
          index,
          line: source.slice(0, index).split('\n').length,
          before: match[0],
          after: replace(match as RegExpExecArray),
        })
      }
    }
  }
  return mutants.sort((x, y) => x.file.localeCompare(y.file) || x.index - y.index)
}

/** The vitest run going on, ended with the script when it is interrupted. */
let running: ChildProcess | undefined

// Not spawnSync: a signal must reach the handler below while the tests run (tsx kills a child
// that does not answer its relayed SIGTERM within 30 ms, which would leave the mutant in place).
function runTests(): Promise<{ passed: boolean; failed: number }> {
  return new Promise((resolve) => {
    const child = spawn(
      'npx',
      ['vitest', 'run', TEST, '--project', 'integration-pglite', '--reporter', 'dot'],
      { env: { ...process.env, TEST_DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'ignore'] },
    )
    running = child
    let stdout = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
    })
    child.on('close', (status) => {
      running = undefined
      // biome-ignore lint/suspicious/noControlCharactersInRegex: strips colour codes
      const output = stdout.replace(/\x1b\[[0-9;]*m/g, '')
      const failed = /Tests\s+(\d+) failed/.exec(output)?.[1]
      resolve({ passed: status === 0, failed: Number(failed ?? 0) })
    })
  })
}

const mutants = findMutants()
const fromArgument = process.argv.indexOf('--from')
const from = fromArgument === -1 ? 1 : Number(process.argv[fromArgument + 1])
if (!Number.isInteger(from) || from < 1 || from > mutants.length) {
  console.error(`--from takes a mutant's number, 1 to ${mutants.length}`)
  process.exit(1)
}
const baseline = await runTests()
if (!baseline.passed) {
  console.error(`${TEST} fails without any mutation; fix it first.`)
  process.exit(1)
}

let survived = 0
// An interrupted run (Ctrl-C, or a kill's SIGTERM) must not leave a mutant in the source.
let restore: (() => void) | undefined
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.on(signal, () => {
    restore?.()
    running?.kill(signal)
    process.exit(code)
  })
}
console.log(`${mutants.length} tenant filters in app/models; each deleted in turn:\n`)
for (const [index, mutant] of mutants.entries()) {
  if (index + 1 < from) continue
  const original = readFileSync(mutant.file, 'utf8')
  const mutated =
    original.slice(0, mutant.index) +
    mutant.after +
    original.slice(mutant.index + mutant.before.length)
  restore = () => writeFileSync(mutant.file, original)
  writeFileSync(mutant.file, mutated)
  let outcome: Awaited<ReturnType<typeof runTests>>
  try {
    outcome = await runTests()
  } finally {
    restore()
    restore = undefined
  }
  if (outcome.passed) survived++
  const where = `${path.relative(process.cwd(), mutant.file)}:${mutant.line}`
  const verdict = outcome.passed
    ? 'SURVIVED (no test failed)'
    : `caught (${outcome.failed} tests failed)`
  console.log(`${String(index + 1).padStart(3)} ${verdict.padEnd(26)} ${where}  ${mutant.before}`)
}
const tried = mutants.length - from + 1
console.log(`\n${tried - survived} of ${tried} caught.`)
process.exit(survived === 0 ? 0 : 1)
