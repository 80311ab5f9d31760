// The search boxes of the lists (agencies, people, My End Users, User Accounts): one limit and
// one message. The spec gives no limit; ours is answered next to the box, never by cutting what
// was typed (the box has no maxLength: the browser would drop the rest without a word).
import { z } from 'zod'

export const SEARCH_MAX_LENGTH = 100
export const SEARCH_TOO_LONG_MESSAGE = `Search must be at most ${SEARCH_MAX_LENGTH} characters`

export const searchQuery = z.string().trim().max(SEARCH_MAX_LENGTH, SEARCH_TOO_LONG_MESSAGE)

/** The `q` of a search box's GET form: what the box checks before the list loads. */
export const SearchSchema = z.object({ q: searchQuery.optional().default('') })
