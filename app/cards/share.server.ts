import type { AppLoadContext } from '@remix-run/node'
import { json } from '@remix-run/node'
import { requireUser } from '#app/auth/guards.server'
import { roleArea, rolePaths } from '#app/auth/roles'
import { toCardView } from '#app/cards/card-view.server'
import { type CardArea, cardEditPath } from '#app/cards/paths'
import { getCardForOwner, getDefaultCardForOwner } from '#app/models/cards.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { redirectWithToast } from '#app/utils/toast.server'
import { withTenant } from '#drizzle/db.server'

/** The QR screen's data: the given card, else the default card (spec §2). */
export async function shareLoader(
  request: Request,
  context: AppLoadContext,
  cardId: string | null,
) {
  const { tenant, user } = await requireUser(request, context)
  const paths = rolePaths(user.role)
  const row = await withTenant(tenant.id, (tx) =>
    cardId
      ? getCardForOwner(tx, tenant.id, user.id, cardId)
      : getDefaultCardForOwner(tx, tenant.id, user.id),
  )
  if (cardId && !row) {
    throw await redirectWithToast(paths.digitalCards, {
      type: 'error',
      title: 'Digital card not found',
    })
  }
  const area: CardArea = roleArea(user.role) === 'team-member' ? 'team-member' : 'end-user'
  return json({
    card: row ? toCardView(row) : null,
    shareUrl: row ? `${tenantOrigin(tenant)}/card/${row.card.id}` : null,
    cardsPath: paths.digitalCards,
    editPath: row ? cardEditPath(area, row.card.id) : null,
  })
}
