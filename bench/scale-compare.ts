// The pure part of `npm run bench:scale` (issue 16 point 4, flat cost as tenants grow): the
// rounds of one scenario on the small and the large database reduced to medians, the median of
// the rounds' large ÷ small ratios, and whether each stays within SCALE_TOLERANCE.
// tests/unit/bench-scale.test.ts covers it.
import type { Measurement } from './budgets'

/** The large database may cost at most 15% more: 15% fewer req/s, 15% higher latencies. */
export const SCALE_TOLERANCE = 0.15

export type Figures = { reqPerSec: number; p50Ms: number; p99Ms: number }
export type Ratios = Figures
export type SizeComparison = {
  small: Figures
  large: Figures
  /** Median over the rounds of large ÷ small, two decimals. */
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

/**
 * A round's figures; a round in which nothing was answered in time has no latencies to show
 * (autocannon reports 0): it counts as slower than any other, not as instant.
 */
function roundFigures(round: Measurement): Figures {
  const none = Object.values(round.statuses).every((count) => count === 0)
  return none
    ? { reqPerSec: 0, p50Ms: Number.POSITIVE_INFINITY, p99Ms: Number.POSITIVE_INFINITY }
    : { reqPerSec: round.reqPerSec, p50Ms: round.p50Ms, p99Ms: round.p99Ms }
}

const FIGURES: (keyof Figures)[] = ['reqPerSec', 'p50Ms', 'p99Ms']

const byFigure = (make: (key: keyof Figures) => number) =>
  Object.fromEntries(FIGURES.map((key) => [key, make(key)])) as Figures

/** Each figure's median over the rounds (taken apart: the rounds' own noise is the point). */
export function medianFigures(rounds: Measurement[]): Figures {
  const figures = rounds.map(roundFigures)
  return byFigure((key) => median(figures.map((round) => round[key])))
}

// Nothing to compare against (no answers on the small database) is NaN: within nothing.
const ratio = (large: number, small: number) =>
  small > 0 && Number.isFinite(small) ? large / small : Number.NaN
const twoDecimals = (value: number) => Math.round(value * 100) / 100

/**
 * The rounds of both sizes, paired in order (round n of each ran one after the other): each
 * ratio is the median of the rounds' own large ÷ small, so that a swing of the machine's load
 * between rounds, which moves both sides of a pair alike, does not move the ratio.
 */
export function compareSizes(small: Measurement[], large: Measurement[]): SizeComparison {
  if (small.length !== large.length) throw new Error('the sizes ran different numbers of rounds')
  const pairs = small.map((round, i) => [
    roundFigures(round),
    roundFigures(large[i] as Measurement),
  ])
  // NaN (nothing answered on the small side) sorts as a miss: it is left out while any pair
  // remains, and is the ratio when none does.
  const ratios = byFigure((key) => {
    const each = pairs.map(([s, l]) => ratio((l as Figures)[key], (s as Figures)[key]))
    const known = each.filter((value) => !Number.isNaN(value))
    return known.length > 0 ? twoDecimals(median(known)) : Number.NaN
  })
  return {
    small: medianFigures(small),
    large: medianFigures(large),
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

/** One printed row: "req/s · p50 ms · p99 ms" per size (medians) and each ratio with ✓ or ✗. */
export function comparisonRow(scenario: string, driver: string, comparison: SizeComparison) {
  // A median latency of rounds with nothing answered in time is shown as a dash.
  const ms = (value: number) => (Number.isFinite(value) ? String(value) : '-')
  const figures = ({ reqPerSec, p50Ms, p99Ms }: Figures) =>
    `${reqPerSec} · ${ms(p50Ms)} · ${ms(p99Ms)}`
  const mark = (key: keyof Figures) => {
    const value = comparison.ratio[key]
    return `${Number.isFinite(value) ? value.toFixed(2) : 'n/a'} ${comparison.within[key] ? '✓' : '✗'}`
  }
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
