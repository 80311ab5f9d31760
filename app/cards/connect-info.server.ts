import { openCard } from '#app/cards/card-gate.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { type Translate, translator } from '#app/utils/i18n/translate'
import { withTenant } from '#drizzle/db.server'

const CARD_PATH = /^\/(?:card|contact)\/([^/?#]+)/

/**
 * The sign-in page's info line, from where the visitor was going (spec §4 and §8): a card of this
 * tenant with `connect=1` → 'Sign in to connect with {first name}'; with `save=1` → 'You must be
 * logged in to save contacts'; the card wizard → 'You must be logged in to create a digital card'.
 */
export async function signInInfo(
  tenant: Tenant,
  redirectTo: string | null,
  // The sign-in page's language (ADR 105).
  t: Translate = translator('en'),
) {
  if (!redirectTo) return null
  const url = new URL(redirectTo, 'http://same.invalid')
  if (url.pathname === '/onboarding' && url.searchParams.get('mode') === 'card') {
    return t('signIn.toCreateCard')
  }
  const reference = CARD_PATH.exec(url.pathname)?.[1]
  if (!reference) return null
  if (url.searchParams.get('save') === '1') return t('signIn.toSaveContacts')
  if (url.searchParams.get('connect') !== '1') return null
  let decoded: string
  try {
    decoded = decodeURIComponent(reference)
  } catch {
    return null
  }
  // The visitor is not signed in yet: the gate, asked for nobody, names only the owner of a
  // public card of an active account.
  const card = await withTenant(tenant.id, (tx) =>
    openCard(tx, tenant.id, { reference: decoded }, null),
  )
  return card ? t('signIn.toConnect', { firstName: card.card.firstName }) : null
}
