// The import graph of app/ and drizzle/, read from the code (issue 40 point 1, ADR 064).
// Prints the folder pairs that import each other, the folder cycles (strongly connected
// components of the folder graph), the file cycles and the imports that climb the layer table of
// docs/architecture.md. Every import counts, `import type` included: a type import is still a
// dependency a reader has to follow. `--json` prints the numbers only; `--check` exits 1 when the
// folder graph is not a DAG, a file cycle exists or more than 8 imports climb.
//
//   npx tsx scripts/import-graph.ts [--json] [--check] [--verbose]
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '..')
const SOURCE = /\.(ts|tsx)$/
const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx']

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return filesUnder(file)
    return SOURCE.test(entry.name) ? [file] : []
  })
}

function resolveSpecifier(from: string, specifier: string): string | null {
  let base: string
  if (specifier.startsWith('#app/')) base = path.join(ROOT, 'app', specifier.slice(5))
  else if (specifier.startsWith('#drizzle/')) base = path.join(ROOT, 'drizzle', specifier.slice(9))
  else if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier)
  else return null
  for (const extension of EXTENSIONS) {
    const candidate = base + extension
    try {
      if (statSync(candidate).isFile()) return candidate
    } catch {}
  }
  return null
}

const IMPORT_PATTERNS = [
  /\b(?:import|export)\s+(?:type\s+)?[^'";]*?\sfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*['"]([^'"]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
]

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '')
  const found = new Set<string>()
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const resolved = match[1] ? resolveSpecifier(file, match[1]) : null
      if (resolved && resolved !== file) found.add(resolved)
    }
  }
  return [...found]
}

// A node of the folder graph: a top folder of app/ (`app/cards`), a file at app/'s top
// (`app/root.tsx`), or `drizzle`.
function folderOf(file: string): string {
  const relative = path.relative(ROOT, file).split(path.sep)
  if (relative[0] === 'drizzle') return 'drizzle'
  if (relative.length === 2) return relative.join('/')
  return `${relative[0]}/${relative[1]}`
}

// The layer table of docs/architecture.md, lowest first. A folder not named here is domain.
// An import climbs when it goes to a higher rank than the importer's.
const RANK: Record<string, number> = {
  'app/validation': 0,
  'app/env.server.ts': 1,
  'app/utils': 1,
  'app/services': 2,
  drizzle: 3,
  'app/models': 4,
  // domain: 5
  'app/components': 6,
  'app/routes': 7,
  'app/root.tsx': 7,
  'app/routes.ts': 7,
  'app/entry.server.tsx': 8,
  'app/entry.client.tsx': 8,
  'app/load-context.ts': 8,
  // What plugs the domain together: the job registry, start-up, the demo seed.
  'app/job-handlers.server.ts': 8,
  'app/prepare-database.server.ts': 8,
  'app/demo': 8,
}
const DOMAIN_RANK = 5

function rankOf(folder: string, file: string): number {
  // `components/ui` is the primitives utils may import (the table's one exception).
  if (file.includes(`${path.sep}components${path.sep}ui${path.sep}`)) return 1
  return RANK[folder] ?? DOMAIN_RANK
}

// Tarjan's strongly connected components.
function components(graph: Map<string, Set<string>>): string[][] {
  let index = 0
  const indices = new Map<string, number>()
  const lowlinks = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const result: string[][] = []
  function visit(node: string) {
    indices.set(node, index)
    lowlinks.set(node, index)
    index++
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next)
        lowlinks.set(node, Math.min(lowlinks.get(node) ?? 0, lowlinks.get(next) ?? 0))
      } else if (onStack.has(next)) {
        lowlinks.set(node, Math.min(lowlinks.get(node) ?? 0, indices.get(next) ?? 0))
      }
    }
    if (lowlinks.get(node) === indices.get(node)) {
      const component: string[] = []
      let member: string | undefined
      do {
        member = stack.pop()
        if (member === undefined) break
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      if (component.length > 1 || graph.get(node)?.has(node)) result.push(component.sort())
    }
  }
  for (const node of [...graph.keys()].sort()) if (!indices.has(node)) visit(node)
  return result
}

const files = [...filesUnder(path.join(ROOT, 'app')), ...filesUnder(path.join(ROOT, 'drizzle'))]
const fileGraph = new Map<string, Set<string>>()
const folderGraph = new Map<string, Set<string>>()
const folderEdges = new Map<string, string[]>()
const climbing: string[] = []
const drizzleIntoApp: string[] = []
for (const file of files) {
  const from = folderOf(file)
  fileGraph.set(file, new Set())
  if (!folderGraph.has(from)) folderGraph.set(from, new Set())
  for (const target of importsOf(file)) {
    fileGraph.get(file)?.add(target)
    const to = folderOf(target)
    const line = `${path.relative(ROOT, file)} → ${path.relative(ROOT, target)}`
    if (from === 'drizzle' && to !== 'drizzle') drizzleIntoApp.push(line)
    if (to === from) continue
    folderGraph.get(from)?.add(to)
    folderEdges.set(`${from} → ${to}`, [...(folderEdges.get(`${from} → ${to}`) ?? []), line])
    if (rankOf(to, target) > rankOf(from, file)) climbing.push(line)
  }
}

const pairs: string[] = []
for (const [from, targets] of folderGraph) {
  for (const to of targets) {
    if (from < to && folderGraph.get(to)?.has(from)) pairs.push(`${from} ⇄ ${to}`)
  }
}
const folderCycles = components(folderGraph)
const fileCycles = components(fileGraph).map((cycle) => cycle.map((f) => path.relative(ROOT, f)))

const numbers = {
  files: files.length,
  folders: folderGraph.size,
  folderPairs: pairs.length,
  folderCycles: folderCycles.length,
  foldersInCycles: folderCycles.reduce((sum, cycle) => sum + cycle.length, 0),
  fileCycles: fileCycles.length,
  climbingImports: climbing.length,
  drizzleImportsOfApp: drizzleIntoApp.length,
}

const args = new Set(process.argv.slice(2))
if (args.has('--json')) {
  console.log(JSON.stringify(numbers, null, 2))
} else {
  console.log(numbers)
  console.log(`\nFolder pairs importing each other (${pairs.length}):`)
  for (const pair of pairs.sort()) {
    const [a, b] = pair.split(' ⇄ ')
    console.log(`  ${pair}`)
    if (args.has('--verbose')) {
      for (const edge of [
        ...(folderEdges.get(`${a} → ${b}`) ?? []),
        ...(folderEdges.get(`${b} → ${a}`) ?? []),
      ])
        console.log(`      ${edge}`)
    }
  }
  console.log(`\nFolder cycles (${folderCycles.length}):`)
  for (const cycle of folderCycles) console.log(`  [${cycle.length}] ${cycle.join(', ')}`)
  console.log(`\nFile cycles (${fileCycles.length}):`)
  for (const cycle of fileCycles) console.log(`  ${cycle.join(', ')}`)
  console.log(`\nClimbing imports (${climbing.length}):`)
  for (const line of climbing.sort()) console.log(`  ${line}`)
  console.log(`\ndrizzle/ importing app/ (${drizzleIntoApp.length}):`)
  for (const line of drizzleIntoApp.sort()) console.log(`  ${line}`)
}

if (args.has('--check')) {
  const failed = numbers.folderCycles > 0 || numbers.fileCycles > 0 || numbers.climbingImports > 8
  process.exit(failed ? 1 : 0)
}
