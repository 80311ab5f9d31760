import { isbot } from 'isbot'
import { LRUCache } from 'lru-cache'

// isbot tests one long regular expression: 3% of the server's time when every card-page request
// is a new visitor. Visitors come with a few hundred distinct user agents, so the answer is kept
// per user agent (a cap keeps a flood of made-up ones from growing it).
const answers = new LRUCache<string, boolean>({ max: 2_000 })

/** Whether a user agent names a crawler or a bot (isbot's list): their views are not counted. */
export function isBotUserAgent(userAgent: string) {
  const known = answers.get(userAgent)
  if (known !== undefined) return known
  const answer = isbot(userAgent)
  answers.set(userAgent, answer)
  return answer
}
