// What the cluster's child processes (app processes, Caddy, PgBouncer) share: their last lines
// kept for a report, and waiting for one to listen.
import type { ChildProcess } from 'node:child_process'
import net from 'node:net'

/** Keeps the last 200 lines the child writes to stdout and stderr. */
export function keepOutput(child: ChildProcess): () => string {
  const lines: string[] = []
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean))
    if (lines.length > 200) lines.splice(0, lines.length - 200)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  return () => lines.join('\n')
}

/** Resolves once `port` accepts connections; kills the child and throws if it never does. */
export async function waitUntilListening(
  name: string,
  child: ChildProcess,
  port: number,
  output: () => string,
  timeoutMs = 20_000,
) {
  const deadline = Date.now() + timeoutMs
  while (!(await listening(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`${name} did not start on port ${port}:\n${output()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

function listening(port: number) {
  return new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end()
      resolve(true)
    })
    socket.on('error', () => resolve(false))
  })
}
