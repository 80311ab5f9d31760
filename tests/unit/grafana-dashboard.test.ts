// deploy/grafana-dashboard.json and the metrics registry cannot drift apart (ADR 097): every
// metric the dashboard queries is one the app exposes, and every series of the app's own is on
// the dashboard.
import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { metricsRegistry, startProcessMetrics } from '#app/observability/metrics.server'

type Panel = { type: string; title: string; targets?: { expr: string }[]; panels?: Panel[] }
const dashboard = JSON.parse(readFileSync('deploy/grafana-dashboard.json', 'utf8')) as {
  panels: Panel[]
  templating: { list: { query?: unknown }[] }
}

const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])])
const expressions = [
  ...panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)),
  ...dashboard.templating.list.map((variable) => JSON.stringify(variable.query ?? '')),
]
/** Names of ours and of Node's default collectors: PromQL's functions and labels have neither prefix. */
const queried = new Set(
  expressions.flatMap((expr) => expr.match(/\b(?:brandcard|process|nodejs)_[a-z0-9_]+\b/g) ?? []),
)

startProcessMetrics()
const registered = metricsRegistry.getMetricsAsArray()
/** Every series name the registry exposes: a histogram's _bucket, _sum and _count too. */
const exposed = new Set(
  registered.flatMap((metric) =>
    String(metric.type) === 'histogram'
      ? [`${metric.name}_bucket`, `${metric.name}_sum`, `${metric.name}_count`]
      : [metric.name],
  ),
)

test('the dashboard queries something', () => {
  expect(expressions.length).toBeGreaterThan(15)
  expect(queried.size).toBeGreaterThan(15)
})

test('every metric the dashboard queries exists in the registry', () => {
  expect([...queried].filter((name) => !exposed.has(name)).sort()).toEqual([])
})

test("every series of the app's own is on the dashboard", () => {
  const ours = registered
    .map((metric) => metric.name)
    .filter((name) => name.startsWith('brandcard_'))
  const onDashboard = (name: string) =>
    [...queried].some((series) => series === name || series.startsWith(`${name}_`))
  expect(ours.filter((name) => !onDashboard(name))).toEqual([])
})

test('each panel has a title and every query a non-empty expression', () => {
  for (const panel of panels) {
    expect(panel.title.length).toBeGreaterThan(0)
    for (const target of panel.targets ?? []) expect(target.expr.trim()).not.toBe('')
  }
})
