// The pure half of `npm run bench:profile`: a V8 CPU profile (.cpuprofile, as `node --cpu-prof`
// writes it) reduced to where the busy time went, by the code it ran in. Nothing here starts a
// server, so tests/unit/cpu-profile.test.ts covers it.

export type CpuProfile = {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]
  samples: number[]
  timeDeltas: number[]
}

export const CATEGORIES = [
  'PGlite (the embedded database, WebAssembly)',
  'postgres.js (the Postgres driver)',
  'React rendering (react-dom/server)',
  'Remix (routing, loaders, document)',
  'application and bundled libraries (build/server: loaders, Drizzle, zod, date-fns)',
  'front server (build/server.js: page cache, tenancy, headers)',
  'Express and its middleware',
  'argon2 (password hashing)',
  'Node internals (HTTP, streams, crypto, timers)',
  'other packages',
  'garbage collection',
  'V8 and native code (compilation, builtins)',
] as const
export type Category = (typeof CATEGORIES)[number]

const MIDDLEWARE =
  /node_modules\/(express|body-parser|compression|helmet|pino|pino-http|router|send|finalhandler|on-finished|cookie)\//

/** Which part of the server a sampled function belongs to, from its script's address. */
export function categorize(functionName: string, url: string): Category | 'idle' {
  if (functionName === '(idle)') return 'idle'
  if (functionName === '(garbage collector)') return 'garbage collection'
  if (functionName === '(program)' || functionName === '(root)')
    return 'V8 and native code (compilation, builtins)'
  if (url.includes('@electric-sql/pglite') || url.startsWith('wasm://'))
    return 'PGlite (the embedded database, WebAssembly)'
  if (url.includes('node_modules/postgres/')) return 'postgres.js (the Postgres driver)'
  if (url.includes('node_modules/react-dom/') || url.includes('node_modules/react/'))
    return 'React rendering (react-dom/server)'
  if (url.includes('node_modules/@remix-run/')) return 'Remix (routing, loaders, document)'
  if (url.includes('/build/server/'))
    return 'application and bundled libraries (build/server: loaders, Drizzle, zod, date-fns)'
  if (url.endsWith('/build/server.js'))
    return 'front server (build/server.js: page cache, tenancy, headers)'
  if (MIDDLEWARE.test(url)) return 'Express and its middleware'
  if (url.includes('@node-rs/argon2')) return 'argon2 (password hashing)'
  if (url.startsWith('node:') || url === '') return 'Node internals (HTTP, streams, crypto, timers)'
  return 'other packages'
}

export type ProfileSummary = {
  /** Sampled time in ms, idle left out. */
  busyMs: number
  idleMs: number
  categories: { category: Category; ms: number; share: number }[]
  /** The functions with the most self time. */
  hottest: { function: string; category: Category; ms: number; share: number }[]
}

const round = (value: number, places = 1) => Math.round(value * 10 ** places) / 10 ** places

export function summarizeProfile(profile: CpuProfile, hottestCount = 15): ProfileSummary {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  const byCategory = new Map<Category, number>()
  const byFunction = new Map<string, { category: Category; us: number }>()
  let idleUs = 0
  let busyUs = 0
  profile.samples.forEach((nodeId, index) => {
    const node = nodes.get(nodeId)
    // A sample's delta is the time since the previous one: it belongs to this sample.
    const us = Math.max(0, profile.timeDeltas[index] ?? 0)
    if (!node) return
    const { functionName, url, lineNumber } = node.callFrame
    const category = categorize(functionName, url)
    if (category === 'idle') {
      idleUs += us
      return
    }
    busyUs += us
    byCategory.set(category, (byCategory.get(category) ?? 0) + us)
    const where = url.replace(/^.*\/node_modules\//, '').replace(/^.*\/build\//, 'build/')
    // A regular expression's "function name" is its whole source: isbot's is 3,000 characters.
    const shortName = functionName.length > 80 ? `${functionName.slice(0, 77)}...` : functionName
    const name = `${shortName || '(anonymous)'} ${where}${where ? `:${lineNumber + 1}` : ''}`
    const entry = byFunction.get(name) ?? { category, us: 0 }
    entry.us += us
    byFunction.set(name, entry)
  })
  const share = (us: number) => (busyUs > 0 ? round((us / busyUs) * 100) : 0)
  return {
    busyMs: round(busyUs / 1000, 0),
    idleMs: round(idleUs / 1000, 0),
    categories: [...byCategory.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([category, us]) => ({ category, ms: round(us / 1000, 0), share: share(us) })),
    hottest: [...byFunction.entries()]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, hottestCount)
      .map(([name, { category, us }]) => ({
        function: name,
        category,
        ms: round(us / 1000, 0),
        share: share(us),
      })),
  }
}
