// The order vitest starts test files in. Its own sequencer starts the longest files first when
// its cache (node_modules/.vite) holds the last run's durations, and the largest files first
// otherwise: on a fresh clone, CI's case, a long file could start near the end and run alone
// while the other worker waits (ADR 067). The files that took longest on 2026-12-02 go first,
// in that order; every other file keeps vitest's order. The list only orders: a file missing
// from it, or one no longer slow, runs all the same.
import path from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** Longest first (seconds on the quiet two-core machine: 39, 25, 19, 15, 13, 11, 6, 5, 5). */
export const SLOWEST_FILES = [
  'tests/integration/fuzz.test.ts',
  'tests/integration/backups.test.ts',
  'tests/integration/card-surfaces.test.ts',
  'tests/integration/teams.test.ts',
  'tests/integration/restore-checksum.test.ts',
  'tests/integration/route-matrix.test.ts',
  'tests/integration/job-wake.postgres.test.ts',
  'tests/unit/data-dir-lock.test.ts',
  'tests/integration/model-isolation.test.ts',
]

export class SlowFirstSequencer extends BaseSequencer {
  async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files)
    // Projects still run one after another, in vitest's order (a worker serves one project).
    const projects = [...new Set(sorted.map((spec) => spec.project.name))]
    const rank = (spec: TestSpecification) => {
      const at = SLOWEST_FILES.indexOf(path.relative(spec.project.config.root, spec.moduleId))
      return at === -1 ? SLOWEST_FILES.length : at
    }
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort(
        (a, b) =>
          projects.indexOf(a.spec.project.name) - projects.indexOf(b.spec.project.name) ||
          rank(a.spec) - rank(b.spec) ||
          a.index - b.index,
      )
      .map(({ spec }) => spec)
  }
}
