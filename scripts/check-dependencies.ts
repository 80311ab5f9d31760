// The dependency check of `npm test` (issue 40 point 2, ADR 060): dependency-cruiser reads the
// imports of app/ and drizzle/ and applies .dependency-cruiser.cjs (no folder cycle, no file
// cycle, the layer table of docs/architecture.md). Today's breaches are listed one by one in
// dependency-baseline.json; the check fails on a violation that is not listed there, and on a
// listed one that no longer occurs, so the list can only shrink and says exactly what is left.
// It also fails when a file or folder of app/ sits on no floor of scripts/dependency-floors.cjs.
//
//   node scripts/check-dependencies.ts                    the check (npm run check:deps)
//   node scripts/check-dependencies.ts --update-baseline  rewrite the baseline from today's code
//   node scripts/check-dependencies.ts --write-docs       regenerate docs/architecture.md's floors
//   node scripts/check-dependencies.ts --json             the violations found, as JSON (same status)
//
// Paths are read from the working directory (the tests run it in a temporary tree).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { cruise, type IForbiddenRuleType } from 'dependency-cruiser'
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config'

const require = createRequire(import.meta.url)

export const BASELINE_FILE = 'dependency-baseline.json'
export const DOCS_FILE = 'docs/architecture.md'
export const DOCS_START = '<!-- floors:start -->'
export const DOCS_END = '<!-- floors:end -->'

type Floor = { name: string; holds: string; paths: string[] }
type Rule = { name: string; comment?: string }
export type Violation = { rule: string; from: string; to: string }

function loadConfig(cwd: string) {
  return require(path.join(cwd, '.dependency-cruiser.cjs')) as {
    forbidden: (IForbiddenRuleType & Rule)[]
    options: Record<string, unknown> & { tsConfig: { fileName: string } }
  }
}

export function loadFloors(cwd: string): Floor[] {
  return (require(path.join(cwd, 'scripts/dependency-floors.cjs')) as { floors: Floor[] }).floors
}

const key = (v: Violation) => `${v.rule}: ${v.from} → ${v.to}`
const byKey = (a: Violation, b: Violation) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)

/** Every violation of the rules in the tree at `cwd`, sorted, one per rule and import. */
export async function findViolations(cwd: string): Promise<Violation[]> {
  const config = loadConfig(cwd)
  const roots = ['app', 'drizzle'].filter((root) => exists(path.join(cwd, root)))
  const result = await cruise(
    roots,
    { ...config.options, baseDir: cwd, validate: true, ruleSet: { forbidden: config.forbidden } },
    undefined,
    { tsConfig: extractTSConfig(path.join(cwd, config.options.tsConfig.fileName)) },
  )
  const output = result.output
  if (typeof output === 'string') throw new Error('dependency-cruiser answered text, not a result')
  const seen = new Map<string, Violation>()
  for (const violation of output.summary.violations) {
    const found = { rule: violation.rule.name, from: violation.from, to: violation.to }
    seen.set(key(found), found)
  }
  return [...seen.values()].sort(byKey)
}

function exists(file: string) {
  try {
    statSync(file)
    return true
  } catch {
    return false
  }
}

/** Files and folders of app/ and drizzle/ on no floor, and floor paths that match nothing. */
export function floorProblems(cwd: string, floors = loadFloors(cwd)): string[] {
  const paths = floors.flatMap((floor) => floor.paths)
  const problems: string[] = []
  const entries: string[] = []
  if (exists(path.join(cwd, 'drizzle'))) entries.push('drizzle/')
  if (exists(path.join(cwd, 'app'))) {
    for (const entry of readdirSync(path.join(cwd, 'app'), { withFileTypes: true })) {
      if (entry.isDirectory()) entries.push(`app/${entry.name}/`)
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        entries.push(`app/${entry.name}`)
      }
    }
  }
  for (const entry of entries) {
    const on = paths.filter((p) => p === entry)
    if (on.length === 0)
      problems.push(`${entry} sits on no floor: add it to scripts/dependency-floors.cjs`)
    if (on.length > 1) problems.push(`${entry} sits on ${on.length} floors`)
  }
  return problems
}

/** Paths on a floor that are not in the tree at `cwd` (a folder moved or removed). */
export function missingFloorPaths(cwd: string, floors = loadFloors(cwd)): string[] {
  return floors.flatMap((floor) => floor.paths).filter((p) => !exists(path.join(cwd, p)))
}

