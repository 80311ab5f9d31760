// `npm run seed`: migrate, then seed the demo if the database is empty.

import { prepareDatabase } from '#app/prepare-database.server'
import { closeDatabase } from '#drizzle/db.server'
import { restrictUmask } from '#drizzle/private-files.server'

restrictUmask()
process.env.SEED_DEMO ??= '1'
await prepareDatabase({ log: (m) => console.log(m) })
await closeDatabase()
