// The pure part of `npm run bench:scale` (bench/scale-compare.ts): medians of the rounds, the
// large database's ratios to the small one, and the 15% verdict.
import { describe, expect, test } from 'vitest'
import type { Measurement } from '../../bench/budgets'
import { allWithin, compareSizes, comparisonRow, medianFigures } from '../../bench/scale-compare'

const round = (reqPerSec: number, p50Ms: number, p99Ms: number): Measurement => ({
  reqPerSec,
  p50Ms,
  p99Ms,
  statuses: { '200': reqPerSec },
  errors: 0,
})

describe('bench:scale comparison', () => {
  test('each figure is its own median over the rounds', () => {
    expect(medianFigures([round(100, 9, 50), round(300, 1, 10), round(200, 5, 900)])).toEqual({
      reqPerSec: 200,
      p50Ms: 5,
      p99Ms: 50,
    })
    expect(medianFigures([round(100, 2, 10), round(200, 4, 30)])).toEqual({
      reqPerSec: 150,
      p50Ms: 3,
      p99Ms: 20,
    })
  })

  test('the large database passes within 15%: fewer req/s, higher latencies', () => {
    const comparison = compareSizes([round(100, 100, 200)], [round(86, 114, 230)])
    expect(comparison.ratio).toEqual({ reqPerSec: 0.86, p50Ms: 1.14, p99Ms: 1.15 })
    expect(comparison.within).toEqual({ reqPerSec: true, p50Ms: true, p99Ms: true })
    expect(allWithin([comparison])).toBe(true)
  })

  test('beyond 15% on any figure misses, and faster is never a miss', () => {
    const slower = compareSizes([round(100, 100, 200)], [round(84, 90, 150)])
    expect(slower.within).toEqual({ reqPerSec: false, p50Ms: true, p99Ms: true })
    const laggy = compareSizes([round(100, 100, 200)], [round(120, 100, 240)])
    expect(laggy.within).toEqual({ reqPerSec: true, p50Ms: true, p99Ms: false })
    expect(allWithin([compareSizes([round(1, 1, 1)], [round(1, 1, 1)]), laggy])).toBe(false)
  })

  test("each ratio is the median of the rounds' own ratios, not of the medians", () => {
    // The machine's load halves both sides in rounds 2 and 3: the pairs stay at 0.9.
    const small = [round(200, 10, 40), round(100, 20, 80), round(100, 20, 80)]
    const large = [round(180, 11, 44), round(90, 22, 88), round(90, 22, 88)]
    const comparison = compareSizes(small, large)
    expect(comparison.ratio).toEqual({ reqPerSec: 0.9, p50Ms: 1.1, p99Ms: 1.1 })
    expect(comparison.small).toEqual({ reqPerSec: 100, p50Ms: 20, p99Ms: 80 })
  })

  test('a round with nothing answered in time is slow, not instant', () => {
    const none: Measurement = { reqPerSec: 0, p50Ms: 0, p99Ms: 0, statuses: {}, errors: 50 }
    expect(medianFigures([none, none, round(10, 100, 200)])).toEqual({
      reqPerSec: 0,
      p50Ms: Number.POSITIVE_INFINITY,
      p99Ms: Number.POSITIVE_INFINITY,
    })
    const comparison = compareSizes([round(10, 100, 200)], [none])
    expect(comparison.within).toEqual({ reqPerSec: false, p50Ms: false, p99Ms: false })
    expect(comparisonRow('sign-in', 'pglite', comparison)['large: req/s · p50 · p99 ms']).toBe(
      '0 · - · -',
    )
  })

  test('no answers on the small database is no pass', () => {
    const comparison = compareSizes([round(0, 0, 0)], [round(0, 0, 0)])
    expect(comparison.within.reqPerSec).toBe(false)
  })

  test('a printed row marks each ratio', () => {
    const row = comparisonRow(
      'card',
      'pglite',
      compareSizes([round(100, 10, 20)], [round(80, 10, 20)]),
    )
    expect(row['small: req/s · p50 · p99 ms']).toBe('100 · 10 · 20')
    expect(row['req/s large÷small']).toBe('0.80 ✗')
    expect(row['p99 large÷small']).toBe('1.00 ✓')
  })
})
