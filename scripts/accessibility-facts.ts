// The accessibility statement's facts (issue 45 point 6, ADR 100), read from the test suite that
// proves them: the WCAG tags and rules axe runs (e2e/axe.ts), the roles whose pages the crawl
// audits and in which theme (e2e/role-users.ts, e2e/accessibility.spec.ts), the signed-out pages,
// the dialogs and the phone width it audits, and the states the feature specs audit
// (expectAccessible). app/accessibility/statement-facts.ts holds what this wrote;
// tests/unit/accessibility-statement.test.ts fails when the two differ, so a change to the
// checks changes the published statement in the same commit.
//
//   npx tsx scripts/accessibility-facts.ts --write   rewrite app/accessibility/statement-facts.ts
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const FACTS_FILE = 'app/accessibility/statement-facts.ts'

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8')

function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) {
    throw new Error(`accessibility facts: ${what} not found (scripts/accessibility-facts.ts)`)
  }
  return value
}

const quoted = (text: string) => [...text.matchAll(/'([^']*)'/g)].map((match) => match[1] ?? '')

export type AccessibilityFacts = {
  standard: string
  level: string
  engine: string
  ruleTags: string[]
  extraRules: string[]
  crawledRoles: { role: string; host: 'platform' | 'agency'; dark: boolean }[]
  signedOutPages: string[]
  dialogs: string[]
  phoneWidth: number
  featureStates: string[]
}

export function collectAccessibilityFacts(): AccessibilityFacts {
  const axe = read('e2e/axe.ts')
  const ruleTags = quoted(must(/WCAG_TAGS = \[([^\]]*)\]/.exec(axe)?.[1], 'WCAG_TAGS'))
  const extraRules = [...axe.matchAll(/'([\w-]+)': \{ enabled: true \}/g)].map(
    (match) => match[1] ?? '',
  )
  // The highest WCAG version and level the tags name ("wcag22aa": 2.2, AA).
  const top = must(
    ruleTags
      .map((tag) => /^wcag(\d)(\d?)(a+)$/.exec(tag))
      .filter((match) => match !== null)
      .sort((a, b) => `${a[1]}${a[2] || '0'}${a[3]}`.localeCompare(`${b[1]}${b[2] || '0'}${b[3]}`))
      .at(-1),
    'a WCAG tag',
  )
  const lock = JSON.parse(read('package-lock.json')) as {
    packages: Record<string, { version?: string }>
  }
  const axeVersion = must(lock.packages['node_modules/axe-core']?.version, 'axe-core in the lock')

  const spec = read('e2e/accessibility.spec.ts')
  const users = read('e2e/role-users.ts')
  const roster = must(
    /export const PLATFORM_ROLE_USERS[\s\S]*?export const ROLE_USERS/.exec(users)?.[0],
    'the role users',
  )
  // The crawl leaves out the platform's end user (its pages are the platform team member's).
  const skipsPlatformEndUser = spec.includes(
    "!(user.role === 'end_user' && user.host === HOSTS.platform)",
  )
  must(skipsPlatformEndUser || null, "the crawl's CRAWLED rule")
  const crawledRoles = [...roster.matchAll(/\{\s*role: '(\w+)',\s*host: HOSTS\.(\w+),[^}]*\}/g)]
    .map((match) => ({
      role: match[1] ?? '',
      host: match[2] === 'platform' ? ('platform' as const) : ('agency' as const),
      dark: /theme: 'dark'/.test(match[0]),
    }))
    .filter((user) => !(user.role === 'end_user' && user.host === 'platform'))

  const signedOut = must(
    /test\(`signed out on[\s\S]*?for \(const path of \[([\s\S]*?)\]\)/.exec(spec)?.[1],
    'the signed-out pages',
  )
  const dialogs = [...spec.matchAll(/auditDialog\(\s*page,\s*report,\s*label,\s*'([^']+)'/g)].map(
    (match) => match[1] ?? '',
  )
  const phoneWidth = Number(must(/at a phone width \((\d+) px\)/.exec(spec)?.[1], 'phone width'))

  // The feature specs' own audits of the states they reach, by their literal labels.
  const featureStates = new Set<string>()
  for (const file of readdirSync(path.join(ROOT, 'e2e')).sort()) {
    if (!file.endsWith('.spec.ts') || file === 'accessibility.spec.ts') continue
    for (const match of read(`e2e/${file}`).matchAll(
      /expectAccessible\(\s*\w+,\s*(?:'([^']+)'|"([^"]+)")\s*\)/g,
    )) {
      featureStates.add(match[1] ?? match[2] ?? '')
    }
  }

  return {
    standard: `WCAG ${top[1]}.${top[2] || '0'}`,
    level: top[3]?.toUpperCase() ?? '',
    engine: `axe-core ${axeVersion}`,
    ruleTags,
    extraRules,
    crawledRoles,
    // Comments in the list dropped first: an apostrophe in one is no quote.
    signedOutPages: quoted(signedOut.replace(/\/\/.*$/gm, '')),
    dialogs: [...new Set(dialogs)],
    phoneWidth,
    featureStates: [...featureStates].sort((a, b) => a.localeCompare(b)),
  }
}

export function factsModule(facts: AccessibilityFacts) {
  return `// Written by scripts/accessibility-facts.ts from the test suite (issue 45 point 6, ADR 100):
// not edited by hand. tests/unit/accessibility-statement.test.ts fails when it no longer matches
// the specs; \`npx tsx scripts/accessibility-facts.ts --write\` writes it again.
export const ACCESSIBILITY_FACTS = ${JSON.stringify(facts, null, 2)} as const
`
}

if (process.argv.includes('--write')) {
  writeFileSync(path.join(ROOT, FACTS_FILE), factsModule(collectAccessibilityFacts()))
  const formatted = spawnSync('npx', ['biome', 'format', '--write', FACTS_FILE], {
    cwd: ROOT,
    stdio: 'inherit',
  })
  process.exit(formatted.status ?? 1)
}
