// Issue 27 §3: one module per screen. A second path to a screen is a one-line re-export
// (contact.$ref.tsx); two route modules with the same code, even if they differ only in a
// string such as the role area they pass on, fail here.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { expect, test } from 'vitest'

const DIR = 'app/routes'
const files = readdirSync(DIR).sort()
const source = (file: string) => readFileSync(`${DIR}/${file}`, 'utf8')

/** Comments, layout and the text of string literals removed: what is left is the code's shape. */
function normalise(code: string) {
  return code
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:\\])\/\/.*$/gm, '$1')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''")
    .replace(/\s+/g, ' ')
    .trim()
}

const RE_EXPORT = /^export \{[^}]*\} from '';?$/

/** The module a re-export-only route module points at, else null. */
function reExportTarget(code: string) {
  if (!RE_EXPORT.test(normalise(code))) return null
  return code.match(/from '(\.\/[^']+)'/)?.[1] ?? null
}

test('no two route modules have the same code', () => {
  const byHash = new Map<string, string[]>()
  for (const file of files) {
    const code = source(file)
    if (reExportTarget(code)) continue
    const hash = createHash('sha256').update(normalise(code)).digest('hex')
    byHash.set(hash, [...(byHash.get(hash) ?? []), file])
  }
  const copies = [...byHash.values()].filter((group) => group.length > 1)
  expect(copies).toEqual([])
})

test('a re-export points at a route module that holds the screen itself', () => {
  for (const file of files) {
    const target = reExportTarget(source(file))
    if (!target) continue
    const path = ['.tsx', '.ts'].map((ext) => `${DIR}/${target.slice(2)}${ext}`).find(existsSync)
    expect(path, `${file} re-exports ${target}`).toBeDefined()
    expect(reExportTarget(readFileSync(path ?? '', 'utf8')), `${file} → ${target}`).toBeNull()
  }
})

test('the check finds a copy that differs only in a string and its comments', () => {
  const a = "// one\nexport const loader = () => load('end-user')\n"
  const b = "/* two */ export const loader = () =>\n  load('team-member')"
  expect(normalise(a)).toBe(normalise(b))
  expect(normalise(a)).not.toBe(normalise("export const loader = () => list('end-user')"))
})
