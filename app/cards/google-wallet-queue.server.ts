// Patches of Google Wallet objects queued by the edits that change what they show (ADR 043). Kept
// apart from the save link (google-wallet.server.ts): an edit screen that queues a patch shows no
// card, and reaches no card gate through this.
import { googleWalletConfigured } from '#app/cards/google-wallet-config.server'
import {
  findGoogleWalletObject,
  listGoogleWalletCards,
} from '#app/models/google-wallet-objects.server'
import { insertJob } from '#app/models/jobs.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import type { Queryable } from '#drizzle/db.server'

type Changed = Pick<Tenant, 'id' | 'host'>

async function queuePatch(tx: Queryable, tenant: Changed, cardId: string) {
  await insertJob(tx, {
    name: 'google-wallet.patch',
    organizationId: tenant.id,
    // The host the job resolves the tenant by: its colours, logo and origin as they are then.
    payload: { cardId, host: tenant.host },
  })
}

/**
 * Called in the transaction of a card's edit: queues a patch of its object when its save link
 * was ever issued. The job reads the card when it runs, so it carries the edit.
 */
export async function queueGoogleWalletPatch(tx: Queryable, tenant: Changed, cardId: string) {
  if (!googleWalletConfigured()) return
  if (!(await findGoogleWalletObject(tx, tenant.id, cardId))) return
  await queuePatch(tx, tenant, cardId)
}

/** The agency's colours or logo changed: every object of its cards. */
export async function queueGoogleWalletPatchesForOrganization(tx: Queryable, tenant: Changed) {
  if (!googleWalletConfigured()) return
  for (const cardId of await listGoogleWalletCards(tx, tenant.id)) {
    await queuePatch(tx, tenant, cardId)
  }
}
