// .env.example lists every variable the app reads (issue 27 point 6): a newcomer finds each one
// there, and a variable added to the code without a line there fails this test.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) return sourceFiles(file)
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [file] : []
  })
}

const listed = new Set(
  [...readFileSync('.env.example', 'utf8').matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map(
    (match) => match[1] ?? '',
  ),
)

function variablesTheAppReads() {
  const names = new Set<string>()
  // The environment schema's keys, read once at boot.
  const schema = readFileSync('app/env.server.ts', 'utf8')
  for (const match of schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)) names.add(match[1] ?? '')
  // And every direct read outside it.
  for (const file of [
    ...sourceFiles('app'),
    ...sourceFiles('drizzle'),
    ...sourceFiles('scripts'),
    'server.ts',
  ]) {
    for (const match of readFileSync(file, 'utf8').matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/g))
      names.add(match[1] ?? '')
  }
  return [...names].sort()
}

test('every variable the app reads has its line in .env.example', () => {
  const read = variablesTheAppReads()
  expect(read.length).toBeGreaterThan(30)
  expect(read.filter((name) => !listed.has(name))).toEqual([])
})

test('.env.example lists nothing the app does not read', () => {
  const read = new Set(variablesTheAppReads())
  expect([...listed].filter((name) => !read.has(name))).toEqual([])
})
