import { findCardByReference } from '#app/models/cards.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { withTenant } from '#drizzle/db.server'

const CARD_PATH = /^\/(?:card|contact)\/([^/?#]+)/

/**
 * The sign-in page's info line when the connect flow sent the visitor here
 * (spec: 'Sign in to connect with {first name}'): the destination is a card of this
 * tenant with `connect=1`.
 */
export async function connectInvitation(tenant: Tenant, redirectTo: string | null) {
  if (!redirectTo) return null
  const url = new URL(redirectTo, 'http://same.invalid')
  const reference = CARD_PATH.exec(url.pathname)?.[1]
  if (!reference || url.searchParams.get('connect') !== '1') return null
  let decoded: string
  try {
    decoded = decodeURIComponent(reference)
  } catch {
    return null
  }
  const card = await withTenant(tenant.id, (tx) => findCardByReference(tx, tenant.id, decoded))
  return card ? `Sign in to connect with ${card.card.firstName}` : null
}
