import { expect, test } from 'vitest'
import { addressBucket } from '#app/utils/client-address'

test.each([
  ['198.51.100.7', '198.51.100.7'],
  ['::ffff:198.51.100.7', '198.51.100.7'],
  ['::FFFF:198.51.100.7', '198.51.100.7'],
  ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
  ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
  ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
  ['2001:DB8::1', '2001:db8:0:0::/64'],
  ['2001:db8::', '2001:db8:0:0::/64'],
  ['::1', '0:0:0:0::/64'],
  ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
  ['unknown', 'unknown'],
])('%s counts as %s', (address, bucket) => {
  expect(addressBucket(address)).toBe(bucket)
})

test('every address of one /64 is one bucket, the next /64 another', () => {
  const buckets = new Set(
    ['2001:db8:a:b::1', '2001:db8:a:b:ffff::2', '2001:db8:a:b:1:2:3:4'].map(addressBucket),
  )
  expect(buckets.size).toBe(1)
  expect(addressBucket('2001:db8:a:c::1')).not.toBe(addressBucket('2001:db8:a:b::1'))
})
