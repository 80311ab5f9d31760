// Issue 41 point 17: the audit log shows readable event names. Every action code the app writes
// (found in the code, so a new one is checked without being listed) reads as words: no dot, no
// underscore, a capital first.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import { AUDIT_CATEGORIES, auditActionLabel } from '#app/audit/audit-log'

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) return sourceFiles(file)
    return /\.tsx?$/.test(name) ? [file] : []
  })
}

const PREFIXES = [
  ...AUDIT_CATEGORIES.map((category) => category.id),
  'account',
  'announcement',
  'crm',
  'data_export',
  'lead',
  'platform',
]
const CODE = new RegExp(`'((?:${PREFIXES.join('|')})\\.[a-z_]+)'`, 'g')

test('examples read as a person would write them', () => {
  expect(auditActionLabel('user.seat_handed_over')).toBe('User seat handed over')
  expect(auditActionLabel('crm.settings_updated')).toBe('CRM settings updated')
  expect(auditActionLabel('two_factor.enabled')).toBe('Two-factor sign-in enabled')
  expect(auditActionLabel('data_export.downloaded')).toBe('Data export downloaded')
})

test('every action code in the app reads as words', () => {
  const codes = new Set(
    sourceFiles('app').flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(CODE)].map((match) => match[1] as string),
    ),
  )
  expect(codes.size).toBeGreaterThan(30)
  const unreadable = [...codes].filter((code) => {
    const label = auditActionLabel(code)
    return /[._]/.test(label) || label.charAt(0) !== label.charAt(0).toUpperCase()
  })
  expect(unreadable).toEqual([])
})
