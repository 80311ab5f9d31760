// What `npm run bench` prints and keeps: the scenarios beside the baseline, the budgets met or
// missed, and the whole run as JSON under bench/results/ for comparing commits.
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {
  answered,
  type BudgetRow,
  type DriverFigures,
  type Measurement,
  ratioOfBaseline,
  SCENARIO_IDS,
  type ScenarioId,
  SIGNED_IN_SCENARIOS,
  type SoakFigures,
} from './budgets'
import { SCENARIO_NAMES } from './scenarios'

/** "200×1234 302×5": every status code answered, most frequent first. */
export function statusSummary(statuses: Record<string, number>) {
  return Object.entries(statuses)
    .sort(([, a], [, b]) => b - a)
    .map(([status, count]) => `${status}×${count}`)
    .join(' ')
}

/**
 * What was wrong with a scenario's answers, as a warning for `label`: none in time, or statuses
 * other than the expected one (429s counted apart), or errors and timeouts. undefined if nothing.
 */
export function unexpectedAnswers(
  label: string,
  expectedStatus: number,
  measured: Measurement,
  seconds: number,
): string | undefined {
  if (answered(measured) === 0) {
    return `${label}: no request was answered within the ${seconds} s (every one slower than that under this load)`
  }
  const unexpected = Object.keys(measured.statuses).filter(
    (status) => status !== String(expectedStatus),
  )
  if (unexpected.length === 0 && measured.errors === 0) return undefined
  const limited = measured.statuses['429']
    ? ` (${measured.statuses['429']} refused by the rate limiter)`
    : ''
  return `${label}: expected ${expectedStatus} only, got ${statusSummary(measured.statuses)}${limited}; ${measured.errors} errors or timeouts`
}

function tableRow(scenario: string, driver: string, measured: Measurement, baseline: Measurement) {
  // Without a single answer autocannon's latencies are 0: shown as a dash, not as fast.
  const none = answered(measured) === 0
  return {
    scenario,
    driver,
    'req/s': measured.reqPerSec,
    '% of baseline': `${ratioOfBaseline(measured.reqPerSec, baseline.reqPerSec)}%`,
    'p50 ms': none ? '-' : measured.p50Ms,
    'p99 ms': none ? '-' : measured.p99Ms,
    answers: none ? 'none in time' : statusSummary(measured.statuses),
    errors: measured.errors,
    // The server's, from the run's start until its work was done (none for the baseline's row).
    'peak RSS MB': measured.peakRssBytes ? Math.round(measured.peakRssBytes / 1e6) : '-',
  }
}

export function scenarioTable(baseline: Measurement, drivers: DriverFigures[]) {
  const rows = [tableRow('baseline: node:http, card page bytes', '-', baseline, baseline)]
  for (const id of SCENARIO_IDS) {
    for (const { driver, scenarios } of drivers) {
      const measured = scenarios[id]
      if (measured) rows.push(tableRow(SCENARIO_NAMES[id], driver, measured, baseline))
    }
  }
  return rows
}

/** Issue 44: each signed-in page's server CPU per request and p99, beside its bare server's. */
export function signedInTable(
  baselines: Partial<Record<ScenarioId, Measurement>>,
  drivers: DriverFigures[],
) {
  const rows = []
  for (const id of SIGNED_IN_SCENARIOS) {
    const bare = baselines[id]
    for (const { driver, scenarios } of drivers) {
      const measured = scenarios[id]
      if (!measured) continue
      const none = answered(measured) === 0
      rows.push({
        page: SCENARIO_NAMES[id],
        driver,
        'CPU ms/req': none ? '-' : (measured.cpuMsPerRequest ?? '?'),
        'bare CPU ms/req': bare?.cpuMsPerRequest ?? '?',
        'p99 ms': none ? '-' : measured.p99Ms,
        'bare p99 ms': bare?.p99Ms ?? '?',
        'req/s': measured.reqPerSec,
        'bare req/s': bare?.reqPerSec ?? '?',
      })
    }
  }
  return rows
}

/**
 * One line on a soak: RSS at its start and end, the slope after warm-up, CPU per request, and the
 * heap alive after each collection the bench asked for.
 */
export function soakSummary(soak: SoakFigures) {
  const mb = (bytes: number | undefined) =>
    bytes === undefined ? '?' : `${Math.round(bytes / 1e6)} MB`
  const peak = Math.max(...soak.samples.map(([, rss]) => rss))
  return `soak of ${soak.seconds} s, ${soak.answers} answers, CPU ${soak.cpuMsPerRequest ?? '?'} ms/request: RSS ${mb(soak.samples[0]?.[1])} at the start, ${mb(soak.samples.at(-1)?.[1])} at the end, peak ${mb(peak)}; slope after the first ${soak.warmupSeconds} s ${soak.slopeMbPerMinute ?? '?'} MB/min${soak.heapSamples?.length ? `; V8 heap used ${mb(soak.heapSamples[0]?.[1])} at the start, ${mb(soak.heapSamples.at(-1)?.[1])} at the end, slope ${soak.heapSlopeMbPerMinute ?? '?'} MB/min` : ''}${soak.aliveSamples?.length ? `; alive after a full collection ${soak.aliveSamples.map(([at, bytes]) => `${(bytes / 1e6).toFixed(2)} MB at ${at} s`).join(', ')}` : ''}`
}

export function budgetTable(budgets: BudgetRow[]) {
  return budgets.map(({ met, ...row }) => ({
    ...row,
    result: met === null ? 'not measured' : met ? 'met' : 'MISSED',
  }))
}

export function gitCommit() {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim()
  try {
    return { sha: git('rev-parse', '--short', 'HEAD'), dirty: git('status', '--porcelain') !== '' }
  } catch {
    return { sha: 'nogit', dirty: false }
  }
}

/**
 * bench/results/<prefix><ISO time>-<short sha>.json (colons left out: not every file system takes
 * them); `npm run bench:scale` names its runs with the prefix "scale-".
 */
export function writeResults(
  directory: string,
  startedAt: Date,
  sha: string,
  data: unknown,
  prefix = '',
) {
  mkdirSync(directory, { recursive: true })
  const time = startedAt
    .toISOString()
    .replace(/:/g, '-')
    .replace(/\.\d+Z$/, 'Z')
  const file = path.join(directory, `${prefix}${time}-${sha}.json`)
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`)
  return file
}

/**
 * A bench command's run kept under bench/results/: when it started and how long it took, the
 * commit, the machine and its load (other work on it shows in every figure), then `figures`.
 * The file's path.
 */
export function keepRun(
  run: {
    startedAt: Date
    durationSeconds: number
    loadAverage: { atStart?: number; atEnd?: number }
  },
  figures: Record<string, unknown>,
  prefix = '',
) {
  const commit = gitCommit()
  return writeResults(
    path.join('bench', 'results'),
    run.startedAt,
    commit.sha,
    {
      startedAt: run.startedAt.toISOString(),
      durationSeconds: run.durationSeconds,
      commit,
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        node: process.version,
        loadAverage: run.loadAverage,
      },
      ...figures,
    },
    prefix,
  )
}
