// Two processes starting at once on a new DATA_DIR (a server and `npm run backup`, or test
// workers) must end up with the same generated APP_SECRET: the one that loses the race takes the
// winner's secret instead of failing on its file or reading it half-written.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, test, vi } from 'vitest'

const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'brandcard-secret-')), 'data')
const winner = 'the-secret-the-other-process-wrote-first-0123'

// The other process writes its secret just after this one found no file. Mocked for this test
// alone, on modules loaded afresh: the files before this one in the process (ADR 034) loaded
// env.server with the real node:fs, and the files after it must get it back.
async function envServerLosingTheRace() {
  vi.resetModules()
  vi.doMock('node:fs', async (importOriginal) => {
    const fs = await importOriginal<typeof import('node:fs')>()
    return {
      ...fs,
      existsSync: (file: string) => {
        const found = fs.existsSync(file)
        if (!found && String(file).endsWith('app-secret')) {
          fs.mkdirSync(path.dirname(file), { recursive: true })
          fs.writeFileSync(file, winner)
        }
        return found
      },
    }
  })
  return import('#app/env.server')
}

afterAll(() => rmSync(path.dirname(dataDir), { recursive: true, force: true }))

test('a process that loses the race for a new secret reads the one that was kept', async () => {
  const saved = { ...process.env }
  Object.assign(process.env, { DATA_DIR: dataDir })
  delete process.env.APP_SECRET
  const { getEnv, resetEnvForTests } = await envServerLosingTheRace()
  resetEnvForTests()
  try {
    expect(getEnv().APP_SECRET).toBe(winner)
    // Its own draft is gone.
    expect(readdirSync(dataDir)).toEqual(['app-secret'])
  } finally {
    process.env = saved
    vi.doUnmock('node:fs')
    vi.resetModules()
  }
})
