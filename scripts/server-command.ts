/**
 * How the production server is started, in one place: `npm start`, `npm run serve`, the
 * Dockerfile (checked against this by tests/unit/server-command.test.ts), the e2e servers and
 * the benches all run this.
 *
 * V8 grows the young generation up to 64 MB per semi-space when allocation is fast, as it is
 * under tens of thousands of card views a second, and keeps the pages: the server's memory
 * reached 300-440 MB on Postgres. At 16 MB per semi-space (the limit of Node's before 22) the
 * young generation stays under 48 MB and scavenges stay short; the heap then holds what is
 * alive (ADR 023, issue 16's memory budget).
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=16'] as const

export const SERVER_ENTRY = 'build/server.js'

/** Arguments for `spawn(process.execPath, SERVER_ARGS)`. */
export const SERVER_ARGS = [...SERVER_NODE_FLAGS, SERVER_ENTRY]
