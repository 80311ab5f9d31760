// The production entry (`npm start`, `npm run serve`, the Docker image; ADR 033). It starts the
// server (build/server.js) as its child, passes SIGTERM and SIGINT on, and kills the child if it
// has not exited by the shutdown timeout. The server handles signals on its event loop, and the
// embedded database runs on that loop: PGlite that met a full disk spins in its WAL flush and
// would never see the signal (issue 26 point 13). This process runs nothing else, so its own
// loop is always free to count the time. It exits with the child's code, or 1 if it had to kill.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { pino } from 'pino'
import { SERVER_NODE_FLAGS, serverEnv, shutdownTimeoutMs } from './server-command'

// The project's .env (listed in .env.example), read before anything else: the server inherits it,
// and a variable set in the environment wins over the file.
if (existsSync('.env')) process.loadEnvFile('.env')

const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' }).child({ process: 'supervisor' })
// build/supervisor.js starts build/server.js, whatever the working directory.
const serverFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'server.js')
// Beyond the server's own timer, so a server that can still exit by itself does.
const killAfterMs = shutdownTimeoutMs() + 1_000

const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, serverFile], {
  env: serverEnv() as NodeJS.ProcessEnv,
  // The IPC channel tells the server when this process is gone (it then shuts down itself).
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
})
let killTimer: NodeJS.Timeout | undefined
let killed = false

function forward(signal: NodeJS.Signals) {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill(signal)
  killTimer ??= setTimeout(() => {
    logger.error(`server did not exit ${killAfterMs} ms after ${signal}; killing it`)
    killed = true
    child.kill('SIGKILL')
  }, killAfterMs)
}

process.on('SIGTERM', () => forward('SIGTERM'))
process.on('SIGINT', () => forward('SIGINT'))
child.on('error', (error) => {
  logger.error(error, 'could not start the server')
  process.exit(1)
})
child.on('exit', (code, signal) => {
  clearTimeout(killTimer)
  if (signal && !killed) logger.error(`server ended by ${signal}`)
  process.exit(killed ? 1 : (code ?? 1))
})
