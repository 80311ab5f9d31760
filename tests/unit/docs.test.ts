// The README stays a front door (issue 27 point 5) and the guides behind it stay reachable: the
// README is at most 150 lines, every relative link in it, SECURITY.md and docs/ leads to a file
// and heading that exist, the ADR index lists every record, the configuration guide has a row
// for exactly the variables .env.example lists, and the architecture overview says what each
// dependency is for.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) return markdownFiles(file)
    return name.endsWith('.md') ? [file] : []
  })
}

const documents = ['README.md', 'SECURITY.md', ...markdownFiles('docs')]

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(markdown: string) {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```$/gm, '')
  return new Set(
    [...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((match) =>
      (match[1] ?? '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  )
}

/** Relative links of a document: [text](target), outside code blocks and inline code. */
function relativeLinks(markdown: string) {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '')
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z]+:/i.test(target))
}

describe('the README', () => {
  const readme = readFileSync('README.md', 'utf8')

  test('is at most 150 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(150)
  })

  test('links every guide in docs/ and the ADR index', () => {
    const linked = new Set(relativeLinks(readme).map((target) => target.split('#')[0]))
    const guides = readdirSync('docs')
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`)
    expect(guides.length).toBeGreaterThanOrEqual(6)
    expect(guides.filter((guide) => !linked.has(guide))).toEqual([])
    expect(linked.has('docs/decisions/README.md')).toBe(true)
    expect(linked.has('SECURITY.md')).toBe(true)
  })
})

describe('relative links', () => {
  test.each(documents)('every link in %s resolves to a file and heading', (document) => {
    const links = relativeLinks(readFileSync(document, 'utf8'))
    const broken = links.filter((target) => {
      const [file = '', anchor] = target.split('#')
      const resolved = file === '' ? document : path.join(path.dirname(document), file)
      if (!existsSync(resolved)) return true
      if (anchor === undefined) return false
      return !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)
    })
    expect(broken).toEqual([])
  })
})

describe('the ADR index', () => {
  const index = readFileSync('docs/decisions/README.md', 'utf8')
  const rows = index.split('\n').filter((line) => /^\| \[\d{3}\]/.test(line))

  test('lists every record in docs/decisions, each with a one-line summary', () => {
    const records = readdirSync('docs/decisions').filter((name) => /^\d{3}-.+\.md$/.test(name))
    expect(records.length).toBeGreaterThan(30)
    for (const record of records) {
      const row = rows.find((line) => line.includes(`](${record})`))
      expect(row, `${record} has no line in docs/decisions/README.md`).toBeDefined()
      const summary = (row ?? '').split('|')[2]?.trim() ?? ''
      expect(summary.length, `${record}'s summary`).toBeGreaterThan(10)
    }
    expect(rows.length).toBe(records.length)
  })

  test("each line's number is its record's", () => {
    for (const row of rows) {
      const [, number, file] = /^\| \[(\d{3})\]\(([^)]+)\)/.exec(row) ?? []
      expect(file?.startsWith(`${number}-`), row).toBe(true)
    }
  })
})

describe('docs/configuration.md', () => {
  const guide = readFileSync('docs/configuration.md', 'utf8')
  const documented = new Set(
    guide
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...(line.split(' | ')[0] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)])
      .map((match) => match[1] ?? ''),
  )
  const listed = new Set(
    [...readFileSync('.env.example', 'utf8').matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map(
      (match) => match[1] ?? '',
    ),
  )

  test('has a row for every variable .env.example lists', () => {
    expect(listed.size).toBeGreaterThan(30)
    expect([...listed].filter((name) => !documented.has(name))).toEqual([])
  })

  test('has no row for a variable .env.example does not list', () => {
    expect([...documented].filter((name) => !listed.has(name))).toEqual([])
  })
})

test('the architecture overview says what every dependency is for', () => {
  const guide = readFileSync('docs/architecture-overview.md', 'utf8')
  const start = guide.indexOf('## Dependencies and what they are for')
  const section = guide.slice(start, guide.indexOf('\n## ', start + 1))
  const named = new Set([...section.matchAll(/`(@?[a-z0-9][\w./*-]*)`/g)].map((m) => m[1] ?? ''))
  const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
    dependencies: Record<string, string>
    devDependencies: Record<string, string>
  }
  const packages = [
    ...Object.keys(manifest.dependencies),
    ...Object.keys(manifest.devDependencies),
  ].filter((name) => !(name.startsWith('@types/') && named.has('@types/*')))
  expect(packages.filter((name) => !named.has(name))).toEqual([])
})
