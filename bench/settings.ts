// What the bench commands (`npm run bench`, `npm run bench:scale`) read before anything starts:
// their numeric settings from the environment, and the built server they measure.
import { existsSync } from 'node:fs'
import { TEST_APP_SECRET } from '#tests/app-secret'

/** A number above 0 from the environment variable `name`, or `fallback`; exits on anything else. */
export function positiveSetting(name: string, fallback: number) {
  const value = Number(process.env[name] || fallback)
  if (!(value > 0)) {
    console.error(`${name} must be a number above 0`)
    process.exit(1)
  }
  return value
}

/**
 * Exits unless the production build is there, and sets the one secret for the bench process and
 * its servers: the test one, because on a shared test Postgres server the brandcard_app role's
 * password derives from it (tests/app-secret.ts).
 */
export function prepareBenchProcess() {
  if (!existsSync('build/server.js')) {
    console.error('Run `npm run build` first.')
    process.exit(1)
  }
  process.env.APP_SECRET ??= TEST_APP_SECRET
}
