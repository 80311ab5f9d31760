// `npm run backup [FILE]`: a SQL dump of the whole database (ADR 018, app/backups/).
import { backupCommand } from '#app/backups/commands.server'
import { restrictUmask } from '#drizzle/private-files.server'

restrictUmask()
process.exitCode = await backupCommand(process.argv.slice(2))
