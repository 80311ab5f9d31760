// The `wallet.refresh` job (ADR 042): queued by the database whenever a write may change a pass
// (migration 0019's trigger, the one place that decides). For each pass in the job's scope it
// builds what the pass shows now; a pass whose content hash changed becomes a new version, and
// every device registered for it is pushed through APNs. A push that failed for now stays owed
// (push_pending) and the job is retried; a token APNs calls gone is forgotten.

import { appleWalletConfig } from '#app/cards/apple-config.server'
import type { Job } from '#app/models/jobs.server'
import {
  forgetPushToken,
  listPassPushTokens,
  listWalletPasses,
  markWalletPassPushed,
  recordWalletPassContent,
  type WalletPass,
} from '#app/models/wallet-passes.server'
import { freshTenantOf } from '#app/tenancy/tenant.server'
import { withTenant } from '#drizzle/db.server'
import { pushPassUpdates } from './apns.server'
import { openPassCard, passContentHash, passContentOf } from './apple-pass.server'

export async function refreshWalletPasses(job: Pick<Job, 'payload'>) {
  const config = appleWalletConfig()
  const { organizationId, cardId, ownerId } = job.payload
  if (!config || !organizationId) return
  const tenant = await freshTenantOf(organizationId)
  // An agency deactivated or deleted meanwhile: its passes are not served, nor pushed.
  if (!tenant) return
  const passes = await withTenant(organizationId, (tx) =>
    listWalletPasses(tx, organizationId, { cardId, ownerId }),
  )
  const owed: WalletPass[] = []
  for (const pass of passes) {
    const current = await withTenant(organizationId, async (tx) => {
      // A card its viewer may no longer see becomes a voided pass: that is news too.
      const row = await openPassCard(tx, organizationId, pass)
      const hash = passContentHash(passContentOf(tenant, row))
      if (hash === pass.contentHash) return pass
      return (await recordWalletPassContent(tx, organizationId, pass.id, hash)) ?? pass
    })
    if (current.pushPending) owed.push(current)
  }
  let failed = 0
  for (const pass of owed) {
    const tokens = await withTenant(organizationId, (tx) =>
      listPassPushTokens(tx, organizationId, pass.id),
    )
    const outcome = await pushPassUpdates(config, tokens)
    await withTenant(organizationId, async (tx) => {
      for (const token of outcome.gone) await forgetPushToken(tx, organizationId, token)
      if (outcome.failed.length === 0)
        await markWalletPassPushed(tx, organizationId, pass.id, pass.updatedAt)
    })
    failed += outcome.failed.length
  }
  if (failed > 0) throw new Error(`APNs refused or missed ${failed} push(es); retried`)
}
