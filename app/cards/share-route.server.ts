// The QR screen (spec §2). `/qrcode/{cardId}` opens for whoever the card itself opens for at
// /card/{id} (ADR 009), through the card gate: a card hidden from this viewer, or whose owner is
// inactive, is not found, and only its owner sees a hidden email or phone. `/qrcode` shows the
// signed-in user's own card or profile.
import type { AppLoadContext } from '@remix-run/node'
import { data } from '@remix-run/node'
import { getOptionalUser, requireUser } from '#app/auth/guards.server'
import { toCardExtras } from '#app/cards/card-extras.server'
import { openCard, type ShownCard } from '#app/cards/card-gate.server'
import { type CardArea, cardEditPath, cardSignaturePath } from '#app/cards/card-paths'
import { toCardView } from '#app/cards/card-view.server'
import { cardLinkUrl } from '#app/cards/short-link'
import { walletOffersFor } from '#app/cards/wallet-offers.server'
import { getDefaultCardForOwner } from '#app/models/cards.server'
import type { User } from '#app/models/users.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { redirectWithToast } from '#app/utils/toast.server'
import { roleArea, rolePaths } from '#app/validation/roles'
import { withTenant } from '#drizzle/db.server'

const cardArea = (user: User): CardArea =>
  roleArea(user.role) === 'team-member' ? 'team-member' : 'end-user'

/**
 * What the card is offered as besides its link (issue 29 point 5, ADR 044). The card gate has
 * already shown it to this viewer, and every offer's own route passes the gate again. Saving a
 * card to a wallet is a recipient's act: offered to whoever sees the card. The email signature
 * and the virtual background present the owner: offered to the owner alone.
 */
function offersFor(request: Request, row: ShownCard, viewer: User | null) {
  if (!row.cardId)
    return { wallet: { apple: null, google: null }, signaturePath: null, backgroundCardId: null }
  const own = row.isOwner && viewer !== null
  return {
    wallet: walletOffersFor(row.card, request, row.isPublic),
    signaturePath: own ? cardSignaturePath(cardArea(viewer), row.cardId) : null,
    backgroundCardId: own ? row.cardId : null,
  }
}

/** What the page shows for one shareable card (or profile), and what the viewer may do with it. */
function shareData(request: Request, tenant: Tenant, row: ShownCard, viewer: User | null) {
  const reference = encodeURIComponent(row.card.id)
  return {
    status: 'card' as const,
    card: toCardView(row),
    extras: toCardExtras(row),
    isProfile: row.cardId === null,
    // The short link (ADR 041) is what the share sheet and the copied link carry.
    shareUrl: cardLinkUrl(tenantOrigin(tenant), row),
    qrSrc: `/card/${reference}/qr.png`,
    // For print (issue 41 point 13): 1200 px and SVG, in the agency's colour with the logo.
    qrDownloads: {
      png: `/card/${reference}/qr.png?print`,
      svg: `/card/${reference}/qr.svg?print`,
    },
    vcardUrl: `/card/${reference}/vcard`,
    signedIn: viewer !== null,
    cardsPath: viewer ? rolePaths(viewer.role).digitalCards : null,
    editPath:
      row.isOwner && viewer && row.cardId ? cardEditPath(cardArea(viewer), row.cardId) : null,
    offers: offersFor(request, row, viewer),
  }
}

/** The Privacy tab of the user's settings, for the roles whose settings have one (spec §2.6). */
function privacyPath(user: User) {
  const area = roleArea(user.role)
  return area === 'end-user' || area === 'team-member'
    ? `${rolePaths(user.role).settings}?tab=privacy`
    : null
}

/**
 * Why `/qrcode` has nothing to show, so the message fits (issue 30): no first and last name (no
 * name link), a namesake holding the name link (ADR 027), or a profile its owner has not shared
 * yet (the rule is findCardByReference's, ADR 009's addendum).
 */
function emptyReason(user: User) {
  if (user.linkSlug) return 'unshared' as const
  return user.firstName.trim() && user.lastName.trim()
    ? ('namesake' as const)
    : ('no-name' as const)
}

/** `/qrcode`: the default card, else the profile (spec §2), else a way to make one. */
export async function ownShareLoader(request: Request, context: AppLoadContext) {
  const { tenant, user } = await requireUser(request, context)
  const row = await withTenant(tenant.id, async (tx) => {
    const card = await getDefaultCardForOwner(tx, tenant.id, user.id)
    if (card) return openCard(tx, tenant.id, { id: card.card.id }, user)
    // Without a card, the profile behind the user's name link (ADR 027), if they hold one and
    // have shared it: the gate asks findCardByReference, the rule's one home.
    return user.linkSlug ? openCard(tx, tenant.id, { reference: user.linkSlug }, user) : undefined
  })
  if (row?.isOwner) {
    return {
      ...shareData(request, tenant, row, user),
      // A profile its owner's visibility keeps from some viewers says so, with the way to change it.
      restrictedProfile: row.cardId === null && !row.isPublic,
      privacyPath: privacyPath(user),
    }
  }
  const onboarded = user.onboardingCompletedAt !== null
  return {
    status: 'empty' as const,
    reason: emptyReason(user),
    privacyPath: privacyPath(user),
    cardsPath: rolePaths(user.role).digitalCards,
    createPath: onboarded ? rolePaths(user.role).digitalCards : '/onboarding',
    createLabel: onboarded ? 'Create a Digital Card' : 'Create Your Profile',
  }
}

/** `/qrcode/{cardId}`: a card of this tenant by its id, for whoever may see it. */
export async function cardShareLoader(request: Request, context: AppLoadContext, cardId: string) {
  const { tenant, user } = await getOptionalUser(request, context)
  const row = await withTenant(tenant.id, (tx) => openCard(tx, tenant.id, { id: cardId }, user))
  if (!row) {
    if (user) {
      throw await redirectWithToast(rolePaths(user.role).digitalCards, {
        type: 'error',
        title: 'Digital card not found',
      })
    }
    return data({ status: 'not-found' as const }, { status: 404 })
  }
  return shareData(request, tenant, row, user)
}
