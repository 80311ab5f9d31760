// The pure part of `npm run bench:scale` (issue 16 point 4, flat cost as tenants grow): the
// rounds of one scenario on the small and the large database reduced to medians, their ratios,
// and whether each stays within SCALE_TOLERANCE. tests/unit/bench-scale.test.ts covers it.
import type { Measurement } from './budgets'

/** The large database may cost at most 15% more: 15% fewer req/s, 15% higher latencies. */
export const SCALE_TOLERANCE = 0.15

export type Figures = { reqPerSec: number; p50Ms: number; p99Ms: number }
export type Ratios = Figures
export type SizeComparison = {
  small: Figures
  large: Figures
  /** large ÷ small, two decimals. */
  ratio: Ratios
  within: Record<keyof Figures, boolean>
}

function median(values: number[]) {
  if (values.length === 0) throw new Error('no rounds to take the median of')
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

/** Each figure's median over the rounds (taken apart: the rounds' own noise is the point). */
export function medianFigures(rounds: Measurement[]): Figures {
  return {
    reqPerSec: median(rounds.map((round) => round.reqPerSec)),
    p50Ms: median(rounds.map((round) => round.p50Ms)),
    p99Ms: median(rounds.map((round) => round.p99Ms)),
  }
}

// Nothing to compare against (no answers on the small database) is NaN: within nothing.
const ratio = (large: number, small: number) =>
  small > 0 ? Math.round((large / small) * 100) / 100 : Number.NaN

export function compareSizes(small: Measurement[], large: Measurement[]): SizeComparison {
  const s = medianFigures(small)
  const l = medianFigures(large)
  const ratios = {
    reqPerSec: ratio(l.reqPerSec, s.reqPerSec),
    p50Ms: ratio(l.p50Ms, s.p50Ms),
    p99Ms: ratio(l.p99Ms, s.p99Ms),
  }
  return {
    small: s,
    large: l,
    ratio: ratios,
    within: {
      reqPerSec: ratios.reqPerSec >= 1 - SCALE_TOLERANCE,
      p50Ms: ratios.p50Ms <= 1 + SCALE_TOLERANCE,
      p99Ms: ratios.p99Ms <= 1 + SCALE_TOLERANCE,
    },
  }
}

/** True when every figure of every comparison is within the tolerance. */
export const allWithin = (comparisons: SizeComparison[]) =>
  comparisons.every(({ within }) => Object.values(within).every(Boolean))

/** One printed row: "req/s · p50 ms · p99 ms" per size and each ratio with ✓ or ✗. */
export function comparisonRow(scenario: string, driver: string, comparison: SizeComparison) {
  const figures = ({ reqPerSec, p50Ms, p99Ms }: Figures) => `${reqPerSec} · ${p50Ms} · ${p99Ms}`
  const mark = (key: keyof Figures) =>
    `${comparison.ratio[key].toFixed(2)} ${comparison.within[key] ? '✓' : '✗'}`
  return {
    scenario,
    driver,
    'small: req/s · p50 · p99 ms': figures(comparison.small),
    'large: req/s · p50 · p99 ms': figures(comparison.large),
    'req/s large÷small': mark('reqPerSec'),
    'p50 large÷small': mark('p50Ms'),
    'p99 large÷small': mark('p99Ms'),
  }
}
