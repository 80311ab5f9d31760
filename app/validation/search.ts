// The search boxes of the lists (agencies, people, My End Users, User Accounts, contacts): one
// limit, one message and one reading of `?q=`. The spec gives no limit; ours is answered next to
// the box, never by cutting what was typed (the box has no maxLength: the browser would drop the
// rest without a word), and a query over it typed into a URL searches nothing rather than
// something else than was asked.
import { z } from 'zod'

export const SEARCH_MAX_LENGTH = 100
export const SEARCH_TOO_LONG_MESSAGE = `Search must be at most ${SEARCH_MAX_LENGTH} characters`
/** How much of a refused query the box shows again: enough to see it and shorten it. */
export const SEARCH_SHOWN_LENGTH = 2 * SEARCH_MAX_LENGTH

export const searchQuery = z.string().trim().max(SEARCH_MAX_LENGTH, SEARCH_TOO_LONG_MESSAGE)

/** The `q` of a search box's GET form: what the box checks before the list loads. */
export const SearchSchema = z.object({ q: searchQuery.optional().default('') })

export type SearchRead = { q: string; searchError: null } | { q: string; searchError: string }

/**
 * A list's `?q=`, the same for every loader and export. With `searchError` set the list is
 * empty and an export refuses: `q` is then only what the box shows again (cut for display),
 * never a query to run.
 */
export function readSearch(params: URLSearchParams): SearchRead {
  const typed = params.get('q') ?? ''
  const parsed = searchQuery.safeParse(typed)
  if (parsed.success) return { q: parsed.data, searchError: null }
  return {
    q: typed.slice(0, SEARCH_SHOWN_LENGTH),
    searchError: parsed.error.issues[0]?.message ?? SEARCH_TOO_LONG_MESSAGE,
  }
}
