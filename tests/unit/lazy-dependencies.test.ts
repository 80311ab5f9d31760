// ADR 114: packages that a few requests need and every process would otherwise hold in its heap
// are loaded by `await import()` where they are first used, never by a static import the server
// runs at start-up. A static value import of one of them anywhere in the server's code fails here
// (`import type` is erased by the build and allowed).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'

/** Each package and the heap it added to the server's process when imported (ADR 114). */
const LOADED_ON_FIRST_USE: Record<string, string> = {
  '@simplewebauthn/server': '5.3 MB: passkeys, a second sign-in step few take',
  'passkit-generator': '4.6 MB with node-forge: Apple Wallet passes',
  '@node-saml/node-saml': '3.5 MB with its XML signature and XPath libraries: SAML sign-in',
  undici: '4.4 MB: the guarded dispatchers of webhooks and identity providers',
  'tesseract.js': 'a paper card read on the server (ADR 101)',
  stripe: 'Checkout and the billing portal (ADR 051)',
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

/**
 * `import x from 'pkg'`, `import { a } from 'pkg/sub'`, `export … from 'pkg'` and `import 'pkg'`,
 * but not `import type …` (erased by the build) or `import('pkg')`.
 */
const staticImport = (name: string) =>
  new RegExp(
    `^\\s*(?:(?:import|export)\\s+(?!type\\b)(?:(?!\\b(?:from|import)\\b)[\\s\\S])*\\bfrom\\s+|import\\s+)['"]${escapeRegExp(name)}(?:/[^'"]*)?['"]`,
    'm',
  )

test('packages loaded on first use are never imported statically by the server', () => {
  const files = [...sourceFiles('app'), ...sourceFiles('drizzle'), 'server.ts']
  expect(files.length).toBeGreaterThan(100)
  const offenders: string[] = []
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    for (const name of Object.keys(LOADED_ON_FIRST_USE)) {
      if (staticImport(name).test(text)) offenders.push(`${file}: ${name}`)
    }
  }
  expect(offenders).toEqual([])
})

test('the check sees a static import, and lets a type import and a dynamic one through', () => {
  const statement = staticImport
  expect(statement('undici').test("import { Agent } from 'undici'")).toBe(true)
  expect(
    statement('@simplewebauthn/server').test(
      "import {\n  verify,\n} from '@simplewebauthn/server/helpers'",
    ),
  ).toBe(true)
  expect(statement('undici').test("import type { Agent } from 'undici'")).toBe(false)
  expect(statement('undici').test("const { Agent } = await import('undici')")).toBe(false)
  expect(statement('stripe').test("import 'stripe'")).toBe(true)
  expect(statement('stripe').test("import { x } from 'stripe-like'")).toBe(false)
  // Imports are written without semicolons: one statement's match never runs into the next's.
  expect(
    statement('undici').test("import { a } from 'b'\nimport type { Agent } from 'undici'"),
  ).toBe(false)
})
