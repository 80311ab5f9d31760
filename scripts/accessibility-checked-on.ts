// The date the accessibility statement gives for its last check (issue 45 point 6, ADR 100),
// fixed when the app is built (vite.config.ts defines it): the date of the commit the build is
// made from: the version the test suite, the accessibility checks with it, runs on. Not the
// clock: a build made today from last month's commit is last month's version.
//
// SOURCE_DATE_EPOCH (the reproducible-builds convention: seconds since 1970) names it where the
// build has no git history, as in the Docker image (.dockerignore leaves .git out): pass the
// commit's `git log -1 --format=%ct`. Neither: null, and the statement says the date is unknown.
import { spawnSync } from 'node:child_process'

const DAY = /^\d{4}-\d{2}-\d{2}$/

export function accessibilityCheckedOn(
  sourceDateEpoch = process.env.SOURCE_DATE_EPOCH,
  cwd = process.cwd(),
): string | null {
  const epoch = sourceDateEpoch?.trim()
  if (epoch && /^\d+$/.test(epoch)) return new Date(Number(epoch) * 1000).toISOString().slice(0, 10)
  const git = spawnSync('git', ['log', '-1', '--format=%cd', '--date=format-local:%Y-%m-%d'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, TZ: 'UTC' },
  })
  const day = git.status === 0 ? git.stdout.trim() : ''
  return DAY.test(day) ? day : null
}
