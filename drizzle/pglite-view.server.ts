// The PGlite client as drizzle sees it (ADR 115): each statement prepared once under a name, as
// postgres.js prepares them on Postgres, and run in one exchange with the database, with no
// parsers of its own.
import { type PGlite, parse, protocol } from '@electric-sql/pglite'

type Message = { name: string }
type QueryOptions = { parsers?: Record<string, unknown>; rowMode?: 'array' | 'object' } & Record<
  string,
  unknown
>
type Queryable = Pick<PGlite, 'query'>
type Statement = { name: string; parameterTypes: number[]; rowDescription: Message | undefined }

/** As postgres.js on Postgres (ADR 111): a statement with more parameters goes unnamed. */
const MAX_NAMED_PARAMETERS = 64
/** Named statements kept per client; past that, new statements go unnamed. */
const MAX_NAMED_STATEMENTS = 2000

const { serialize } = protocol

/** Each client's named statements, by their text. */
const statementsOf = new WeakMap<PGlite, Map<string, Promise<Statement>>>()

/**
 * The client's named statements are gone: pg_dump's wrapper ends with `DEALLOCATE ALL`
 * (app/backups/backups.server.ts calls this before it lets the next query in). Each is prepared
 * again when next run.
 */
export function forgetPreparedStatements(client: PGlite) {
  statementsOf.get(client)?.clear()
}

/**
 * The view of `client` that drizzle queries through. Two things PGlite's own `query` does on
 * every statement cost more than the statement on a small query (ADR 115):
 *
 * - drizzle sends its own parsers with every query (dates, timestamps, intervals and their
 *   arrays kept as text, which its columns parse, as postgres.js hands them over), and PGlite
 *   copies all 318 of its parsers into a new object to add them. The view puts drizzle's parsers
 *   on the client once PGlite has made its own (after its array types) and sends no query with
 *   parsers of its own. Those types then read as text on this client for every caller.
 * - PGlite parses, describes, binds, describes and executes each statement in five exchanges with
 *   the database, the statement unnamed, so Postgres parses and plans its text every time. The
 *   view prepares each statement once under a name (its parameter types and row description
 *   kept), then binds and executes it in one exchange.
 *
 * The statements are the session's, as on any Postgres connection: a later change of a table
 * that changes a statement's result fails that statement once (and it is prepared again).
 */
export function drizzleView(client: PGlite) {
  const adopted = new Set<string>()
  const statements = new Map<string, Promise<Statement>>()
  statementsOf.set(client, statements)
  let named = 0

  const adopt = async (parsers: Record<string, unknown>) => {
    const keys = Object.keys(parsers)
    if (keys.every((key) => adopted.has(key))) return
    await client.waitReady
    Object.assign(client.parsers, parsers)
    for (const key of keys) adopted.add(key)
  }

  // Both run inside the client's query lock (and, outside a transaction, its transaction lock).
  const prepare = async (text: string): Promise<Statement> => {
    const name = `drizzle_${++named}`
    const { messages } = await client.execProtocol(
      Buffer.concat([
        serialize.parse({ name, text, types: [] }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    )
    const description = messages.find((message) => message.name === 'parameterDescription') as
      | { dataTypeIDs: number[] }
      | undefined
    return {
      name,
      parameterTypes: description?.dataTypeIDs ?? [],
      rowDescription: messages.find((message) => message.name === 'rowDescription'),
    }
  }

  const run = async (text: string, params: unknown[], rowMode: 'array' | 'object') => {
    let statement = statements.get(text)
    if (!statement) {
      statement = prepare(text)
      statements.set(text, statement)
      // A statement Postgres refused (a syntax error, an unknown column) is not kept.
      statement.catch(() => statements.delete(text))
    }
    const { name, parameterTypes, rowDescription } = await statement
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null
      const serializer = client.serializers[parameterTypes[index] as number]
      return serializer ? (serializer(value) as string) : String(value)
    })
    try {
      const { messages } = await client.execProtocol(
        Buffer.concat([
          serialize.bind({ statement: name, values }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        { syncToFs: false },
      )
      const described = rowDescription ? [rowDescription, ...messages] : messages
      return parse.parseResults(described as never, client.parsers, { rowMode })[0]
    } catch (error) {
      // "cached plan must not change result type": this statement is prepared again next time.
      // A statement gone means the session's were deallocated: all of them are.
      const code = (error as { code?: string }).code
      if (code === '0A000') statements.delete(text)
      if (code === '26000') statements.clear()
      throw error
    }
  }

  const view = (target: Queryable, inTransaction: boolean): Queryable => ({
    query: (async (text: string, params: unknown[] = [], options: QueryOptions = {}) => {
      const { parsers, ...rest } = options
      if (parsers) await adopt(parsers)
      const plain = Object.keys(rest).every((key) => key === 'rowMode')
      const nameable =
        params.length <= MAX_NAMED_PARAMETERS &&
        (statements.has(text) || statements.size < MAX_NAMED_STATEMENTS)
      if (!plain || !nameable) return target.query(text, params, rest)
      // As PGlite's own query: a closed client says so, and nothing calls into its database.
      await client._checkReady()
      const rowMode = rest.rowMode ?? 'object'
      if (inTransaction) return client._runExclusiveQuery(() => run(text, params, rowMode))
      const result = await client._runExclusiveTransaction(() =>
        client._runExclusiveQuery(() => run(text, params, rowMode)),
      )
      await client.syncToFs()
      return result
    }) as Queryable['query'],
  })

  return {
    ...view(client, false),
    transaction: <T>(work: (tx: Queryable) => Promise<T>) =>
      client.transaction((tx) => work(view(tx, true))),
  }
}
