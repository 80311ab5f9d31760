import { getOwnerPrivacy, mayViewCard } from '#app/cards/card-privacy.server'
import { findCardByReference } from '#app/models/cards.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { withTenant } from '#drizzle/db.server'

const CARD_PATH = /^\/(?:card|contact)\/([^/?#]+)/

/**
 * The sign-in page's info line, from where the visitor was going (spec §4 and §8): a card of this
 * tenant with `connect=1` → 'Sign in to connect with {first name}'; with `save=1` → 'You must be
 * logged in to save contacts'; the card wizard → 'You must be logged in to create a digital card'.
 */
export async function signInInfo(tenant: Tenant, redirectTo: string | null) {
  if (!redirectTo) return null
  const url = new URL(redirectTo, 'http://same.invalid')
  if (url.pathname === '/onboarding' && url.searchParams.get('mode') === 'card') {
    return 'You must be logged in to create a digital card'
  }
  const reference = CARD_PATH.exec(url.pathname)?.[1]
  if (!reference) return null
  if (url.searchParams.get('save') === '1') return 'You must be logged in to save contacts'
  if (url.searchParams.get('connect') !== '1') return null
  let decoded: string
  try {
    decoded = decodeURIComponent(reference)
  } catch {
    return null
  }
  const card = await withTenant(tenant.id, async (tx) => {
    const found = await findCardByReference(tx, tenant.id, decoded)
    if (!found) return undefined
    // The visitor is not signed in yet: a card shown only to some people does not give its
    // owner's name away here either.
    const privacy = await getOwnerPrivacy(tx, tenant.id, found.card.userId)
    return (await mayViewCard(tx, tenant.id, found.card.userId, privacy, null)) ? found : undefined
  })
  return card ? `Sign in to connect with ${card.card.firstName}` : null
}
