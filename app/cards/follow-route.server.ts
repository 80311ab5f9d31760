// /follow/confirm and /follow/unsubscribe (ADR 102): the double opt-in's link and a follower's
// one-click way out. The token in the URL is the only authority (no session: a follower has no
// account); only the confirmation token's hash is stored, and the stop link is a signed
// statement. GET only shows (link scanners open every link in an email).
import { type AppLoadContext, data } from '@remix-run/node'
import { z } from 'zod'
import { formAction } from '#app/actions/intent-action.server'
import { hashToken, LINK_TOKEN } from '#app/email/link-token.server'
import { readFollowerStopToken } from '#app/email/unsubscribe-token.server'
import { readPlainForm } from '#app/media/uploads.server'
import {
  confirmFollower,
  findFollowerById,
  findPendingFollowerByToken,
  stopFollowing,
} from '#app/models/card-followers.server'
import { ONE_CLICK_REQUIRED_MESSAGE } from '#app/notifications/unsubscribe-route.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { FOLLOW_CONFIRMATION_LINK } from '#app/validation/token-lifetimes'
import { withTenant } from '#drizzle/db.server'
import { FOLLOW_CONFIRM_PATH, nameOf } from './card-follow.server'
import { openCard } from './card-gate.server'

export const FOLLOW_LINK_INVALID = `This link no longer works: it was used already, it is more than ${FOLLOW_CONFIRMATION_LINK.words} old, or it is not complete.`
export const FOLLOW_STOP_INVALID = 'This link is not valid. Open it again from the email.'

// The tokens are in the URL: they must leak neither through Referer nor into a shared cache.
export const FOLLOW_HEADERS = {
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  // The pages speak the browser's language (ADR 105).
  Vary: 'Accept-Language',
}

/** The link's token, as the URL carries it (empty when it carries none). */
const tokenOf = (request: Request) => new URL(request.url).searchParams.get('token') ?? ''

/** The page's answer to a link that finds nothing: it says why. */
function invalidLink(message: string, status: 400 | 404) {
  return data({ status: 'invalid' as const, message }, { status, headers: FOLLOW_HEADERS })
}

/** The confirmation's refusal: its link finds nothing (any more). */
const notFound = () => new Response('Not Found', { status: 404, headers: FOLLOW_HEADERS })

function confirmTokenHash(request: Request) {
  const token = tokenOf(request)
  return LINK_TOKEN.test(token) ? hashToken(token) : null
}

/** The confirmation page (GET only shows: link scanners open every link in an email). */
export async function followConfirmLoader(request: Request, context: AppLoadContext) {
  const tenant = await requireTenant(context)
  const hash = confirmTokenHash(request)
  const found =
    hash &&
    (await withTenant(tenant.id, async (tx) => {
      const follower = await findPendingFollowerByToken(tx, tenant.id, hash)
      const card = follower && (await openCard(tx, tenant.id, { id: follower.cardId }, null))?.card
      return card ? { ownerName: nameOf(card) } : null
    }))
  if (!found) return invalidLink(FOLLOW_LINK_INVALID, 404)
  return data({ status: 'pending' as const, ...found }, { headers: FOLLOW_HEADERS })
}

export const ConfirmFollowSchema = z.object({ intent: z.literal('confirm') })

export async function followConfirmAction(request: Request, context: AppLoadContext) {
  return formAction(request, {
    guard: async () => {
      const tenant = await requireTenant(context)
      const hash = confirmTokenHash(request)
      if (!hash) throw notFound()
      return { tenant, hash }
    },
    schema: ConfirmFollowSchema,
    redirectTo: FOLLOW_CONFIRM_PATH,
    headers: FOLLOW_HEADERS,
    handle: async (_value, { tenant, hash }) => {
      const confirmed = await withTenant(tenant.id, (tx) => confirmFollower(tx, tenant.id, hash))
      if (!confirmed) throw notFound()
      return { reply: { confirmed: true } }
    },
  })
}

/** The follower a stop link names, on this tenant's host only. */
function stopTokenOf(request: Request, tenant: Tenant) {
  const token = tokenOf(request)
  const statement = readFollowerStopToken(token)
  return statement && statement.organizationId === tenant.id ? { token, ...statement } : null
}

export async function followStopLoader(request: Request, context: AppLoadContext) {
  const tenant = await requireTenant(context)
  const named = stopTokenOf(request, tenant)
  const follower =
    named &&
    (await withTenant(tenant.id, (tx) => findFollowerById(tx, tenant.id, named.followerId)))
  if (!named || !follower) return invalidLink(FOLLOW_STOP_INVALID, 400)
  return data(
    { status: 'valid' as const, token: named.token, following: follower.state === 'confirmed' },
    { headers: FOLLOW_HEADERS },
  )
}

/** RFC 8058's one-click POST (a mailbox provider's, or the page's button): the token decides. */
export async function followStopAction(request: Request, context: AppLoadContext) {
  const tenant = await requireTenant(context)
  const named = stopTokenOf(request, tenant)
  const form = await readPlainForm(request)
  if (!named) return invalidLink(FOLLOW_STOP_INVALID, 400)
  if (form.get('List-Unsubscribe') !== 'One-Click') {
    return invalidLink(ONE_CLICK_REQUIRED_MESSAGE, 400)
  }
  await withTenant(tenant.id, (tx) => stopFollowing(tx, tenant.id, named.followerId))
  return data({ status: 'stopped' as const }, { headers: FOLLOW_HEADERS })
}