/** The floor table of docs/architecture.md, as scripts/dependency-floors.cjs has it (padded as
 * biome formats a Markdown table). */
export function floorsMarkdown(floors: Floor[]): string {
  const header = ['Floor', 'Name', 'Holds', 'Folders and files']
  const rows = floors.map((floor, index) => [
    String(index + 1),
    floor.name,
    floor.holds,
    floor.paths.map((p) => `\`${p}\``).join(', '),
  ])
  const widths = header.map((_, column) =>
    Math.max(...[header, ...rows].map((row) => (row[column] ?? '').length)),
  )
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`
  return [
    DOCS_START,
    '<!-- Generated from scripts/dependency-floors.cjs by `node scripts/check-dependencies.ts --write-docs`; tests/unit/dependency-check.test.ts fails when it differs. -->',
    '',
    line(header),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map(line),
    '',
    DOCS_END,
  ].join('\n')
}

/** The generated section of the docs as it stands in the file. */
export function docsSection(text: string): string | undefined {
  const start = text.indexOf(DOCS_START)
  const end = text.indexOf(DOCS_END)
  if (start < 0 || end < start) return undefined
  return text.slice(start, end + DOCS_END.length)
}

export function readBaseline(cwd: string): Violation[] {
  const file = path.join(cwd, BASELINE_FILE)
  if (!exists(file)) return []
  return JSON.parse(readFileSync(file, 'utf8')) as Violation[]
}

export function writeBaseline(cwd: string, violations: Violation[]) {
  const lines = [...violations].sort(byKey).map((v) => `  ${JSON.stringify(v)}`)
  const text = lines.length === 0 ? '[]\n' : `[\n${lines.join(',\n')}\n]\n`
  writeFileSync(path.join(cwd, BASELINE_FILE), text)
}

/** What the check reports: violations not in the baseline, and baseline entries that are gone. */
export function compare(found: Violation[], baseline: Violation[]) {
  const known = new Set(baseline.map(key))
  const now = new Set(found.map(key))
  return {
    added: found.filter((v) => !known.has(key(v))),
    gone: baseline.filter((v) => !now.has(key(v))),
  }
}

async function main(cwd: string, args: string[]) {
  if (args.includes('--write-docs')) {
    const file = path.join(cwd, DOCS_FILE)
    const text = readFileSync(file, 'utf8')
    const section = docsSection(text)
    if (!section) throw new Error(`${DOCS_FILE} has no ${DOCS_START} … ${DOCS_END} section`)
    writeFileSync(file, text.replace(section, floorsMarkdown(loadFloors(cwd))))
    console.log(`${DOCS_FILE}: floor table written`)
    return 0
  }
  const found = await findViolations(cwd)
  if (args.includes('--update-baseline')) {
    writeBaseline(cwd, found)
    console.log(`${BASELINE_FILE}: ${found.length} known violations written`)
    return 0
  }
  const { added, gone } = compare(found, readBaseline(cwd))
  const problems = floorProblems(cwd)
  const failed = added.length > 0 || gone.length > 0 || problems.length > 0
  if (args.includes('--json')) {
    console.log(JSON.stringify(found, null, 2))
    return failed ? 1 : 0
  }
  const rules = new Map(loadConfig(cwd).forbidden.map((rule) => [rule.name, rule.comment]))
  for (const problem of problems) console.log(`floors: ${problem}`)
  if (added.length > 0) {
    console.log(`\n${added.length} import(s) break the dependency rules (.dependency-cruiser.cjs):`)
    for (const v of added) console.log(`  ${key(v)}\n      ${rules.get(v.rule) ?? ''}`)
  }
  if (gone.length > 0) {
    console.log(
      `\n${gone.length} entr(y/ies) of ${BASELINE_FILE} no longer occur: remove them (node scripts/check-dependencies.ts --update-baseline, then review the diff: it may only shrink):`,
    )
    for (const v of gone) console.log(`  ${key(v)}`)
  }
  const counts = new Map<string, number>()
  for (const v of found) counts.set(v.rule, (counts.get(v.rule) ?? 0) + 1)
  console.log(
    `\ndependency check: ${found.length} violations, ${found.length - added.length} of them known (${
      [...counts].map(([rule, n]) => `${rule} ${n}`).join(', ') || 'none'
    }); ${added.length} new, ${gone.length} gone from the baseline: ${failed ? 'FAILED' : 'ok'}`,
  )
  return failed ? 1 : 0
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.cwd(), process.argv.slice(2))
}
