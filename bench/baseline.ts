// The baseline every scenario is a share of (issue 16 point 1): a minimal node:http server
// answering the public card page's bytes from memory.
//
// It runs in a child process, not in the bench's own: autocannon's client is itself busy on
// the bench's event loop, so an in-process baseline would share one thread with its load
// generator while the app's server has a process (a core) of its own, and every ratio would be
// flattered. As a child, the baseline and the app's server meet the same conditions: one
// process serving, the bench process loading it, on the same two cores.
import { type ChildProcess, spawn } from 'node:child_process'
import type { OutgoingHttpHeaders } from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BaselinePage } from './baseline-server'
import type { Answer } from './http'

// Per request or per connection: the baseline's own http server sets them as the app's does.
const PER_REQUEST_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
])

/** The answer's headers as sent, minus those that belong to one request or connection. */
export function replayableHeaders(rawHeaders: string[]): OutgoingHttpHeaders {
  const headers: Record<string, string | string[]> = {}
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] as string).toLowerCase()
    const value = rawHeaders[i + 1] as string
    if (PER_REQUEST_HEADERS.has(name)) continue
    const existing = headers[name]
    if (existing === undefined) headers[name] = value
    else headers[name] = Array.isArray(existing) ? [...existing, value] : [existing, value]
  }
  return headers
}

export type Baseline = { port: number; pid: number; close(): Promise<void> }

export async function startBaseline(port: number, page: Answer): Promise<Baseline> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'baseline-server.ts')
  // tsx only loads the file: at run time the server is plain node:http.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const message: BaselinePage = {
    port,
    status: page.status,
    headers: replayableHeaders(page.rawHeaders),
    body: page.body.toString('base64'),
  }
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`the baseline server exited with ${code}`)))
    child.once('message', () => resolve())
    child.send(message)
  })
  return {
    port,
    pid: child.pid as number,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.removeAllListeners('exit')
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
