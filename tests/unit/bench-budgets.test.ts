// The pure parts of `npm run bench` (bench/budgets.ts, bench/baseline.ts): what a figure is
// worth against the baseline and its budget, and what counts as the card page's weight.
import { gzipSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { replayableHeaders } from '../../bench/baseline'
import {
  assetLinks,
  type DriverFigures,
  evaluateBudgets,
  floorSamples,
  gzipWeight,
  inlineStyles,
  type Measurement,
  type RunFigures,
  ratioOfBaseline,
  rssSlopeMbPerMinute,
  SCENARIO_IDS,
  type ScenarioId,
  type SoakFigures,
} from '../../bench/budgets'

const names = Object.fromEntries(SCENARIO_IDS.map((id) => [id, id])) as Record<ScenarioId, string>

const measured = (reqPerSec: number, p99Ms = 10): Measurement => ({
  reqPerSec,
  p50Ms: 1,
  p99Ms,
  statuses: { '200': reqPerSec },
  errors: 0,
})

function run(overrides: Partial<DriverFigures> = {}, rest: Partial<RunFigures> = {}): RunFigures {
  return {
    baseline: measured(10_000),
    drivers: [
      {
        driver: 'pglite',
        scenarios: {},
        peakRssBytes: null,
        dashboardStatisticsP50Ms: null,
        ...overrides,
      },
    ],
    pageWeight: null,
    lcp: null,
    ...rest,
  }
}

describe('ratioOfBaseline', () => {
  test('is a percentage with two decimals', () => {
    expect(ratioOfBaseline(215, 32_500)).toBe(0.66)
    expect(ratioOfBaseline(3500, 10_000)).toBe(35)
    expect(ratioOfBaseline(12_345, 10_000)).toBe(123.45)
  })

  test('is 0 when the baseline answered nothing', () => {
    expect(ratioOfBaseline(100, 0)).toBe(0)
  })
})

describe('evaluateBudgets', () => {
  test('a card page at 35% of the baseline and a p99 of 50 ms meets both budgets', () => {
    const rows = evaluateBudgets(
      run({ scenarios: { 'card-returning': measured(3500, 50) } }),
      names,
    ).filter((row) => row.budget.startsWith('card-returning'))
    expect(rows).toEqual([
      expect.objectContaining({ target: '≥ 35%', actual: '35%', met: true }),
      expect.objectContaining({ target: '≤ 50 ms', actual: '50 ms', met: true }),
    ])
  })

  test('just under a share or just over a p99 is missed', () => {
    const rows = evaluateBudgets(
      run({ scenarios: { 'card-new-visitor': measured(3490, 51) } }),
      names,
    ).filter((row) => row.budget.startsWith('card-new-visitor'))
    expect(rows.map((row) => row.met)).toEqual([false, false])
  })

  test('cached resources need 40%, the tenant home and signed-in pages 10%', () => {
    const rows = evaluateBudgets(
      run({
        scenarios: {
          'qr-png': measured(3999),
          vcard: measured(4000),
          'tenant-home': measured(1000),
          dashboard: measured(999),
        },
      }),
      names,
    )
    const result = (id: string) => rows.find((row) => row.budget.startsWith(`${id}:`))?.met
    expect(result('qr-png')).toBe(false)
    expect(result('vcard')).toBe(true)
    expect(result('tenant-home')).toBe(true)
    expect(result('dashboard')).toBe(false)
  })

  test('a card page that answered nothing in time misses its p99 budget', () => {
    const silent = { ...measured(0, 0), statuses: {} }
    const rows = evaluateBudgets(run({ scenarios: { 'card-returning': silent } }), names)
    expect(rows.find((row) => row.budget === 'card-returning: p99')).toMatchObject({
      actual: 'no answers',
      met: false,
    })
  })

  test('sign-in has no share budget (argon2 bounds it) and only card pages have a p99 one', () => {
    const rows = evaluateBudgets(
      run({ scenarios: { 'sign-in': measured(20), health: measured(5000, 900) } }),
      names,
    )
    expect(rows.some((row) => row.budget.startsWith('sign-in'))).toBe(false)
    expect(rows.filter((row) => row.budget.startsWith('health'))).toHaveLength(1)
  })

  test('memory, dashboard statistics, page weight and LCP against their targets', () => {
    const rows = evaluateBudgets(
      run(
        { peakRssBytes: 250_000_001, dashboardStatisticsP50Ms: 20 },
        {
          pageWeight: { js: { files: 3, gzipBytes: 90_000 }, css: { files: 1, gzipBytes: 15_001 } },
          lcp: { ms: 1400, driver: 'pglite' },
        },
      ),
      names,
    )
    const byBudget = (start: string) => rows.find((row) => row.budget.startsWith(start))
    expect(byBudget('server peak RSS')).toMatchObject({ actual: '250 MB', met: false })
    expect(byBudget('dashboard statistics')).toMatchObject({ actual: '20 ms', met: true })
    expect(byBudget('JavaScript')).toMatchObject({ actual: '90.0 KB', met: true })
    expect(byBudget('CSS')).toMatchObject({ actual: '15.0 KB', met: false })
    expect(byBudget('LCP')).toMatchObject({ driver: 'pglite', met: true })
  })

  test('what was not measured says so instead of passing or failing', () => {
    const rows = evaluateBudgets(run(), names)
    for (const start of ['server peak RSS', 'dashboard statistics', 'JavaScript', 'CSS', 'LCP']) {
      expect(rows.find((row) => row.budget.startsWith(start))).toMatchObject({
        actual: 'not measured',
        met: null,
      })
    }
  })

  test('nothing is met against a baseline that answered nothing', () => {
    const figures = run({ scenarios: { health: measured(5000) } }, { baseline: measured(0) })
    expect(
      evaluateBudgets(figures, names).find((row) => row.budget.startsWith('health')),
    ).toMatchObject({
      met: false,
    })
  })

  test('each driver gets its own rows', () => {
    const figures = run({ scenarios: { health: measured(5000) } })
    figures.drivers.push({ ...(figures.drivers[0] as DriverFigures), driver: 'postgres' })
    const health = evaluateBudgets(figures, names).filter((row) => row.budget.startsWith('health'))
    expect(health.map((row) => row.driver)).toEqual(['pglite', 'postgres'])
  })
})

describe('page weight', () => {
  test('gzipped sizes are summed per kind', () => {
    const a = Buffer.from('export const a = 1;\n'.repeat(200))
    const b = Buffer.from('export const b = 2;\n'.repeat(50))
    const css = Buffer.from('.card { color: red }\n'.repeat(100))
    expect(
      gzipWeight([
        { kind: 'js', body: a },
        { kind: 'js', body: b },
        { kind: 'css', body: css },
      ]),
    ).toEqual({
      js: { files: 2, gzipBytes: gzipSync(a).length + gzipSync(b).length },
      css: { files: 1, gzipBytes: gzipSync(css).length },
    })
  })

  test('scripts, module preloads and stylesheets are found once each; other links are not', () => {
    const html = `<!DOCTYPE html><html><head>
      <link rel="icon" href="/favicon.ico">
      <link rel="stylesheet" href="/assets/tailwind.css">
      <link rel="modulepreload" href="/assets/manifest.js"/>
      <link rel='modulepreload' href='/assets/entry.client.js'>
      <link rel="preload" as="image" href="/media/logo.png">
      </head><body>
      <script nonce="abc">window.__remixContext = {}</script>
      <script type="module" src="/assets/entry.client.js"></script>
      <script src="/assets/extra.js" async></script>
      </body></html>`
    expect(assetLinks(html)).toEqual([
      { kind: 'css', href: '/assets/tailwind.css' },
      { kind: 'js', href: '/assets/manifest.js' },
      { kind: 'js', href: '/assets/entry.client.js' },
      { kind: 'js', href: '/assets/extra.js' },
    ])
  })

  test('inline style sheets count as CSS too', () => {
    const html = `<head><style nonce="n">:root{--a:#fff}</style><style>
      body{margin:0}</style></head><body><p style="color:red">x</p></body>`
    expect(inlineStyles(html).map((body) => new TextDecoder().decode(body))).toEqual([
      ':root{--a:#fff}',
      '\n      body{margin:0}',
    ])
  })
})

describe('the baseline replays the page', () => {
  test('without the headers of one request or connection, repeated headers kept', () => {
    expect(
      replayableHeaders([
        'Content-Type',
        'text/html; charset=utf-8',
        'Date',
        'Tue, 24 Nov 2026 10:00:00 GMT',
        'Connection',
        'keep-alive',
        'Keep-Alive',
        'timeout=5',
        'Transfer-Encoding',
        'chunked',
        'Set-Cookie',
        'a=1',
        'Set-Cookie',
        'b=2',
        'Content-Security-Policy',
        "default-src 'self'",
      ]),
    ).toEqual({
      'content-type': 'text/html; charset=utf-8',
      'set-cookie': ['a=1', 'b=2'],
      'content-security-policy': "default-src 'self'",
    })
  })
})

describe('issue 44: signed-in pages and memory', () => {
  const signedIn = (cpuMsPerRequest: number, p99Ms: number): Measurement => ({
    ...measured(100, p99Ms),
    cpuMsPerRequest,
  })

  test('on Postgres each signed-in page needs at most 3 ms of CPU and a p99 of 100 ms', () => {
    const figures = run({
      driver: 'postgres',
      scenarios: { dashboard: signedIn(3, 100), contacts: signedIn(3.01, 101) },
      signedInPeakRssBytes: 300_000_001,
    })
    const rows = evaluateBudgets(figures, names)
    const byBudget = (name: string) => rows.find((row) => row.budget === name)
    expect(byBudget('dashboard: server CPU per request')?.met).toBe(true)
    expect(byBudget('dashboard: p99')?.met).toBe(true)
    expect(byBudget('contacts: server CPU per request')?.met).toBe(false)
    expect(byBudget('contacts: p99')?.met).toBe(false)
    expect(byBudget('server peak RSS under signed-in load')).toMatchObject({
      actual: '300 MB',
      met: false,
    })
  })

  test('PGlite prints its figures but has no issue 44 rows', () => {
    const rows = evaluateBudgets(run({ scenarios: { dashboard: signedIn(30, 900) } }), names)
    expect(rows.some((row) => row.budget.includes('CPU per request'))).toBe(false)
  })

  test('a soak is a leak test: the heap alive after a full collection, middle to end', () => {
    const soak = (alive: [number, number, number][], peakRss = 253e6): SoakFigures => ({
      seconds: 600,
      warmupSeconds: 120,
      // RSS stepping up in the second half is no leak: only its peak has a budget.
      samples: [
        [0, 240e6],
        [300, 245e6],
        [590, peakRss],
      ],
      heapSamples: [],
      heapSlopeMbPerMinute: 0.5,
      slopeMbPerMinute: 2,
      aliveSamples: alive,
      answers: 2_000_000,
      cpuMsPerRequest: 0.2,
    })
    const rows = (figures: SoakFigures) =>
      evaluateBudgets(run({ driver: 'postgres', soak: figures }), names).filter((row) =>
        row.budget.startsWith('soak of 600 s'),
      )
    // The app's heap flat, the JIT's code grown by 0.8 MB: met.
    const settled = rows(
      soak([
        [300, 70e6, 5e6],
        [590, 70.9e6, 5.8e6],
      ]),
    )
    expect(settled.map((row) => [row.budget, row.actual, row.met])).toEqual([
      [
        'soak of 600 s: heap alive after a full collection, middle to end',
        '+0.10 MB (compiled code +0.80 MB)',
        true,
      ],
      ['soak of 600 s: peak RSS', '253 MB', true],
    ])
    // 1.5 MB more kept by the app: a leak.
    const leaking = rows(
      soak([
        [300, 70e6, 5e6],
        [590, 71.5e6, 5e6],
      ]),
    )
    expect(leaking.map((row) => [row.actual, row.met])).toEqual([
      ['+1.50 MB (compiled code +0.00 MB)', false],
      ['253 MB', true],
    ])
    // Less alive at the end, RSS past its budget.
    expect(
      rows(
        soak(
          [
            [300, 70e6, 5e6],
            [590, 69e6, 5e6],
          ],
          310e6,
        ),
      ).map((row) => [row.actual, row.met]),
    ).toEqual([
      ['-1.00 MB (compiled code +0.00 MB)', true],
      ['310 MB', false],
    ])
    // Without the middle's reading there is no figure.
    expect(rows(soak([[590, 70e6, 5e6]]))[0]?.met).toBeNull()
  })

  test("the heap's floor: the lowest sample of each window, a window of one sample left out", () => {
    const samples: [number, number][] = [
      [0, 90],
      [10, 70],
      [20, 95],
      [120, 100],
      [130, 72],
      [140, 99],
      [240, 101],
    ]
    expect(floorSamples(samples, 120)).toEqual([
      [0, 70],
      [120, 72],
    ])
  })

  test('the soak slope is a least-squares line after the warm-up, in MB per minute', () => {
    const samples: [number, number][] = [
      [0, 100e6],
      [10, 400e6],
      [20, 200e6],
      [30, 201e6],
      [40, 202e6],
    ]
    // 1 MB per 10 s after second 20: 6 MB a minute; the spike of the warm-up is left out.
    expect(rssSlopeMbPerMinute(samples, 20)).toBe(6)
    expect(rssSlopeMbPerMinute(samples, 30)).toBeNull()
  })
})
