// The email to a card's confirmed follower (ADR 102: the digest; ADR 103: the "has moved"
// notice). A module of its own, not card-follow.server.ts: the people module imports it, and
// must not reach the card readers that one imports (card-surfaces.test.ts finds the routes that
// can return card data by following imports).
import { ONE_CLICK_FOLLOW_STOP_PATH } from '#app/auth/origin'
import { queueEmailIn } from '#app/email/mailer.server'
import { createFollowerStopToken } from '#app/email/unsubscribe-token.server'
import type { OutboxEmail } from '#app/models/outbox.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import type { Transaction } from '#drizzle/db.server'

/**
 * One email to a confirmed follower of a card (the digest, the "has moved" notice of ADR 103):
 * `build` writes it around the follower's own stop link, and it is queued in the caller's
 * transaction. Limited where it is made: once per follower who confirmed ('card-digest').
 */
export async function queueFollowerEmailIn(
  tx: Transaction,
  tenant: Tenant,
  follower: { id: string },
  build: (stopUrl: string) => OutboxEmail,
) {
  const secret = { kind: 'follow-stop' as const, followerId: follower.id }
  // The token is derived again at delivery from the secret (ADR 028): the outbox keeps a marker.
  const token = createFollowerStopToken(tenant.id, follower.id)
  const message = build(`${tenantOrigin(tenant)}${ONE_CLICK_FOLLOW_STOP_PATH}?token=${token}`)
  await queueEmailIn(tx, tenant.id, { ...message, secrets: [secret] }, tenant.name, 'card-digest')
}
