// Which addresses the server may connect to for an identity provider (ADR 091): public unicast
// only, this machine's loopback only where the tests' local IdPs are allowed.
import { afterEach, expect, test } from 'vitest'
import { resetEnvForTests } from '#app/env.server'
import { isAllowedIdpAddress, isFetchableIdpUrl } from '#app/sso/identity-provider-url.server'

afterEach(() => {
  delete process.env.SSO_ALLOW_HTTP_LOOPBACK
  resetEnvForTests()
})

test('public unicast addresses are allowed; private, link-local, mapped and odd ones are not', () => {
  for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']) {
    expect(isAllowedIdpAddress(address), address).toBe(true)
  }
  for (const address of [
    '10.1.2.3',
    '172.16.0.1',
    '192.168.0.10',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    'fd00::1',
    'fe80::1',
    '::',
    '::ffff:10.0.0.1',
    'not-an-address',
  ]) {
    expect(isAllowedIdpAddress(address), address).toBe(false)
  }
})

test('loopback only while the tests’ exception is on', () => {
  process.env.SSO_ALLOW_HTTP_LOOPBACK = '1'
  resetEnvForTests()
  expect(isAllowedIdpAddress('127.0.0.1')).toBe(true)
  expect(isFetchableIdpUrl(new URL('http://127.0.0.1:8080/realms/x'))).toBe(true)
  process.env.SSO_ALLOW_HTTP_LOOPBACK = '0'
  resetEnvForTests()
  expect(isAllowedIdpAddress('127.0.0.1')).toBe(false)
  expect(isAllowedIdpAddress('::1')).toBe(false)
  expect(isFetchableIdpUrl(new URL('https://127.0.0.1/'))).toBe(false)
  expect(isFetchableIdpUrl(new URL('http://127.0.0.1:8080/'))).toBe(false)
})

test('URLs: https by name, no credentials, no private literal', () => {
  expect(isFetchableIdpUrl(new URL('https://login.example.com/tenant/v2.0'))).toBe(true)
  expect(isFetchableIdpUrl(new URL('https://user:pw@login.example.com/'))).toBe(false)
  expect(isFetchableIdpUrl(new URL('http://login.example.com/'))).toBe(false)
  expect(isFetchableIdpUrl(new URL('https://[fd00::1]/'))).toBe(false)
  expect(isFetchableIdpUrl(new URL('https://10.0.0.1/'))).toBe(false)
})
