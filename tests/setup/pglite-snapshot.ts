// The run's PGlite snapshots (tests/setup/global-db.ts), opened as new databases.
import { PGlite } from '@electric-sql/pglite'
import { inject } from 'vitest'
import { openPglite, pgliteStartParams } from '#drizzle/db.server'
import { snapshotBlob as fileBlob } from '#tests/pglite-snapshots'

/** A new database from the run's migrated snapshot: under a second of CPU, where initdb takes three. */
export function openPgliteSnapshot() {
  return openPglite({ loadDataDir: snapshotBlob('pgliteSnapshot') })
}

/** One of the run's snapshots, migrated or as initdb left it, to load into a new PGlite. */
export function snapshotBlob(which: 'pgliteSnapshot' | 'pgliteEmptySnapshot') {
  return fileBlob(inject(which))
}

/**
 * A new PGlite with nothing in it, from the run's empty snapshot, with the app's settings: PGlite's
 * own 128 MB of shared buffers cost each start 0.3 s of CPU to zero.
 */
export function emptyPglite() {
  const startParams = pgliteStartParams()
  return inject('pgliteEmptySnapshot')
    ? new PGlite({ loadDataDir: snapshotBlob('pgliteEmptySnapshot'), startParams })
    : new PGlite({ startParams })
}
