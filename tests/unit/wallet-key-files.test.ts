// The throwaway Google Wallet keys the tests write to the temporary directory do not outlive the
// test file that made them (tests/setup/process-state.ts removes them after each file).
import { existsSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { expect, test } from 'vitest'
import { makeServiceAccountKey, removeServiceAccountKeys } from '#tests/fake-google-wallet'

test('every key file made in the process is removed, its directory with it', () => {
  const first = makeServiceAccountKey('http://127.0.0.1:9/token').keyPath
  const second = makeServiceAccountKey('http://127.0.0.1:9/token').keyPath
  expect(JSON.parse(readFileSync(first, 'utf8')).type).toBe('service_account')
  expect(dirname(first)).not.toBe(dirname(second))
  removeServiceAccountKeys()
  for (const keyPath of [first, second]) {
    expect(existsSync(keyPath)).toBe(false)
    expect(existsSync(dirname(keyPath))).toBe(false)
  }
})
