// Work that must not delay the answer: anything whose duration would tell an attacker
// something (whether an account exists) or that waits on a slow provider. The request answers
// first; the work runs in this process, is logged when it fails, and shutdown waits for it.

const pending = new Set<Promise<unknown>>()

export function runAfterResponse(label: string, work: () => Promise<unknown>) {
  // A macrotask later, so the caller's answer is on its way before the work starts.
  const task = new Promise<void>((resolve) => setImmediate(resolve))
    .then(work)
    .catch((error: unknown) => {
      console.error(`${label} failed`, error)
    })
  pending.add(task)
  void task.finally(() => pending.delete(task))
}

/** Waits until the work queued so far (and any it queued in turn) has finished: shutdown, tests. */
export async function settleAfterResponseWork() {
  while (pending.size > 0) await Promise.allSettled([...pending])
}
