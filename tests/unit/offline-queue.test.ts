// The offline lead queue (ADR 104): a lead leaves only when the server says it arrived, a refusal
// stays with its message, a lost network stops the round, and each owner sees only their leads.
import { describe, expect, test } from 'vitest'
import {
  captureLead,
  flushLeads,
  type LeadStore,
  oneRoundAtATime,
  type QueuedLead,
  queuedLeads,
  type SendOutcome,
  waitingText,
} from '#app/leads/offline-queue'
import type { OfflineLeadFields } from '#app/validation/offline-lead'

function memoryStore(): LeadStore & { rows: Map<string, QueuedLead> } {
  const rows = new Map<string, QueuedLead>()
  return {
    rows,
    list: async (owner) => [...rows.values()].filter((lead) => lead.owner === owner),
    put: async (lead) => {
      rows.set(lead.key, lead)
    },
    remove: async (key) => {
      rows.delete(key)
    },
  }
}

const fields = (fullName: string): OfflineLeadFields => ({
  fullName,
  company: '',
  email: '',
  phoneNumber: '',
  note: '',
})

let counter = 0
const nextKey = () => `key-${++counter}`
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 9, minute))

async function capturedThree(store: LeadStore, owner = 'ann@example.com') {
  await captureLead(store, owner, fields('Carl'), at(3), nextKey)
  await captureLead(store, owner, fields('Ada'), at(1), nextKey)
  await captureLead(store, owner, fields('Bea'), at(2), nextKey)
}

describe('the offline lead queue', () => {
  test('a capture is stored with a key of its own, before any send', async () => {
    const store = memoryStore()
    const first = await captureLead(store, 'ann@example.com', fields('Ada'), at(1))
    const second = await captureLead(store, 'ann@example.com', fields('Ada'), at(1))
    expect(first.key).toMatch(/^[0-9a-f-]{36}$/)
    expect(second.key).not.toBe(first.key)
    expect(store.rows.size).toBe(2)
  })

  test('sends oldest first and removes each lead the server says arrived', async () => {
    const store = memoryStore()
    await capturedThree(store)
    const sent: string[] = []
    const report = await flushLeads(store, 'ann@example.com', async (lead) => {
      sent.push(lead.fields.fullName)
      return { kind: 'arrived', message: 'Lead sent' }
    })
    expect(sent).toEqual(['Ada', 'Bea', 'Carl'])
    expect(report.arrived.map(({ lead }) => lead.fields.fullName)).toEqual(['Ada', 'Bea', 'Carl'])
    expect(report.waiting).toBe(0)
    expect(store.rows.size).toBe(0)
  })

  test('no network stops the round and keeps every unsent lead with its key', async () => {
    const store = memoryStore()
    await capturedThree(store)
    const keysBefore = [...store.rows.keys()].sort()
    const outcomes: SendOutcome[] = [{ kind: 'arrived', message: 'Lead sent' }, { kind: 'later' }]
    let calls = 0
    const report = await flushLeads(store, 'ann@example.com', async () => {
      const outcome = outcomes[calls++]
      if (!outcome) throw new Error('sent after the network was gone')
      return outcome
    })
    expect(calls).toBe(2)
    expect(report.waiting).toBe(2)
    expect(waitingText(report.waiting)).toBe('2 leads waiting to send')
    // The two left are resent later under the keys they were captured with.
    const left = await queuedLeads(store, 'ann@example.com')
    expect(left.map((lead) => lead.fields.fullName)).toEqual(['Bea', 'Carl'])
    expect(left.every((lead) => keysBefore.includes(lead.key))).toBe(true)
  })

  test('a refused lead stays with the message and is not sent again until corrected', async () => {
    const store = memoryStore()
    await captureLead(store, 'ann@example.com', fields('Ada'), at(1), nextKey)
    const refused = await flushLeads(store, 'ann@example.com', async () => ({
      kind: 'refused',
      message: 'Please enter a valid email address',
    }))
    expect(refused.refused.map(({ message }) => message)).toEqual([
      'Please enter a valid email address',
    ])
    const [kept] = await queuedLeads(store, 'ann@example.com')
    expect(kept?.refusal).toBe('Please enter a valid email address')
    let sent = 0
    const again = await flushLeads(store, 'ann@example.com', async () => {
      sent++
      return { kind: 'arrived', message: 'Lead sent' }
    })
    expect(sent).toBe(0)
    expect(again.arrived).toEqual([])
    expect(store.rows.size).toBe(1)
  })

  test("one owner's round never sends or shows another owner's leads", async () => {
    const store = memoryStore()
    await capturedThree(store, 'ann@example.com')
    await captureLead(store, 'bob@example.com', fields('Dan'), at(0), nextKey)
    const sent: string[] = []
    await flushLeads(store, 'bob@example.com', async (lead) => {
      sent.push(lead.fields.fullName)
      return { kind: 'arrived', message: 'Lead sent' }
    })
    expect(sent).toEqual(['Dan'])
    expect(await queuedLeads(store, 'ann@example.com')).toHaveLength(3)
  })

  test('a trigger during a round runs one more round after it, not a second one beside it', async () => {
    // The round that started offline is still failing when the network comes back: the "online"
    // trigger must not be lost, or the lead waits until the page is opened again.
    const releases: Array<() => void> = []
    let running = 0
    let most = 0
    let rounds = 0
    const trigger = oneRoundAtATime(async () => {
      rounds++
      running++
      most = Math.max(most, running)
      await new Promise<void>((resolve) => releases.push(resolve))
      running--
    })
    const first = trigger()
    await trigger()
    await trigger()
    expect(rounds).toBe(1)
    releases.shift()?.()
    await new Promise((resolve) => setImmediate(resolve))
    expect(rounds).toBe(2)
    releases.shift()?.()
    await first
    expect(rounds).toBe(2)
    expect(most).toBe(1)
    // Idle again: the next trigger starts a round of its own.
    const later = trigger()
    releases.shift()?.()
    await later
    expect(rounds).toBe(3)
  })

  test('the waiting count reads in words', () => {
    expect(waitingText(0)).toBeNull()
    expect(waitingText(1)).toBe('1 lead waiting to send')
    expect(waitingText(3)).toBe('3 leads waiting to send')
  })
})
