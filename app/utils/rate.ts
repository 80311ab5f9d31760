/** A rate as the analytics screen and its CSV show it: a percent to one decimal, or "—" without a base. */
export function formatRate(value: number | null) {
  return value === null ? '—' : `${Math.round(value * 1000) / 10}%`
}
