// Search conditions shared by the lists that search people by name or email.
import { ilike, or, type SQL, sql } from 'drizzle-orm'
import { users } from '#drizzle/schema'

/** `%term%` for ILIKE, with the user's own `%`, `_` and `\\` matched literally. */
export function containsPattern(term: string) {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** Accounts whose email or full name contains `search` ("Ada Lovelace" finds Ada Lovelace). */
export function userNameOrEmailMatches(search: string): SQL | undefined {
  const term = search.trim()
  if (!term) return undefined
  const pattern = containsPattern(term)
  return or(
    ilike(users.email, pattern),
    sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${pattern}`,
  )
}
