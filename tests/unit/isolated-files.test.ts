// A hoisted vi.mock in a file that shares its process would reach only the modules loaded after
// it, and outlive the file (tests/setup/isolated-files.ts): such a file runs alone, with its
// reason in ISOLATED_FILES, or spies instead.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import { ISOLATED_FILES } from '#tests/setup/isolated-files'

const root = path.resolve(import.meta.dirname, '../..')

function testFilesUnder(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts') || file.endsWith('.test.tsx'))
    .map((file) => path.posix.join(folder, file.split(path.sep).join('/')))
}

const mocksAModule = /^\s*vi\.mock\(/m

test('every test file with a hoisted vi.mock runs in a process of its own', () => {
  const files = [...testFilesUnder('tests'), ...testFilesUnder('app')]
  expect(files.length).toBeGreaterThan(200)
  const mocking = files.filter((file) =>
    mocksAModule.test(readFileSync(path.join(root, file), 'utf8')),
  )
  expect(mocking.filter((file) => !(file in ISOLATED_FILES))).toEqual([])
})

test('the check finds a hoisted vi.mock', () => {
  expect(mocksAModule.test("import { vi } from 'vitest'\nvi.mock('#app/x', () => ({}))\n")).toBe(
    true,
  )
  expect(mocksAModule.test('vi.spyOn(module, "x")\n// vi.mock would outlive it\n')).toBe(false)
})

test('every listed file exists', () => {
  for (const file of Object.keys(ISOLATED_FILES)) {
    expect(readdirSync(path.join(root, path.dirname(file)))).toContain(path.basename(file))
  }
})
