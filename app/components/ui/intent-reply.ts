import type { SubmissionResult } from '@conform-to/react'

/**
 * What an intentAction answers a page's form with when it does not redirect: the intent it was
 * posted with (which form the reply is for), the first message and conform's reply. A page adds
 * what its own intents give back (a new secret shown once).
 */
export type IntentReply = {
  intent?: string | null
  error?: string | null
  result?: SubmissionResult<string[]>
}
