// The QR screen (spec §2). `/qrcode/{cardId}` is open to anyone holding the link, as the card
// itself is at /card/{id} (ADR 009); `/qrcode` shows the signed-in user's own card or profile.
import type { AppLoadContext } from '@remix-run/node'
import { json } from '@remix-run/node'
import { getOptionalUser, requireUser } from '#app/auth/guards.server'
import { roleArea, rolePaths } from '#app/auth/roles'
import { toCardView } from '#app/cards/card-view.server'
import { type CardArea, cardEditPath } from '#app/cards/paths'
import {
  findCardById,
  findCardByReference,
  getDefaultCardForOwner,
  profileSlug,
  type SharedCard,
} from '#app/models/cards.server'
import type { User } from '#app/models/users.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { redirectWithToast } from '#app/utils/toast.server'
import { withTenant } from '#drizzle/db.server'

const cardArea = (user: User): CardArea =>
  roleArea(user.role) === 'team-member' ? 'team-member' : 'end-user'

/** What the page shows for one shareable card (or profile), and what the viewer may do with it. */
function shareData(tenant: Tenant, row: SharedCard, viewer: User | null) {
  const reference = encodeURIComponent(row.card.id)
  const isOwner = viewer?.id === row.card.userId
  return {
    status: 'card' as const,
    card: toCardView(row),
    isProfile: row.cardId === null,
    shareUrl: `${tenantOrigin(tenant)}/card/${reference}`,
    qrSrc: `/card/${reference}/qr.png`,
    vcardUrl: `/card/${reference}/vcard`,
    signedIn: viewer !== null,
    cardsPath: viewer ? rolePaths(viewer.role).digitalCards : null,
    editPath: isOwner && viewer && row.cardId ? cardEditPath(cardArea(viewer), row.cardId) : null,
  }
}

/** `/qrcode`: the default card, else the profile (spec §2), else a way to make one. */
export async function ownShareLoader(request: Request, context: AppLoadContext) {
  const { tenant, user } = await requireUser(request, context)
  const row = await withTenant(tenant.id, async (tx): Promise<SharedCard | undefined> => {
    const card = await getDefaultCardForOwner(tx, tenant.id, user.id)
    if (card) return { ...card, cardId: card.card.id }
    if (!user.firstName.trim() || !user.lastName.trim()) return undefined
    return findCardByReference(tx, tenant.id, profileSlug(user.firstName, user.lastName))
  })
  // The name link opens this user's profile only if nothing else answers to that name first
  // (another person's card, an older namesake); otherwise it is not offered.
  if (row && row.card.userId === user.id) return json(shareData(tenant, row, user))
  const onboarded = user.onboardingCompletedAt !== null
  return json({
    status: 'empty' as const,
    cardsPath: rolePaths(user.role).digitalCards,
    createPath: onboarded ? rolePaths(user.role).digitalCards : '/onboarding',
    createLabel: onboarded ? 'Create a Digital Card' : 'Create Your Profile',
  })
}

/** `/qrcode/{cardId}`: any card of this tenant by its id, for visitors too. */
export async function cardShareLoader(request: Request, context: AppLoadContext, cardId: string) {
  const { tenant, user } = await getOptionalUser(request, context)
  const row = await withTenant(tenant.id, (tx) => findCardById(tx, tenant.id, cardId))
  if (!row) {
    if (user) {
      throw await redirectWithToast(rolePaths(user.role).digitalCards, {
        type: 'error',
        title: 'Digital card not found',
      })
    }
    return json({ status: 'not-found' as const }, { status: 404 })
  }
  return json(shareData(tenant, { ...row, cardId: row.card.id }, user))
}
