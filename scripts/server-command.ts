/**
 * How the production server is started, in one place: `npm start`, `npm run serve`, the
 * Dockerfile (checked against this by tests/unit/server-command.test.ts), the e2e servers and
 * the benches all run this.
 *
 * V8 grows the young generation up to 64 MB per semi-space when allocation is fast, as it is
 * under tens of thousands of card views a second, and keeps the pages: the server's memory
 * reached 300-440 MB on Postgres (ADR 023). At 8 MB per semi-space (issue 16) a signed-in
 * document's garbage (2-3 MB each, React's rendering most of it) outlived the young generation
 * when 50 were in flight, was promoted and left to full collections: with 16 MB the signed-in
 * pages cost a quarter less CPU, and the young generation stays under 48 MB (issue 44, ADR 107).
 *
 * Under signed-in load the old generation grew instead: V8 lets it reach up to four times what
 * is alive before a full collection when allocation is fast, and the heap rose from about 100 MB
 * alive to 320 MB (RSS 460-490 MB). `--heap-growing-percent` lets it grow by that share over
 * what the last full collection kept: a growth factor, not a limit, so a large export still gets
 * the memory it needs (issue 44 point 4, ADR 099). At 20, with 75 MB alive once the icon sets
 * were bundled, full collections came every second and their marking threads took a third of
 * a signed-in page's CPU; 35 costs a fifth less CPU and keeps the RSS under 300 MB under
 * signed-in load alone (ADR 108). In the whole bench, card pages first, the server held 238-249
 * MB under the card pages and 265-269 MB under the signed-in pages once the view batches were
 * statements of one text (ADR 111); a burst of sign-ins adds about 19 MiB per core of password
 * hashing (ADR 112, docs/performance.md, 2026-12-05).
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=16', '--heap-growing-percent=35'] as const

/**
 * glibc's malloc, told by environment variables, which the server's own settings may not read
 * (glibc reads them as the process starts):
 * - `MALLOC_ARENA_MAX`: glibc gives each thread that allocates its own arena (up to eight per
 *   core): the server's V8, libuv and compression threads left 50-60 MB of freed memory in
 *   arenas of their own under signed-in load. Two arenas brought the RSS from 336 to about 300
 *   MB at no measurable cost of CPU (ADR 107).
 * - `MALLOC_TRIM_THRESHOLD_` and `MALLOC_MMAP_THRESHOLD_`: by default glibc raises both each
 *   time a large block is freed (the trim threshold up to 64 MB), and then keeps that much freed
 *   memory at the top of the main arena. Under signed-in load the arena swung from 21 to 71 MB
 *   and back between V8's full collections, and the soak's RSS peaked over its budget. Fixed at
 *   glibc's own first values (2 MB kept, blocks from 128 KB mapped on their own), the arena
 *   stayed at 20-22 MB (ADR 114).
 *
 * An operator's own setting of any of them wins.
 */
export const MALLOC_ENV = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_TRIM_THRESHOLD_: String(2 * 1024 * 1024),
  MALLOC_MMAP_THRESHOLD_: String(128 * 1024),
} as const

/** The server's environment: the caller's over MALLOC_ENV. */
export function serverEnv(
  env: Record<string, string | undefined> = process.env,
): Record<string, string | undefined> {
  return { ...MALLOC_ENV, ...env }
}

export const SERVER_ENTRY = 'build/server.js'

/** Arguments for `spawn(process.execPath, SERVER_ARGS)`. */
export const SERVER_ARGS = [...SERVER_NODE_FLAGS, SERVER_ENTRY]

/**
 * V8 flags for the processes the tests run for a short while: vitest's workers, the e2e suite's
 * seeding (`e2e/start-servers.ts`), and the servers an e2e spec starts for itself with
 * `[...TEST_V8_FLAGS, ...SERVER_ARGS]`. The e2e suite's two long-running servers run as
 * production does. `--liftoff-only` keeps WebAssembly (PGlite's Postgres, tesseract.js) on V8's
 * baseline compiler: by default V8 compiles the hot functions again with TurboFan on background
 * threads, about 2 s of CPU after each start of PGlite, which a process that lives for a test
 * file or a few requests never earns back (ADR 118).
 */
export const TEST_V8_FLAGS = ['--liftoff-only'] as const

/**
 * Arguments for `spawn(process.execPath, …)` that run a TypeScript script of the tests, such as
 * the e2e suite's server launchers, in one process: `node --import tsx`, not the tsx command. The
 * command is a parent that relays a signal to the script and SIGKILLs it unless the script
 * reports the signal within about 60 ms, so a script busy at that moment never ran its cleanup
 * (the production e2e server's database was left on the shared Postgres in 3 runs of 7).
 */
export function typeScriptArgs(script: string, ...args: string[]) {
  return ['--import', 'tsx', script, ...args]
}

/**
 * What `npm start`, `npm run serve` and the Docker image run: a small parent that starts the
 * server as its child and ends it within the shutdown timeout of a SIGTERM, even when the
 * server's own event loop is stuck in the embedded database (ADR 033). It is not a bench's or a
 * test's way in (their measurements and signals are the server's), except the tests of it.
 */
export const SUPERVISOR_ENTRY = 'build/supervisor.js'

/** Arguments for `spawn(process.execPath, SUPERVISED_ARGS)`. */
export const SUPERVISED_ARGS = [SUPERVISOR_ENTRY]

/**
 * How long a shutdown may take, drain window included (SHUTDOWN_TIMEOUT_MS, 25 s): the server
 * exits by itself then, and the supervisor kills it a second later if it could not.
 */
export function shutdownTimeoutMs(env: NodeJS.ProcessEnv = process.env) {
  const value = Number(env.SHUTDOWN_TIMEOUT_MS || 25_000)
  return Number.isFinite(value) && value >= 1000 ? value : 25_000
}
