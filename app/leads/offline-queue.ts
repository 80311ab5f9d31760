// The browser's queue of leads captured on "My cards offline" (issue 45 point 4, ADR 104). A lead
// is stored first, always, with a key made when it was captured; then the queue sends what it
// holds, oldest first, when it can. Nothing is dropped: a lead leaves the queue only when the
// server says it arrived (now or before: the key makes a resend harmless), and a lead the server
// refuses stays, with the server's message, until its owner corrects or discards it.
import type { OfflineLeadFields } from '#app/validation/offline-lead'

export type QueuedLead = {
  /** The idempotency key, a v4 uuid made in the browser when the lead was captured. */
  key: string
  /** Whose queue: a lead waits for its owner, never sent under another person's session. */
  owner: string
  fields: OfflineLeadFields
  capturedAt: string
  /** The server's message when it refused the lead (shown, never dropped). */
  refusal: string | null
}

/** Where the queue keeps its leads: IndexedDB in the browser, a Map in tests. */
export type LeadStore = {
  list(owner: string): Promise<QueuedLead[]>
  put(lead: QueuedLead): Promise<void>
  remove(key: string): Promise<void>
}

/** What one attempt to send a lead came to. */
export type SendOutcome =
  | { kind: 'arrived'; message: string }
  | { kind: 'refused'; message: string }
  // No network, signed out, or the server busy: the lead waits for the next chance.
  | { kind: 'later' }

export type Sender = (lead: QueuedLead) => Promise<SendOutcome>

/** Stores a lead under a new key; the send comes after, so a capture never waits on the network. */
export async function captureLead(
  store: LeadStore,
  owner: string,
  fields: OfflineLeadFields,
  now: Date,
  newKey: () => string = () => crypto.randomUUID(),
) {
  const lead: QueuedLead = {
    key: newKey(),
    owner,
    fields,
    capturedAt: now.toISOString(),
    refusal: null,
  }
  await store.put(lead)
  return lead
}

/** The owner's leads in the order they were captured. */
export async function queuedLeads(store: LeadStore, owner: string) {
  const leads = await store.list(owner)
  return [...leads].sort((a, b) => a.capturedAt.localeCompare(b.capturedAt))
}

export type FlushReport = {
  arrived: Array<{ lead: QueuedLead; message: string }>
  refused: Array<{ lead: QueuedLead; message: string }>
  /** Leads still waiting to be sent (refused ones not counted: they wait for their owner). */
  waiting: number
}

/**
 * Sends the owner's waiting leads one at a time, oldest first. The first "later" stops the
 * round: the network is gone, and the others would only fail the same way.
 */
export async function flushLeads(
  store: LeadStore,
  owner: string,
  send: Sender,
): Promise<FlushReport> {
  const report: FlushReport = { arrived: [], refused: [], waiting: 0 }
  const waiting = (await queuedLeads(store, owner)).filter((lead) => lead.refusal === null)
  for (const [index, lead] of waiting.entries()) {
    const outcome = await send(lead)
    if (outcome.kind === 'later') {
      report.waiting = waiting.length - index
      break
    }
    if (outcome.kind === 'arrived') {
      await store.remove(lead.key)
      report.arrived.push({ lead, message: outcome.message })
    } else {
      await store.put({ ...lead, refusal: outcome.message })
      report.refused.push({ lead, message: outcome.message })
    }
  }
  return report
}

/**
 * Runs `round` one at a time. A trigger while a round runs is not dropped: the network coming
 * back while a round that started offline is still failing must still send, so the round runs
 * once more when it ends (however many triggers came meanwhile).
 */
export function oneRoundAtATime(round: () => Promise<void>) {
  let running = false
  let again = false
  return async function trigger() {
    if (running) {
      again = true
      return
    }
    running = true
    try {
      do {
        again = false
        await round()
      } while (again)
    } finally {
      running = false
    }
  }
}

/** "1 lead waiting to send", "2 leads waiting to send", or nothing. */
export function waitingText(count: number) {
  if (count === 0) return null
  return `${count} ${count === 1 ? 'lead' : 'leads'} waiting to send`
}
