// The accessibility statement's facts (issue 45 point 6, ADR 100) cannot drift from the suite:
// app/accessibility/statement-facts.ts must be what scripts/accessibility-facts.ts reads from the
// specs now, and the date it gives is the built commit's, never the clock's.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { describe, expect, test } from 'vitest'
import { ACCESSIBILITY_CHECKED_ON } from '#app/accessibility/checked-on'
import { ACCESSIBILITY_FACTS } from '#app/accessibility/statement-facts'
import { accessibilityCheckedOn } from '../../scripts/accessibility-checked-on'
import { collectAccessibilityFacts } from '../../scripts/accessibility-facts'

describe('the accessibility statement', () => {
  test('publishes what the specs check (run `npx tsx scripts/accessibility-facts.ts --write` after changing them)', () => {
    expect(ACCESSIBILITY_FACTS).toEqual(collectAccessibilityFacts())
  })

  test('names WCAG 2.2 AA, both hosts, both themes, and itself among the pages checked', () => {
    const facts = collectAccessibilityFacts()
    expect(`${facts.standard} ${facts.level}`).toBe('WCAG 2.2 AA')
    expect(facts.ruleTags).toEqual(expect.arrayContaining(['wcag22aa', 'wcag21aa', 'wcag2aa']))
    expect(facts.engine).toMatch(/^axe-core \d+\.\d+\.\d+$/)
    expect(new Set(facts.crawledRoles.map((user) => user.host))).toEqual(
      new Set(['platform', 'agency']),
    )
    expect(facts.crawledRoles.some((user) => user.dark)).toBe(true)
    expect(facts.crawledRoles.some((user) => !user.dark)).toBe(true)
    expect(facts.signedOutPages).toEqual(
      expect.arrayContaining(['/', '/pricing', '/accessibility']),
    )
    expect(facts.dialogs.length).toBeGreaterThan(0)
    expect(facts.featureStates.length).toBeGreaterThan(0)
  })

  test("the page's other claims are still audits of the spec", () => {
    // app/routes/accessibility.tsx says these in words; each is a line of the spec.
    const spec = readFileSync('e2e/accessibility.spec.ts', 'utf8')
    expect(spec).toContain('await audit(page, report, cardPath)')
    expect(spec).toContain("await audit(page, report, '/auth/login (errors)')")
    expect(spec).toContain("await audit(page, report, '/auth/register (errors)')")
    expect(spec).toContain('(sidebar drawer open)')
    expect(spec).toContain('await auditUserMenu(page, report')
    expect(spec).toContain('await auditTabs(page, report, label)')
  })

  test('the date of the last check is the commit the build is made from', () => {
    const git = spawnSync('git', ['log', '-1', '--format=%ct'], { encoding: 'utf8' })
    const commitDay = new Date(Number(git.stdout.trim()) * 1000).toISOString().slice(0, 10)
    expect(accessibilityCheckedOn('')).toBe(commitDay)
    // What vitest.config.ts defines, as vite.config.ts does for the build.
    expect(ACCESSIBILITY_CHECKED_ON).toBe(commitDay)
  })

  test('SOURCE_DATE_EPOCH names it where the build has no git history; with neither, none', () => {
    // 2025-06-28: the day the European Accessibility Act applies.
    expect(accessibilityCheckedOn('1751068800')).toBe('2025-06-28')
    const outside = tmpdir()
    const inRepo = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: outside })
    if (inRepo.status !== 0) expect(accessibilityCheckedOn('', outside)).toBeNull()
    expect(accessibilityCheckedOn('yesterday', outside)).toBe(
      inRepo.status === 0 ? accessibilityCheckedOn('', outside) : null,
    )
  })
})
