// /personal-card/claim (the agency's host) and /p/{slug} (the platform's host), ADR 103: the
// departing person's emailed link, which only shows the form on GET (link scanners open every
// link) and writes the card on its POST, and the personal card's public page. The token in the
// URL is the only authority of the claim (the person may no longer sign in); only its hash is
// stored.
import { type AppLoadContext, data } from '@remix-run/node'
import { formAction } from '#app/actions/intent-action.server'
import { hashToken, LINK_TOKEN } from '#app/email/link-token.server'
import { findOfferByToken, findPersonalCardBySlug } from '#app/models/personal-cards.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { ClaimPersonalCardSchema, PERSONAL_CARD_CLAIM_PATH } from '#app/validation/personal-card'
import { withTenant } from '#drizzle/db.server'
import { CLAIM_LINK_INVALID, claimPersonalCard, personalCardUrl } from './personal-card.server'

// The token is in the URL: it must leak neither through Referer nor into a shared cache.
export const CLAIM_HEADERS = { 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' }

function claimTokenHash(request: Request) {
  const token = new URL(request.url).searchParams.get('token') ?? ''
  return LINK_TOKEN.test(token) ? hashToken(token) : null
}

/** The claim form, prefilled with the account's name only (GET writes nothing). */
export async function personalCardClaimLoader(request: Request, context: AppLoadContext) {
  const tenant = await requireTenant(context)
  const hash = claimTokenHash(request)
  const offer = hash && (await withTenant(tenant.id, (tx) => findOfferByToken(tx, tenant.id, hash)))
  if (!offer) {
    return data(
      { status: 'invalid' as const, message: CLAIM_LINK_INVALID },
      { status: 404, headers: CLAIM_HEADERS },
    )
  }
  return data(
    { status: 'open' as const, firstName: offer.firstName, lastName: offer.lastName },
    { headers: CLAIM_HEADERS },
  )
}

export async function personalCardClaimAction(request: Request, context: AppLoadContext) {
  return formAction(request, {
    guard: async () => {
      const tenant = await requireTenant(context)
      const hash = claimTokenHash(request)
      if (!hash) throw new Response('Not Found', { status: 404, headers: CLAIM_HEADERS })
      return { tenant, hash }
    },
    schema: ClaimPersonalCardSchema,
    redirectTo: PERSONAL_CARD_CLAIM_PATH,
    headers: CLAIM_HEADERS,
    handle: async ({ firstName, lastName, email, phone }, { tenant, hash }) => {
      const { slug } = await claimPersonalCard(tenant, hash, { firstName, lastName, email, phone })
      return { reply: { claimed: true, url: await personalCardUrl(slug) } }
    },
  })
}

/** A personal card, on the platform's own host only (an agency's host has none: 404). */
export async function personalCardLoader(
  _request: Request,
  context: AppLoadContext,
  slug: string | undefined,
) {
  const tenant = await requireTenant(context)
  const card =
    tenant.kind === 'platform' && slug && /^[a-z0-9-]{1,64}$/i.test(slug)
      ? await withTenant(tenant.id, (tx) => findPersonalCardBySlug(tx, tenant.id, slug))
      : undefined
  if (!card) throw new Response('Not Found', { status: 404 })
  return data({ card })
}
