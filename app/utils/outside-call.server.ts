// Every call to a third party (the email provider, the CRM, Stripe, Google Wallet, APNs, DNS)
// goes through callOutside (issue 39 point 4): one deadline for the whole exchange, from the
// connection to the last byte of the answer, so an endpoint that is silent or trickles bytes
// forever ends the call at the deadline (an idle timeout would wait forever for the second);
// and every call in flight is cancelled when the process stops, so SIGTERM never waits on a
// provider. The call's own code gets the signal and drops its socket on it; when a client cannot
// take a signal the call is still answered at the deadline and its late answer is ignored.
import { getEnv } from '#app/env.server'

/** The call was cut short: by its deadline, or because the process is stopping. */
export class OutsideCallError extends Error {
  constructor(
    message: string,
    readonly reason: 'deadline' | 'shutdown',
  ) {
    super(message)
    this.name = 'OutsideCallError'
  }
}

let stopping = new AbortController()

/** Shutdown: every outside call in flight, and any started later, ends at once. */
export function cancelOutsideCalls() {
  stopping.abort()
}

/** A worker started again (tests, a restarted dev server): outside calls are allowed again. */
export function allowOutsideCalls() {
  if (stopping.signal.aborted) stopping = new AbortController()
}

/** The deadline of one outside call: OUTSIDE_CALL_DEADLINE_MS unless the caller has its own. */
export function outsideCallDeadlineMs() {
  return getEnv().OUTSIDE_CALL_DEADLINE_MS
}

/**
 * Runs `work` with a signal that aborts at the deadline or at shutdown; rejects with an
 * OutsideCallError then, whether or not `work` listened. `what` names the provider in the error.
 */
export async function callOutside<T>(
  what: string,
  work: (signal: AbortSignal) => Promise<T>,
  options: { deadlineMs?: number } = {},
): Promise<T> {
  const deadlineMs = options.deadlineMs ?? outsideCallDeadlineMs()
  const controller = new AbortController()
  const processStopping = stopping.signal
  const onStop = () =>
    controller.abort(
      new OutsideCallError(`${what}: cancelled, the process is stopping`, 'shutdown'),
    )
  const deadline = setTimeout(
    () =>
      controller.abort(
        new OutsideCallError(`${what} did not finish in ${deadlineMs} ms`, 'deadline'),
      ),
    deadlineMs,
  )
  deadline.unref()
  if (processStopping.aborted) onStop()
  else processStopping.addEventListener('abort', onStop, { once: true })
  let cutShort: (reason: unknown) => void = () => {}
  const aborted = new Promise<never>((_, reject) => {
    cutShort = reject
  })
  const onAbort = () => cutShort(controller.signal.reason)
  controller.signal.addEventListener('abort', onAbort, { once: true })
  try {
    if (controller.signal.aborted) throw controller.signal.reason
    const call = work(controller.signal)
    // Its own rejection after the deadline (the aborted socket) is nobody's to handle.
    call.catch(() => {})
    return await Promise.race([call, aborted])
  } finally {
    clearTimeout(deadline)
    processStopping.removeEventListener('abort', onStop)
    controller.signal.removeEventListener('abort', onAbort)
  }
}
