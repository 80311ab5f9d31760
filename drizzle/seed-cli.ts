// `npm run seed`: migrate, then seed the demo if the database is empty.
import { restrictUmask } from '#app/utils/private-files.server'
import { closeDatabase } from './db.server'
import { prepareDatabase } from './prepare.server'

restrictUmask()
process.env.SEED_DEMO ??= '1'
await prepareDatabase({ log: (m) => console.log(m) })
await closeDatabase()
