// The production server runs with the same V8 flags however it is started, and in production
// under its supervisor (ADR 033): the npm scripts and the Dockerfile cannot import
// scripts/server-command.ts, so they are checked against it here.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  SERVER_ARGS,
  SERVER_ENTRY,
  SERVER_NODE_FLAGS,
  SUPERVISED_ARGS,
  SUPERVISOR_ENTRY,
  serverEnv,
  TEST_V8_FLAGS,
} from '../../scripts/server-command'

const command = `node ${SUPERVISED_ARGS.join(' ')}`

describe('the production server command', () => {
  it('caps the young generation and the growth of the old (issue 16 and 44 memory budgets)', () => {
    expect(SERVER_NODE_FLAGS).toContain('--max-semi-space-size=16')
    expect(SERVER_NODE_FLAGS).toContain('--heap-growing-percent=35')
    expect(SERVER_ARGS.at(-1)).toBe(SERVER_ENTRY)
  })

  it('runs with two malloc arenas and fixed trim and mmap thresholds unless the operator says otherwise (issue 44 memory budget)', () => {
    expect(serverEnv({ PATH: '/bin' })).toEqual({
      MALLOC_ARENA_MAX: '2',
      MALLOC_TRIM_THRESHOLD_: '2097152',
      MALLOC_MMAP_THRESHOLD_: '131072',
      PATH: '/bin',
    })
    expect(serverEnv({ MALLOC_ARENA_MAX: '8' }).MALLOC_ARENA_MAX).toBe('8')
    expect(serverEnv({ MALLOC_TRIM_THRESHOLD_: '0' }).MALLOC_TRIM_THRESHOLD_).toBe('0')
    for (const file of [
      'bench/server.ts',
      'e2e/start-server.ts',
      'scripts/cluster/app-cluster.ts',
    ]) {
      expect(readFileSync(file, 'utf8'), file).toMatch(/\b(serverEnv|productionServerEnv)\(/)
    }
  })

  it('is what npm start and npm run serve run, under the supervisor the build makes', () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as {
      scripts: Record<string, string>
    }
    expect(scripts.start).toMatch(new RegExp(`${command}$`))
    expect(scripts.serve).toMatch(new RegExp(`${command}$`))
    expect(scripts.build).toContain(`esbuild scripts/supervise.ts`)
    expect(scripts.build).toContain(`--outfile=${SUPERVISOR_ENTRY}`)
  })

  it('is what the Docker image runs', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync('Dockerfile', 'utf8'))?.[1]
    expect(JSON.parse(cmd ?? '[]')).toEqual(['node', ...SUPERVISED_ARGS])
  })

  it('the supervisor starts the server beside it with the same flags', () => {
    const source = readFileSync('scripts/supervise.ts', 'utf8')
    expect(source).toContain('[...SERVER_NODE_FLAGS, serverFile]')
    expect(source).toContain('env: serverEnv()')
    expect(source).toContain(`'${SERVER_ENTRY.replace('build/', '')}'`)
  })

  it("runs the tests' short-lived processes with WebAssembly on the baseline compiler, and the e2e suite's servers as production (ADR 118)", () => {
    expect(TEST_V8_FLAGS).toEqual(['--liftoff-only'])
    // This file runs in one of vitest's workers.
    expect(process.execArgv).toEqual(expect.arrayContaining([...TEST_V8_FLAGS]))
    for (const file of [
      'e2e/caddy-tls.spec.ts',
      'e2e/database-faults.spec.ts',
      'e2e/email-durability.spec.ts',
      'e2e/observability.spec.ts',
      'e2e/page-cache-processes.spec.ts',
      'e2e/request-targets.spec.ts',
    ]) {
      expect(readFileSync(file, 'utf8'), file).toContain('[...TEST_V8_FLAGS, ...SERVER_ARGS]')
    }
    // The seeding of the suite's databases too, before each starts its server.
    expect(readFileSync('e2e/start-servers.ts', 'utf8')).toContain(
      'spawn(process.execPath, [...TEST_V8_FLAGS, ...typeScriptArgs(script, target)]',
    )
    expect(readFileSync('e2e/start-server.ts', 'utf8')).toContain(
      'spawn(process.execPath, SERVER_ARGS,',
    )
  })

  it('is how every test and bench starts the built server', () => {
    const spawners = [
      'e2e/start-server.ts',
      'e2e/server-lifecycle.spec.ts',
      'e2e/page-cache-processes.spec.ts',
      'e2e/email-durability.spec.ts',
      'e2e/database-faults.spec.ts',
      'bench/loadtest.ts',
      'bench/server.ts',
    ]
    for (const file of spawners) {
      const source = readFileSync(file, 'utf8')
      expect(source, file).toMatch(
        /spawn\(process\.execPath, (\[\.\.\.\w+, \.\.\.)?(SERVER_ARGS|SUPERVISED_ARGS)/,
      )
      expect(source, file).not.toContain("'build/server.js'")
    }
  })
})
