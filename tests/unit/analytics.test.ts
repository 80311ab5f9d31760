// The analytics figures put together from the rollups' rows (ADR 082): sums per card and per
// source, rates that guard division by zero, the window of whole hours, and the filters' schema.
import { describe, expect, test } from 'vitest'
import { analyticsWindow, assembleAnalytics } from '#app/dashboard/card-analytics.server'
import { formatRate } from '#app/utils/rate'
import { readAnalyticsQuery } from '#app/validation/analytics'

const name = (id: string, title: string) => ({
  id,
  title,
  firstName: 'Ada',
  lastName: 'Lovelace',
  ownerFirstName: 'Ada',
  ownerLastName: 'Lovelace',
})

describe('assembleAnalytics', () => {
  const window = { days: 7 as const, from: new Date(0), to: new Date(3_600_000) }

  test('sums per card and per source, busiest card first, rates per view', () => {
    const result = assembleAnalytics(
      window,
      [
        { cardId: 'a', source: 'qr', kind: 'view', count: 10 },
        { cardId: 'a', source: 'qr', kind: 'vcard', count: 3 },
        { cardId: 'a', source: 'qr', kind: 'wallet', count: 1 },
        { cardId: 'a', source: 'nfc', kind: 'lead', count: 2 },
        { cardId: 'b', source: 'direct', kind: 'view', count: 20 },
        { cardId: 'b', source: 'direct', kind: 'connect', count: 1 },
      ],
      [name('a', 'Main'), name('b', '')],
      [
        {
          cardId: 'a',
          linkId: 'l1',
          kind: 'github',
          label: '',
          url: 'https://github.com/x',
          taps: 4,
        },
      ],
    )
    expect(result.totals).toMatchObject({
      views: 30,
      saves: 4,
      exchanges: 3,
      saveRate: 4 / 30,
      exchangeRate: 3 / 30,
    })
    expect(result.cards.map((c) => [c.name, c.views, c.saves, c.exchanges])).toEqual([
      ['Ada Lovelace', 20, 0, 1],
      ['Main', 10, 4, 2],
    ])
    expect(result.sources.map((s) => s.source)).toEqual(['direct', 'qr', 'nfc'])
    // A source with an exchange but no views: no rate, never Infinity.
    expect(result.sources.find((s) => s.source === 'nfc')).toMatchObject({
      views: 0,
      exchanges: 2,
      exchangeRate: null,
    })
    expect(result.links).toEqual([
      { cardId: 'a', card: 'Main', link: 'github', url: 'https://github.com/x', taps: 4 },
    ])
  })

  test('nothing at all is zeros and no rate', () => {
    const result = assembleAnalytics(window, [], [], [])
    expect(result.totals).toMatchObject({ views: 0, saves: 0, saveRate: null, exchangeRate: null })
    expect(result.cards).toEqual([])
  })
})

test('rates read as a percent to one decimal, or "—" without views', () => {
  expect(formatRate(null)).toBe('—')
  expect(formatRate(0)).toBe('0%')
  expect(formatRate(1 / 3)).toBe('33.3%')
  expect(formatRate(1.5)).toBe('150%')
})

test('the window is whole UTC hours up to the end of the current one', () => {
  const { from, to } = analyticsWindow(new Date('2026-12-02T17:42:10Z'), 7)
  expect(to.toISOString()).toBe('2026-12-02T18:00:00.000Z')
  expect(from.toISOString()).toBe('2026-11-25T18:00:00.000Z')
})

test('the filters fall back to 30 days and one’s own cards', () => {
  expect(readAnalyticsQuery(new URLSearchParams('days=7&scope=team'))).toEqual({
    days: 7,
    scope: 'team',
  })
  expect(readAnalyticsQuery(new URLSearchParams('days=8&scope=everyone'))).toEqual({
    days: 30,
    scope: 'mine',
  })
  expect(readAnalyticsQuery(new URLSearchParams(''))).toEqual({ days: 30, scope: 'mine' })
})
