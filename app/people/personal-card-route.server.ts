// /personal-card/claim (the agency's host) and /p/{slug} (the platform's host), ADR 103: the
// departing person's emailed link, which only shows the form on GET (link scanners open every
// link) and writes the card on its POST, and the personal card's public page; and (ADR 106) the
// card's owner asking for a link to edit or remove it, and the form that link opens. A token in
// the URL is the only authority of a claim or an edit (the person has no account); only its hash
// is stored.
import { type AppLoadContext, data } from '@remix-run/node'
import { formAction, intentAction } from '#app/actions/intent-action.server'
import { hashToken, LINK_TOKEN } from '#app/email/link-token.server'
import { findOfferByToken, findPersonalCardBySlug } from '#app/models/personal-cards.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import {
  ClaimPersonalCardSchema,
  MANAGE_LINK_INVALID,
  MANAGE_LINK_SENT,
  ManagePersonalCardSchema,
  PERSONAL_CARD_CLAIM_PATH,
  PERSONAL_CARD_MANAGE_PATH,
  PERSONAL_CARD_REMOVED,
  PERSONAL_CARD_SAVED,
  personalCardManageRequestPath,
  RequestManageLinkSchema,
} from '#app/validation/personal-card'
import { PERSONAL_CARD_MANAGE_LINK } from '#app/validation/token-lifetimes'
import { withTenant } from '#drizzle/db.server'
import { CLAIM_LINK_INVALID, claimPersonalCard, personalCardUrl } from './personal-card.server'
import {
  personalCardToManage,
  removePersonalCard,
  requestManageLink,
  savePersonalCard,
} from './personal-card-manage.server'

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
  const { card } = await platformPersonalCard(context, slug)
  return data({ card })
}

/** A personal card on the platform's host, or 404 (an agency's host has none). */
async function platformPersonalCard(context: AppLoadContext, slug: string | undefined) {
  const tenant = await requireTenant(context)
  const card =
    tenant.kind === 'platform' && slug && /^[a-z0-9-]{1,64}$/i.test(slug)
      ? await withTenant(tenant.id, (tx) => findPersonalCardBySlug(tx, tenant.id, slug))
      : undefined
  if (!card) throw new Response('Not Found', { status: 404 })
  return { tenant, card }
}

/** /p/{slug}/manage: its owner asks for a link to edit or remove the card (ADR 106). */
export async function manageLinkRequestLoader(
  _request: Request,
  context: AppLoadContext,
  slug: string | undefined,
) {
  const { card } = await platformPersonalCard(context, slug)
  return data({ card: { slug: card.slug, firstName: card.firstName, lastName: card.lastName } })
}

export async function manageLinkRequestAction(
  request: Request,
  context: AppLoadContext,
  slug: string | undefined,
) {
  return formAction(request, {
    guard: () => platformPersonalCard(context, slug),
    schema: RequestManageLinkSchema,
    redirectTo: personalCardManageRequestPath(slug ?? ''),
    handle: async ({ email }, { card }) => {
      // The same answer whatever the address: the job alone compares it with the card's.
      await requestManageLink(card.slug, email, context.clientIp ?? 'unknown')
      return { reply: { sent: MANAGE_LINK_SENT(PERSONAL_CARD_MANAGE_LINK.words) } }
    },
  })
}

function manageTokenHash(request: Request) {
  const token = new URL(request.url).searchParams.get('token') ?? ''
  return LINK_TOKEN.test(token) ? hashToken(token) : null
}

/** Only the platform's host has personal cards; its emailed link opens nowhere else. */
async function requirePlatformHost(context: AppLoadContext) {
  const tenant = await requireTenant(context)
  if (tenant.kind !== 'platform') throw new Response('Not Found', { status: 404 })
  return tenant
}

/** /personal-card/manage?token=: the card's edit form while the link works (GET writes nothing). */
export async function personalCardManageLoader(request: Request, context: AppLoadContext) {
  await requirePlatformHost(context)
  const hash = manageTokenHash(request)
  const card = hash ? await personalCardToManage(hash) : undefined
  if (!card) {
    return data(
      { status: 'invalid' as const, message: MANAGE_LINK_INVALID },
      { status: 404, headers: CLAIM_HEADERS },
    )
  }
  const { firstName, lastName, email, phone, slug } = card
  return data(
    {
      status: 'open' as const,
      card: { firstName, lastName, email, phone },
      url: await personalCardUrl(slug),
    },
    { headers: CLAIM_HEADERS },
  )
}

export async function personalCardManageAction(request: Request, context: AppLoadContext) {
  return intentAction(request, {
    guard: async () => {
      await requirePlatformHost(context)
      const hash = manageTokenHash(request)
      if (!hash) throw new Response('Not Found', { status: 404, headers: CLAIM_HEADERS })
      return { hash }
    },
    schema: ManagePersonalCardSchema,
    redirectTo: PERSONAL_CARD_MANAGE_PATH,
    headers: CLAIM_HEADERS,
    intents: {
      save: async ({ firstName, lastName, email, phone }, { hash }) => {
        const card = await savePersonalCard(hash, { firstName, lastName, email, phone })
        return { reply: { saved: PERSONAL_CARD_SAVED, url: await personalCardUrl(card.slug) } }
      },
      remove: async (_value, { hash }) => {
        await removePersonalCard(hash)
        return { reply: { removed: PERSONAL_CARD_REMOVED } }
      },
    },
  })
}
