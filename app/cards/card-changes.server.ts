// What follows an edit of what a card shows (issue 29): the wallet passes that carry the card are
// brought up to date by jobs queued in the edit's own transaction, so they exist exactly when
// the edit committed. One line per kind of pass; the caller wakes the job worker after commit.
// Apple Wallet passes need no line here: the database queues their refresh itself, whichever
// path wrote the card, its short link, its owner's privacy or the branding (migration 0019's
// trigger, ADR 042).
import { wakeJobWorker } from '#app/jobs/worker.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import type { Queryable } from '#drizzle/db.server'
import {
  queueGoogleWalletPatch,
  queueGoogleWalletPatchesForOrganization,
} from './google-wallet-queue.server'

type Changed = Pick<Tenant, 'id' | 'host'>

/** The card's name, title, company, pictures or short link changed. */
export async function cardChanged(tx: Queryable, tenant: Changed, cardId: string) {
  await queueGoogleWalletPatch(tx, tenant, cardId)
}

/** The agency's colours or logo changed: every card of it. */
export async function brandingChanged(tx: Queryable, tenant: Changed) {
  await queueGoogleWalletPatchesForOrganization(tx, tenant)
}

/** After the edit's transaction committed: the queued jobs run now rather than at the next poll. */
export const runCardChangeJobs = wakeJobWorker
