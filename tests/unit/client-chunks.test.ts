// The client build's shell chunk (ADR 125) on a module graph of Rollup's shape: what the client
// entry and the root route reach by static imports goes into it; entries, dynamic imports and what
// only a route imports do not.
import { describe, expect, test } from 'vitest'
import { clientChunks, SHELL_CHUNK } from '../../scripts/client-chunks'

type Graph = Record<string, { imports?: string[]; dynamic?: string[]; entry?: boolean }>

function metaOf(graph: Graph) {
  return {
    getModuleIds: () => Object.keys(graph)[Symbol.iterator](),
    getModuleInfo: (id: string) => {
      const node = graph[id]
      // Rollup lists dynamic imports apart (dynamicallyImportedIds); importedIds are static.
      return node ? { importedIds: node.imports ?? [], isEntry: Boolean(node.entry) } : null
    },
  }
}

const APP = '/work/app'
const graph: Graph = {
  [`${APP}/entry.client.tsx`]: { entry: true, imports: ['/nm/react-dom/client.js'] },
  [`${APP}/root.tsx?__remix-build-client-route`]: { entry: true, imports: [`${APP}/root.tsx`] },
  [`${APP}/root.tsx`]: {
    imports: ['/nm/react/index.js', `${APP}/components/site-header.tsx`],
    dynamic: [`${APP}/components/ui/toasts.tsx`],
  },
  '/nm/react-dom/client.js': { imports: ['/nm/react/index.js'] },
  '/nm/react/index.js': {},
  [`${APP}/components/site-header.tsx`]: { imports: ['/nm/lucide-react/icons/menu.js'] },
  '/nm/lucide-react/icons/menu.js': { imports: ['/nm/react/index.js'] },
  [`${APP}/components/ui/toasts.tsx`]: { imports: ['/nm/sonner/index.js'] },
  '/nm/sonner/index.js': {},
  [`${APP}/routes/dashboard.tsx`]: {
    entry: true,
    imports: [`${APP}/components/panel.tsx`, `${APP}/components/site-header.tsx`],
  },
  [`${APP}/components/panel.tsx`]: { imports: ['/nm/react/index.js'] },
}

describe('clientChunks', () => {
  test('puts what the entry and the root import statically, at any depth, in the shell', () => {
    const chunkOf = clientChunks()
    const meta = metaOf(graph)
    for (const id of [
      `${APP}/root.tsx`,
      '/nm/react-dom/client.js',
      '/nm/react/index.js',
      `${APP}/components/site-header.tsx`,
      '/nm/lucide-react/icons/menu.js',
    ]) {
      expect(chunkOf(id, meta), id).toBe(SHELL_CHUNK)
    }
  })

  test('leaves entries, dynamic imports and what only a route imports to Rollup', () => {
    const chunkOf = clientChunks()
    const meta = metaOf(graph)
    for (const id of [
      `${APP}/entry.client.tsx`,
      `${APP}/root.tsx?__remix-build-client-route`,
      `${APP}/routes/dashboard.tsx`,
      `${APP}/components/panel.tsx`,
      `${APP}/components/ui/toasts.tsx`,
      '/nm/sonner/index.js',
    ]) {
      expect(chunkOf(id, meta), id).toBeUndefined()
    }
  })

  test('refuses a graph without the client entry or the root route', () => {
    const { [`${APP}/entry.client.tsx`]: _, ...withoutEntry } = graph
    expect(() => clientChunks()('/nm/react/index.js', metaOf(withoutEntry))).toThrow(
      /no client entry or root route/,
    )
  })
})
