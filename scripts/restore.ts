// `npm run restore -- FILE [--data-dir DIR]`: loads a dump into an empty database (ADR 018).
import { restoreCommand } from '#app/backups/commands.server'
import { restrictUmask } from '#drizzle/private-files.server'

restrictUmask()
process.exitCode = await restoreCommand(process.argv.slice(2))
