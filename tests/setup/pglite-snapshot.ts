// The run's PGlite snapshots (tests/setup/global-db.ts), opened as new databases.
import { PGlite } from '@electric-sql/pglite'
import { inject } from 'vitest'
import { openPglite } from '#drizzle/db.server'
import { snapshotBlob as fileBlob } from '#tests/pglite-snapshots'

/** A new database from the run's migrated snapshot: under a second of CPU, where initdb takes three. */
export function openPgliteSnapshot() {
  return openPglite({ loadDataDir: snapshotBlob('pgliteSnapshot') })
}

/** One of the run's snapshots, migrated or as initdb left it, to load into a new PGlite. */
export function snapshotBlob(which: 'pgliteSnapshot' | 'pgliteEmptySnapshot') {
  return fileBlob(inject(which))
}

/** A new PGlite with nothing in it, from the run's empty snapshot. */
export function emptyPglite() {
  return inject('pgliteEmptySnapshot')
    ? new PGlite({ loadDataDir: snapshotBlob('pgliteEmptySnapshot') })
    : new PGlite()
}
