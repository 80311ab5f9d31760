// Issue 14's acceptance: no screen of the role areas reads fixed sample data. The spec's sample
// screens show fixed numbers (12 agencies, 2,350 end users, a team of 3) and in-memory rows;
// here every figure comes from the database, so none of those constants may appear in app/.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) return sourceFiles(file)
    return /\.(tsx?|css)$/.test(name) ? [file] : []
  })
}

const SAMPLE_MARKERS: [RegExp, string][] = [
  [/\b2,?350\b/, "the sample '2,350 end users'"],
  [/\b12 agencies\b/i, "the sample '12 agencies'"],
  [/\bteamMemberCount\s*[:=]\s*3\b/, 'the fixed team member count of 3'],
  [/\bassignedToYou\b/, "the sample end users' assignedToYou flag"],
  [/\blastActive:\s*['"`]/, 'a lastActive written as text instead of read from sign-ins'],
  [
    /\b(sample|mock|fake|dummy)(Data|Users|Agencies|Stats|Members|Rows)\b/i,
    'a sample data constant',
  ],
]

test('no file under app/ holds the spec’s sample data', () => {
  const hits: string[] = []
  for (const file of sourceFiles('app')) {
    const text = readFileSync(file, 'utf8')
    for (const [pattern, what] of SAMPLE_MARKERS) {
      if (pattern.test(text)) hits.push(`${file}: ${what}`)
    }
  }
  expect(hits).toEqual([])
})

test('the markers find sample data where it exists', () => {
  const sample =
    "const sampleUsers = [{ name: 'A', lastActive: '2 hours ago', assignedToYou: true }]"
  const found = SAMPLE_MARKERS.filter(([pattern]) => pattern.test(sample)).map(([, what]) => what)
  expect(found.length).toBeGreaterThanOrEqual(3)
  expect('Total end users: 2,350').toMatch(/\b2,?350\b/)
})
