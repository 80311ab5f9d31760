import { describe, expect, it } from 'vitest'
import { type CpuProfile, categorize, summarizeProfile } from '../../bench/cpu-profile'

const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 0 })

describe('npm run bench:profile summary', () => {
  it('puts each sampled function in the part of the server it belongs to', () => {
    expect(categorize('(idle)', '')).toBe('idle')
    expect(categorize('(garbage collector)', '')).toBe('garbage collection')
    expect(categorize('wasm-function[1]', 'wasm://wasm/abc')).toMatch(/^PGlite/)
    expect(categorize('x', 'file:///app/node_modules/postgres/src/connection.js')).toMatch(
      /^postgres\.js/,
    )
    expect(categorize('r', 'file:///app/node_modules/react-dom/cjs/server.js')).toMatch(/^React/)
    expect(
      categorize('matchPath', 'file:///app/node_modules/@remix-run/router/dist/router.cjs.js'),
    ).toMatch(/^Remix/)
    expect(categorize('loader', 'file:///app/build/server/assets/server-build-1.js')).toMatch(
      /^application/,
    )
    expect(categorize('handle', 'file:///app/build/server.js')).toMatch(/^front server/)
    expect(categorize('compression', 'file:///app/node_modules/compression/index.js')).toMatch(
      /^Express/,
    )
    expect(categorize('writev', '')).toMatch(/^Node internals/)
    expect(categorize('emit', 'node:events')).toMatch(/^Node internals/)
    expect(categorize('x', 'file:///app/node_modules/lru-cache/index.js')).toBe('other packages')
  })

  it('adds each sample delta to its function, leaves idle out of the shares', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(idle)') },
        { id: 2, callFrame: frame('render', 'file:///app/node_modules/react-dom/server.js') },
        { id: 3, callFrame: frame('(garbage collector)') },
        { id: 4, callFrame: frame('x'.repeat(500), 'file:///app/build/server.js') },
      ],
      samples: [1, 2, 2, 3, 4, 1],
      timeDeltas: [5_000, 1_000, 2_000, 1_000, 1_000, 5_000],
    }
    const summary = summarizeProfile(profile)
    expect(summary.busyMs).toBe(5)
    expect(summary.idleMs).toBe(10)
    expect(summary.categories[0]).toEqual({
      category: 'React rendering (react-dom/server)',
      ms: 3,
      share: 60,
    })
    expect(summary.categories.map((entry) => entry.share).reduce((a, b) => a + b)).toBe(100)
    const long = summary.hottest.find((entry) => entry.category.startsWith('front server'))
    expect(long?.function.length).toBeLessThan(120)
  })
})
