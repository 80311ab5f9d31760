// Starts the e2e servers named on the command line (`node --import tsx e2e/start-servers.ts
// embedded production`) side by side, each `e2e/start-server.ts` in its own process. Playwright
// starts the entries of its webServer list one after another, and each server migrates and seeds
// a database of its own before it answers: started together, the second no longer waits for the
// first. playwright.config.ts waits for each server's health check in its own entry.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { TEST_V8_FLAGS, typeScriptArgs } from '../scripts/server-command'

const targets = process.argv.slice(2)
const script = fileURLToPath(new URL('./start-server.ts', import.meta.url))
// Each in one Node process (typeScriptArgs says why not the tsx command). Each seeds its database
// through PGlite (the embedded one) and closes it before the server starts: TurboFan's
// recompiling of PGlite would go on after that for nothing (ADR 118).
const children = targets.map((target) =>
  spawn(process.execPath, [...TEST_V8_FLAGS, ...typeScriptArgs(script, target)], {
    stdio: 'inherit',
  }),
)
// Playwright signals the whole process group, these children included; a signal sent to this
// process alone reaches them too.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal)
  })
}
// This process ends when every server has (each drops its database first), with the worst code.
const codes = await Promise.all(
  children.map(
    (child) => new Promise<number>((done) => child.on('exit', (code) => done(code ?? 1))),
  ),
)
process.exit(Math.max(...codes))
