// How the client build groups modules into chunks (ADR 125). Every page runs the client entry
// and the root route first, with everything they import statically: left to Rollup, those
// modules were split by which routes share them into 20-odd chunks, each a request of its own on
// every first load (an end user's dashboard named 59 scripts, sign-in 26). One chunk holds what
// every page loads anyway, in one request. Route modules and what only they import are still
// split by Rollup, so a page loads no route's code but its own.

/** The part of Rollup's `manualChunks` meta this reads. */
type ChunkMeta = {
  getModuleIds: () => IterableIterator<string>
  getModuleInfo: (id: string) => { importedIds: readonly string[]; isEntry: boolean } | null
}

/** The chunk that holds the client entry, the root route and what they import statically. */
export const SHELL_CHUNK = 'shell'

// The modules every page starts from: Remix's client entry and root route (the root's module and
// the client route Remix makes of it, its path with a query).
const ENTRY = /\/app\/entry\.client\.tsx$/
const ROOT = /\/app\/root\.tsx(\?.*)?$/

/**
 * A `manualChunks` function for one client build. Its shell is worked out once per build, from
 * the module graph Rollup has finished, following static imports only: a dynamic import (the
 * toasts, the account menu: ADR 022) stays a chunk of its own, loaded when it is needed.
 */
export function clientChunks() {
  let shell: Set<string> | undefined
  return (id: string, meta: ChunkMeta): string | undefined => {
    shell ??= staticallyReached(meta)
    // An entry (the client entry, a route module) keeps a file of its own, under the name the
    // manifest gives it.
    if (meta.getModuleInfo(id)?.isEntry) return undefined
    return shell.has(id) ? SHELL_CHUNK : undefined
  }
}

function staticallyReached(meta: ChunkMeta) {
  const reached = new Set<string>()
  const queue = [...meta.getModuleIds()].filter((id) => ENTRY.test(id) || ROOT.test(id))
  // A renamed entry or root would leave the shell empty, and every page back to its 20-odd chunks.
  if (!queue.some((id) => ENTRY.test(id)) || !queue.some((id) => ROOT.test(id))) {
    throw new Error(`client chunks: no client entry or root route among ${queue.join(', ')}`)
  }
  while (queue.length > 0) {
    const id = queue.pop() as string
    if (reached.has(id)) continue
    reached.add(id)
    queue.push(...(meta.getModuleInfo(id)?.importedIds ?? []))
  }
  return reached
}
