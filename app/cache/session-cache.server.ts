// Validated sessions remembered in this process (ADR 109), so a signed-in request whose page is
// stored needs no database at all. Only while the change feed listens: every write that changes
// what a person's session shows (their sessions, their user row, every table their pages read)
// bumps their data version in the database, which announces `user:{organization}:{user}`, and
// each process forgets that person's sessions at once. Without the feed (tests that do not
// start it) nothing is remembered; a listener that reconnects forgets everything. Whatever the
// app renders for a session may write, so the session is forgotten as its answer leaves (and,
// for a form, before it runs: server.ts); only a stored page's answer keeps it, and the request
// after a write reads the session afresh.
import { LRUCache } from 'lru-cache'

type Remembered<T> = { value: T; person: string }

// A remembered session with its user row is about 2 KB: at most 10 MB.
const MAX_SESSIONS = 5_000
// A safety net: every change is announced, and expiry and renewal are checked on each use.
const TTL_MS = 5 * 60_000

let listening = false
const sessions = new LRUCache<string, Remembered<unknown>>({
  max: MAX_SESSIONS,
  ttl: TTL_MS,
  dispose: (remembered, sessionId) => {
    const ids = byPerson.get(remembered.person)
    ids?.delete(sessionId)
    if (ids?.size === 0) byPerson.delete(remembered.person)
  },
})
const byPerson = new Map<string, Set<string>>()

const personKey = (organizationId: string, userId: string) => `${organizationId}:${userId}`

/** The change feed's state: remembering starts when it listens and stops (forgetting) when not. */
export function setSessionMemory(on: boolean) {
  listening = on
  if (!on) forgetAllSessions()
}

export function rememberSession<T>(
  sessionId: string,
  organizationId: string,
  userId: string,
  value: T,
) {
  if (!listening) return
  const person = personKey(organizationId, userId)
  sessions.set(sessionId, { value, person })
  let ids = byPerson.get(person)
  if (!ids) {
    ids = new Set()
    byPerson.set(person, ids)
  }
  ids.add(sessionId)
}

export function recalledSession<T>(sessionId: string): T | undefined {
  if (!listening) return undefined
  return sessions.get(sessionId)?.value as T | undefined
}

// Concurrent requests of one session that find nothing remembered (every tab after a write,
// fifty connections after a page's render) share one read of it. A forgotten session's read in
// flight is not shared any more: it may have begun before the write that forgot it.
const reading = new Map<string, { organizationId: string; read: Promise<unknown> }>()

/**
 * The read of a session on this organization already under way, or `read()` started and shared
 * until it settles. A token read for one organization is never another's answer.
 */
export function sharedSessionRead<T>(
  sessionId: string,
  organizationId: string,
  read: () => Promise<T>,
): Promise<T> {
  const running = reading.get(sessionId)
  if (running?.organizationId === organizationId) return running.read as Promise<T>
  if (running) return read()
  const started = read().finally(() => {
    if (reading.get(sessionId)?.read === started) reading.delete(sessionId)
  })
  reading.set(sessionId, { organizationId, read: started })
  return started
}

export function forgetSession(sessionId: string) {
  sessions.delete(sessionId)
  reading.delete(sessionId)
}

/** An announced `user:{organization}:{user}`: that person's sessions are read afresh. */
export function forgetPersonSessions(organizationId: string, userId: string) {
  const ids = byPerson.get(personKey(organizationId, userId))
  if (!ids) return
  for (const sessionId of [...ids]) forgetSession(sessionId)
}

export function forgetAllSessions() {
  sessions.clear()
  byPerson.clear()
  reading.clear()
}

export function sessionMemorySize() {
  return sessions.size
}
