import { describe, expect, test } from 'vitest'
import {
  classifyHost,
  forwardedPublicAddress,
  isValidAgencySlug,
  normalizeHost,
  requestHost,
} from '#app/tenancy/host'

describe('normalizeHost', () => {
  test.each([
    ['localhost:3000', 'localhost'],
    ['ACME.LocalHost:3000', 'acme.localhost'],
    ['acme.localhost.', 'acme.localhost'],
    ['acme.localhost.:8080', 'acme.localhost'],
    ['Cards.Acme.Test', 'cards.acme.test'],
    ['  acme.localhost  ', 'acme.localhost'],
    ['127.0.0.1:3000', '127.0.0.1'],
    ['[::1]:3000', '[::1]'],
    ['[::1]', '[::1]'],
  ])('%s → %s', (raw, expected) => {
    expect(normalizeHost(raw)).toBe(expected)
  })

  test.each([
    [''],
    ['   '],
    [undefined],
    [null],
    ['evil.test/x'],
    ['user@evil.test'],
    ['evil.test:abc'],
    ['evil.test:'],
    ['a..b'],
    ['-acme.localhost'],
    ['acme-.localhost'],
    ['acme_x.localhost'],
    ['acme.localhost:3000:1'],
    ['[::1'],
    ['[::1]x'],
    ['[zz::1]'],
    ['.'],
    [`${'a'.repeat(64)}.localhost`],
    ['exa mple.test'],
    ['evil.test\\x'],
  ])('rejects %j', (raw) => {
    expect(normalizeHost(raw as string)).toBeNull()
  })
})

describe('classifyHost', () => {
  const root = 'localhost'
  test('the root and www are the platform', () => {
    expect(classifyHost('localhost', root)).toEqual({ kind: 'platform' })
    expect(classifyHost('www.localhost', root)).toEqual({ kind: 'platform' })
  })
  test('a one-label subdomain is an agency slug', () => {
    expect(classifyHost('acme.localhost', root)).toEqual({ kind: 'subdomain', slug: 'acme' })
  })
  test('two-label subdomains and reserved names are nothing', () => {
    expect(classifyHost('a.acme.localhost', root)).toEqual({ kind: 'none' })
    expect(classifyHost('www.acme.localhost', root)).toEqual({ kind: 'none' })
    expect(classifyHost('api.localhost', root)).toEqual({ kind: 'none' })
  })
  test('other hosts are custom domains', () => {
    expect(classifyHost('cards.acme.test', root)).toEqual({
      kind: 'custom-domain',
      domain: 'cards.acme.test',
    })
  })
  test('IP addresses, single-label names and empty hosts are nothing', () => {
    expect(classifyHost('127.0.0.1', root)).toEqual({ kind: 'none' })
    expect(classifyHost('[::1]', root)).toEqual({ kind: 'none' })
    expect(classifyHost('intranet', root)).toEqual({ kind: 'none' })
    expect(classifyHost(null, root)).toEqual({ kind: 'none' })
    expect(classifyHost('', root)).toEqual({ kind: 'none' })
  })
  test('a look-alike of the root is not a subdomain', () => {
    expect(classifyHost('evillocalhost', root)).toEqual({ kind: 'none' })
    expect(classifyHost('acme.evil-brandcard.com', 'brandcard.com')).toEqual({
      kind: 'custom-domain',
      domain: 'acme.evil-brandcard.com',
    })
    expect(classifyHost('acme.brandcard.com', 'brandcard.com')).toEqual({
      kind: 'subdomain',
      slug: 'acme',
    })
  })
})

describe('requestHost', () => {
  test('uses Host and ignores X-Forwarded-Host unless the proxy is trusted', () => {
    const headers = { host: 'acme.localhost:3000', 'x-forwarded-host': 'globex.localhost' }
    expect(requestHost(headers, false)).toBe('acme.localhost')
    expect(requestHost(headers, true)).toBe('globex.localhost')
  })
  test('takes the first forwarded value and validates it', () => {
    expect(requestHost({ 'x-forwarded-host': 'a.localhost, b.localhost' }, true)).toBe(
      'a.localhost',
    )
    expect(requestHost({ host: 'ok.localhost', 'x-forwarded-host': 'evil/x' }, true)).toBeNull()
  })
  test('no host is null', () => {
    expect(requestHost({}, false)).toBeNull()
  })
})

test('agency slugs', () => {
  expect(isValidAgencySlug('acme')).toBe(true)
  expect(isValidAgencySlug('acme-2')).toBe(true)
  expect(isValidAgencySlug('www')).toBe(false)
  expect(isValidAgencySlug('a')).toBe(false)
  expect(isValidAgencySlug('-acme')).toBe(false)
  expect(isValidAgencySlug('Acme')).toBe(false)
})

describe('forwardedPublicAddress', () => {
  test("a trusted proxy's X-Forwarded-Proto decides the scheme, the client-facing host the port", () => {
    // Caddy passes Host through and sets X-Forwarded-Proto (and -Host) itself.
    const viaCaddy = { host: 'cards.acme.test:3750', 'x-forwarded-proto': 'https' }
    expect(forwardedPublicAddress(viaCaddy, true)).toEqual({ scheme: 'https', port: '3750' })
    expect(
      forwardedPublicAddress({ host: 'cards.acme.test', 'x-forwarded-proto': 'https' }, true),
    ).toEqual({ scheme: 'https', port: null })
    // The default port is no port; X-Forwarded-Port wins over the host's.
    expect(
      forwardedPublicAddress({ host: 'a.test:443', 'x-forwarded-proto': 'HTTPS' }, true),
    ).toEqual({ scheme: 'https', port: null })
    expect(
      forwardedPublicAddress(
        {
          host: 'internal:3000',
          'x-forwarded-host': 'a.test:8443',
          'x-forwarded-proto': 'https, http',
          'x-forwarded-port': '9443',
        },
        true,
      ),
    ).toEqual({ scheme: 'https', port: '9443' })
    expect(
      forwardedPublicAddress(
        { host: 'internal:3000', 'x-forwarded-host': 'a.test:8443', 'x-forwarded-proto': 'https' },
        true,
      ),
    ).toEqual({ scheme: 'https', port: '8443' })
  })

  test('nothing without a trusted proxy or with a proto it cannot mean', () => {
    const headers = { host: 'a.test:3750', 'x-forwarded-proto': 'https' }
    expect(forwardedPublicAddress(headers, false)).toBeNull()
    expect(forwardedPublicAddress({ host: 'a.test' }, true)).toBeNull()
    expect(
      forwardedPublicAddress({ host: 'a.test', 'x-forwarded-proto': 'javascript' }, true),
    ).toBeNull()
    expect(
      forwardedPublicAddress(
        { host: 'a.test', 'x-forwarded-proto': 'https', 'x-forwarded-port': 'x' },
        true,
      ),
    ).toEqual({ scheme: 'https', port: null })
  })
})
