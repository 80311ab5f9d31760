import { describe, expect, test } from 'vitest'
import { changesOnlyTheTab, keepDataAcrossTabs } from '#app/utils/tab-navigation'

const at = (path: string) => new URL(path, 'https://alpha.localhost')
const args = (from: string, to: string, formMethod?: 'POST') =>
  ({
    currentUrl: at(from),
    nextUrl: at(to),
    formMethod,
    currentParams: {},
    nextParams: {},
    defaultShouldRevalidate: true,
  }) as Parameters<typeof keepDataAcrossTabs>[0]

describe('a navigation that only chooses another tab', () => {
  test('keeps the layouts’ data', () => {
    expect(changesOnlyTheTab(args('/profile/agency', '/profile/agency?tab=security'))).toBe(true)
    expect(
      changesOnlyTheTab(args('/profile/agency?tab=security', '/profile/agency?tab=teams')),
    ).toBe(true)
    expect(
      keepDataAcrossTabs(args('/settings/agency?x=1&tab=team', '/settings/agency?tab=api&x=1')),
    ).toBe(false)
  })

  test('anything else revalidates as usual', () => {
    // Another page, another search, a submission, or the same URL again (a reload of data).
    expect(keepDataAcrossTabs(args('/profile/agency', '/settings/agency?tab=team'))).toBe(true)
    expect(
      keepDataAcrossTabs(args('/profile/agency?tab=accounts', '/profile/agency?tab=accounts&q=a')),
    ).toBe(true)
    expect(
      keepDataAcrossTabs(args('/profile/agency', '/profile/agency?tab=security', 'POST')),
    ).toBe(true)
    expect(keepDataAcrossTabs(args('/profile/agency?tab=teams', '/profile/agency?tab=teams'))).toBe(
      true,
    )
  })
})
