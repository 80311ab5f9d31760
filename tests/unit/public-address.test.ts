// The shared public-address rule (ADR 091, ADR 093): public unicast always; loopback and the
// private ranges only where the caller's policy allows them, each on its own.
import { expect, test } from 'vitest'
import {
  isAllowedAddress,
  PrivateAddressError,
  privateAddressRefusal,
} from '#app/utils/public-address.server'

const none = { loopback: false, private: false }

test('public unicast is allowed under every policy; the rest only where allowed', () => {
  expect(isAllowedAddress('93.184.216.34', none)).toBe(true)
  for (const address of ['127.0.0.1', '::1', '10.0.0.1', '169.254.169.254', 'fd00::1', '0.0.0.0']) {
    expect(isAllowedAddress(address, none), address).toBe(false)
  }
  // Loopback only: the SSO tests' local IdPs.
  const loopback = { loopback: true, private: false }
  expect(isAllowedAddress('127.0.0.1', loopback)).toBe(true)
  expect(isAllowedAddress('10.0.0.1', loopback)).toBe(false)
  // Both: WEBHOOK_ALLOW_PRIVATE=1 in development.
  const both = { loopback: true, private: true }
  for (const address of [
    '127.0.0.1',
    '10.0.0.1',
    '192.168.1.2',
    '169.254.1.1',
    'fd00::1',
    '::ffff:10.0.0.1',
  ]) {
    expect(isAllowedAddress(address, both), address).toBe(true)
  }
  // Never an unspecified, broadcast or multicast address, whatever the policy.
  for (const address of ['0.0.0.0', '255.255.255.255', '224.0.0.1', 'not-an-address']) {
    expect(isAllowedAddress(address, both), address).toBe(false)
  }
})

test("a refusal is found in a failed fetch's causes", () => {
  const refusal = new PrivateAddressError('10.0.0.1')
  const failed = new TypeError('fetch failed', { cause: new Error('connect', { cause: refusal }) })
  expect(privateAddressRefusal(failed)).toBe(refusal)
  expect(privateAddressRefusal(new TypeError('fetch failed'))).toBeNull()
})
