// Keys at rest (issue 15 point 2): AES-256-GCM under a key derived from APP_SECRET, a random
// nonce per value, and the key's id in front so an old APP_SECRET can still be read.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { resetEnvForTests } from '#app/env.server'
import {
  type CookieSealBinding,
  type FormSealBinding,
  needsReseal,
  openAtRest as open,
  openFromCookie,
  openFromForm,
  SecretBoxError,
  sealAtRest as seal,
  sealForCookie,
  sealForForm,
} from '#app/utils/secret-box.server'

const FIRST = 'first-secret-of-at-least-thirty-two-characters'
const SECOND = 'second-secret-of-at-least-thirty-two-characters'

function useSecret(secret: string, previous?: string) {
  process.env.APP_SECRET = secret
  if (previous) process.env.APP_SECRET_PREVIOUS = previous
  else delete process.env.APP_SECRET_PREVIOUS
  resetEnvForTests()
}

beforeEach(() => useSecret(FIRST))
afterEach(() => {
  delete process.env.APP_SECRET
  delete process.env.APP_SECRET_PREVIOUS
  resetEnvForTests()
})

describe('secret box', () => {
  test('a sealed value opens to the original and never contains it', () => {
    const key = 'pit-1234567890-abcdef'
    const sealed = seal(key)
    expect(sealed).toMatch(/^v1\.[\w-]{8}\.[\w-]{16}\.[\w-]+$/)
    expect(sealed).not.toContain(key)
    expect(open(sealed)).toBe(key)
  })

  test('each value gets its own nonce: the same key seals differently every time', () => {
    expect(seal('same')).not.toBe(seal('same'))
  })

  test('a changed byte, a cut value or a foreign format is refused', () => {
    const sealed = seal('secret value')
    const parts = sealed.split('.')
    const body = Buffer.from(parts[3] ?? '', 'base64url')
    body[0] = (body[0] ?? 0) ^ 1
    const tampered = [...parts.slice(0, 3), body.toString('base64url')].join('.')
    expect(() => open(tampered)).toThrow(SecretBoxError)
    expect(() => open(sealed.slice(0, 30))).toThrow(SecretBoxError)
    expect(() => open('plain-text-key')).toThrow(SecretBoxError)
  })

  test('after APP_SECRET changes, values sealed under the old one open while it is APP_SECRET_PREVIOUS, and say they need sealing again', () => {
    const old = seal('rotate me')
    useSecret(SECOND)
    expect(() => open(old)).toThrow(/unknown key/)
    useSecret(SECOND, FIRST)
    expect(open(old)).toBe('rotate me')
    expect(needsReseal(old)).toBe(true)
    expect(needsReseal(seal('rotate me'))).toBe(false)
  })
})

// ADR 054: a value sealed for a form opens only for the binding it was sealed for.
describe('values sealed for a form', () => {
  const binding: FormSealBinding = {
    purpose: 'two-factor-enrolment',
    organizationId: 'org-a',
    userId: 'user-a',
    sessionId: 'session-a',
  }

  test('opens for its own binding, and for no other part changed', () => {
    const sealed = sealForForm('form value', binding)
    expect(sealed).toMatch(/^f1\./)
    expect(openFromForm(sealed, binding)).toBe('form value')
    const others: FormSealBinding[] = [
      { ...binding, organizationId: 'org-b' },
      { ...binding, userId: 'user-b' },
      { ...binding, sessionId: 'session-b' },
      { ...binding, purpose: 'another-purpose' as FormSealBinding['purpose'] },
    ]
    for (const other of others) {
      expect(() => openFromForm(sealed, other)).toThrow(SecretBoxError)
    }
  })

  test('an at-rest value is no form value, and a form value no at-rest one', () => {
    const atRest = seal('form value')
    expect(() => openFromForm(atRest, binding)).toThrow(SecretBoxError)
    // Even relabelled: the key and the missing binding both differ.
    expect(() => openFromForm(atRest.replace(/^v1/, 'f1'), binding)).toThrow(SecretBoxError)
    const form = sealForForm('form value', binding)
    expect(() => open(form)).toThrow(SecretBoxError)
    expect(() => open(form.replace(/^f1/, 'v1'))).toThrow(SecretBoxError)
  })

  test('a binding with a part missing seals nothing', () => {
    expect(() => sealForForm('x', { ...binding, sessionId: '' })).toThrow(SecretBoxError)
    expect(() => sealForForm('x', { ...binding, userId: '' })).toThrow(SecretBoxError)
  })
})

describe('values sealed for a flow cookie (single sign-on, ADR 088)', () => {
  const binding: CookieSealBinding = {
    purpose: 'sso-sign-in',
    organizationId: '00000000-0000-4000-8000-00000000000a',
    userId: null,
  }
  const later = new Date(Date.now() + 60_000)

  test('opens for its own purpose, organization and user, and for no other', () => {
    const sealed = sealForCookie('state and nonce', binding, later)
    expect(sealed).toMatch(/^c1\./)
    expect(sealed).not.toContain('state and nonce')
    expect(openFromCookie(sealed, binding)).toBe('state and nonce')
    const others: CookieSealBinding[] = [
      { ...binding, purpose: 'sso-test' },
      { ...binding, organizationId: '00000000-0000-4000-8000-00000000000b' },
      { ...binding, userId: '00000000-0000-4000-8000-00000000000c' },
    ]
    for (const other of others) {
      expect(() => openFromCookie(sealed, other)).toThrow(SecretBoxError)
    }
  })

  test('is refused once expired, and is neither a form value nor an at-rest one', () => {
    const sealed = sealForCookie('x', binding, later)
    expect(() => openFromCookie(sealed, binding, later.getTime())).toThrow(SecretBoxError)
    expect(() => open(sealed)).toThrow(SecretBoxError)
    expect(() => openFromCookie(seal('x'), binding)).toThrow(SecretBoxError)
  })
})
