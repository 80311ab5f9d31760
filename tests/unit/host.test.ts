import { describe, expect, test } from 'vitest'
import {
  classifyHost,
  forwardedProtoIsHttps,
  forwardedPublicAddress,
  normalizeHost,
  requestHost,
} from '#app/tenancy/host'
import { clientAddress } from '#app/utils/client-address'
import { parseTrustedHops } from '#app/utils/trusted-proxy'
import { isValidAgencySlug } from '#app/validation/agency-slug'

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
  test('reserved names are nothing', () => {
    expect(classifyHost('api.localhost', root)).toEqual({ kind: 'none' })
    expect(classifyHost('www.localhost', root)).toEqual({ kind: 'platform' })
  })
  test('a name two labels under the root is no subdomain, only ever a custom domain', () => {
    // The demo's verified custom domain (drizzle/seed.server.ts): *.localhost needs no hosts file.
    expect(classifyHost('cards.acme.localhost', root)).toEqual({
      kind: 'custom-domain',
      domain: 'cards.acme.localhost',
    })
    expect(classifyHost('www.acme.localhost', root)).toEqual({
      kind: 'custom-domain',
      domain: 'www.acme.localhost',
    })
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
    expect(requestHost(headers, 0)).toBe('acme.localhost')
    expect(requestHost(headers, 1)).toBe('globex.localhost')
  })
  test('takes the forwarded value the trusted proxy wrote and validates it', () => {
    // One trusted hop: the right-most entry; a client's own value sits left of it.
    expect(requestHost({ 'x-forwarded-host': 'a.localhost, b.localhost' }, 1)).toBe('b.localhost')
    expect(requestHost({ 'x-forwarded-host': 'a.localhost, b.localhost' }, 2)).toBe('a.localhost')
    expect(requestHost({ host: 'ok.localhost', 'x-forwarded-host': 'evil/x' }, 1)).toBeNull()
  })
  test('no host is null', () => {
    expect(requestHost({}, 0)).toBeNull()
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
    expect(forwardedPublicAddress(viaCaddy, 1)).toEqual({ scheme: 'https', port: '3750' })
    expect(
      forwardedPublicAddress({ host: 'cards.acme.test', 'x-forwarded-proto': 'https' }, 1),
    ).toEqual({ scheme: 'https', port: null })
    // The default port is no port.
    expect(forwardedPublicAddress({ host: 'a.test:443', 'x-forwarded-proto': 'HTTPS' }, 1)).toEqual(
      { scheme: 'https', port: null },
    )
    expect(
      forwardedPublicAddress(
        { host: 'internal:3000', 'x-forwarded-host': 'a.test:8443', 'x-forwarded-proto': 'https' },
        1,
      ),
    ).toEqual({ scheme: 'https', port: '8443' })
  })

  test('nothing without a trusted proxy or with a proto it cannot mean', () => {
    const headers = { host: 'a.test:3750', 'x-forwarded-proto': 'https' }
    expect(forwardedPublicAddress(headers, 0)).toBeNull()
    expect(forwardedPublicAddress({ host: 'a.test' }, 1)).toBeNull()
    expect(
      forwardedPublicAddress({ host: 'a.test', 'x-forwarded-proto': 'javascript' }, 1),
    ).toBeNull()
  })

  test("only what the trusted hops wrote counts: a client's X-Forwarded-Port and leading entries do not", () => {
    // Caddy does not set X-Forwarded-Port, so a client's passes through it untouched.
    const spoofedPort = {
      host: 'a.test',
      'x-forwarded-proto': 'https',
      'x-forwarded-port': '9443',
    }
    expect(forwardedPublicAddress(spoofedPort, 1)).toEqual({ scheme: 'https', port: null })
    // A proxy that appends: the client's `https` and host sit left of what the proxy wrote.
    const appended = {
      host: 'internal:3000',
      'x-forwarded-host': 'evil.test:9999, a.test',
      'x-forwarded-proto': 'https, http',
    }
    expect(forwardedPublicAddress(appended, 1)).toEqual({ scheme: 'http', port: null })
    expect(requestHost(appended, 1)).toBe('a.test')
    expect(forwardedProtoIsHttps('https, http', 1)).toBe(false)
    expect(forwardedProtoIsHttps('https, http', 2)).toBe(true)
    expect(forwardedProtoIsHttps('https', 0)).toBe(false)
    // Two trusted hops: the entry the outer one wrote.
    expect(forwardedPublicAddress(appended, 2)).toEqual({ scheme: 'https', port: '9999' })
  })
})

describe('clientAddress behind TRUST_PROXY hops', () => {
  test('no trusted hop: the socket, whatever X-Forwarded-For says', () => {
    expect(clientAddress('203.0.113.9', '192.0.2.1', 0)).toBe('192.0.2.1')
  })
  test('one hop: the address the proxy appended, not the one the client wrote first', () => {
    expect(clientAddress('203.0.113.9, 198.51.100.4', '127.0.0.1', 1)).toBe('198.51.100.4')
    expect(clientAddress('198.51.100.4', '127.0.0.1', 1)).toBe('198.51.100.4')
    expect(clientAddress(['203.0.113.9', '198.51.100.4'], '127.0.0.1', 1)).toBe('198.51.100.4')
  })
  test('two hops: the one the outer proxy appended; fewer entries: the left-most', () => {
    const header = '203.0.113.9, 198.51.100.4, 10.0.0.2'
    expect(clientAddress(header, '127.0.0.1', 2)).toBe('198.51.100.4')
    expect(clientAddress('198.51.100.4', '127.0.0.1', 2)).toBe('198.51.100.4')
  })
  test('no header: the socket', () => {
    expect(clientAddress(undefined, '192.0.2.1', 1)).toBe('192.0.2.1')
    expect(clientAddress(' , ', '192.0.2.1', 1)).toBe('192.0.2.1')
  })
})

test('TRUST_PROXY is a hop count, true meaning one; anything else is refused', () => {
  expect(parseTrustedHops(undefined)).toBe(0)
  expect(parseTrustedHops('')).toBe(0)
  expect(parseTrustedHops('0')).toBe(0)
  expect(parseTrustedHops('false')).toBe(0)
  expect(parseTrustedHops('1')).toBe(1)
  expect(parseTrustedHops('TRUE')).toBe(1)
  expect(parseTrustedHops('2')).toBe(2)
  expect(parseTrustedHops('yes')).toBeNull()
  expect(parseTrustedHops('-1')).toBeNull()
  expect(parseTrustedHops('99')).toBeNull()
})
