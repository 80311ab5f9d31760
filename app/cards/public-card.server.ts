// The public card page: the product's hot path. One tenant lookup (cached), one card query
// with its images, one view insert; no session work unless a cookie is present.

import { createHmac } from 'node:crypto'
import { parseWithZod } from '@conform-to/zod/v4'
import { type AppLoadContext, data, redirect } from '@remix-run/node'
import { getOptionalUser } from '#app/auth/guards.server'
import {
  addressLimitKey,
  assertNotLimited,
  RateLimitedError,
  rateLimitMessage,
  recordHits,
  tooManyRequests,
} from '#app/auth/rate-limit.server'
import { pageCacheHeaders } from '#app/cache/page-cache.server'
import { cardViewerOf, openCard } from '#app/cards/card-gate.server'
import { toCardView } from '#app/cards/card-view.server'
import { OG_HEIGHT, OG_WIDTH, ogImagePath } from '#app/cards/og-image.server'
import { queueCardView } from '#app/cards/view-batcher.server'
import { addContactAndForward } from '#app/crm/forwarding.server'
import { getEnv } from '#app/env.server'
import { wakeJobWorker } from '#app/jobs/worker.server'
import { readPlainForm } from '#app/media/uploads.server'
import { deviceClassOf, recordCardView } from '#app/models/card-views.server'
import { queueNewContactEmailIn } from '#app/notifications/new-contact.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { isBotUserAgent } from '#app/utils/bot'
import { CardIntentSchema } from '#app/validation/public-card'
import { withTenant } from '#drizzle/db.server'

/** A keyed hash of the visitor: repeat views can be told apart without storing an address. */
function visitorHash(ip: string, userAgent: string, cardId: string) {
  return createHmac('sha256', getEnv().APP_SECRET)
    .update(`${ip}\n${userAgent}\n${cardId}`)
    .digest('hex')
    .slice(0, 32)
}

/**
 * A visitor's view of a page the server answered for everyone (a cache hit, or the request
 * that filled the cache): counted as the loader would, written in the next batch.
 */
export function recordPublicCardView(
  organizationId: string,
  cardId: string,
  clientIp: string,
  userAgent: string,
) {
  if (isBotUserAgent(userAgent)) return
  queueCardView({
    organizationId,
    cardId,
    visitorHash: visitorHash(clientIp, userAgent, cardId),
    deviceClass: deviceClassOf(userAgent),
  })
}

export async function publicCardLoader(
  request: Request,
  context: AppLoadContext,
  reference: string,
) {
  const tenant = await requireTenant(context)
  const viewer = await cardViewerOf(request, context)
  const userAgent = request.headers.get('User-Agent') ?? ''
  const countable = !isBotUserAgent(userAgent)
  // One transaction for the lookup and the view: the hot path pays for one round of BEGIN/COMMIT.
  const row = await withTenant(tenant.id, async (tx) => {
    // A card hidden from this visitor is not found (and its view is not counted).
    const shown = reference ? await openCard(tx, tenant.id, { reference }, viewer) : undefined
    if (!shown) return undefined
    // A profile standing in for a card has no card row to count views of. A page the server
    // may cache has its view recorded by the server, for this request and every hit.
    if (shown.cardId && countable && !shown.isOwner && !context.pageCacheCandidate) {
      const hash = visitorHash(context.clientIp ?? 'unknown', userAgent, shown.cardId)
      await recordCardView(tx, tenant.id, shown.cardId, hash, deviceClassOf(userAgent))
    }
    return shown
  })
  if (!row) return data({ found: false as const }, { status: 404 })
  const origin = tenantOrigin(tenant)
  const card = toCardView(row)
  return data(
    {
      found: true as const,
      card: {
        ...card,
        // The owner's id stays on the server; only what a visitor may see goes out.
        email: row.card.email,
        workEmail: row.card.workEmail,
      },
      cardUrl: `${origin}/card/${row.card.id}`,
      imageUrl: card.profilePictureUrl ? `${origin}${card.profilePictureUrl}` : null,
      // Absolute, on the tenant's own origin: crawlers fetch it without the page's context.
      previewImage: row.isPublic
        ? {
            url: `${origin}${ogImagePath(tenant, { ...row.card, profilePictureUrl: card.profilePictureUrl })}`,
            width: OG_WIDTH,
            height: OG_HEIGHT,
          }
        : null,
      noindex: row.card.noindex,
      signedIn: Boolean(viewer),
      isOwner: row.isOwner,
    },
    {
      headers: {
        // Edits show at once: browsers revalidate every time (a 304 while unchanged). A card
        // shown only to some people is theirs: no shared cache may keep it.
        'Cache-Control': row.isPublic ? 'no-cache' : 'private, no-cache',
        ...(row.isPublic ? pageCacheHeaders(context, tenant.id, { viewOf: row.cardId }) : {}),
      },
    },
  )
}

export async function publicCardAction(
  request: Request,
  context: AppLoadContext,
  reference: string,
) {
  const { tenant, user } = await getOptionalUser(request, context)
  // The lead form too: a card hidden from this visitor, or whose owner is inactive, takes none.
  const row = await withTenant(tenant.id, (tx) => openCard(tx, tenant.id, { reference }, user))
  if (!row) throw new Response('Not Found', { status: 404 })
  const card = row.card
  const sourceCardId = row.cardId
  const submission = parseWithZod(await readPlainForm(request), { schema: CardIntentSchema })
  if (submission.status !== 'success') {
    return data({ result: submission.reply(), message: null, ok: false }, { status: 400 })
  }
  const value = submission.value

  if (value.intent === 'lead') {
    // Honeypot: people leave the hidden "website" field empty; bots fill it. Answer as if done.
    if (value.website)
      return {
        result: submission.reply({ resetForm: true }),
        message: `Thanks! ${card.firstName} will be in touch.`,
        ok: true,
      }
    const limits = [
      { name: 'leadIp' as const, key: addressLimitKey('leadIp', context.clientIp ?? 'unknown') },
    ]
    try {
      await assertNotLimited(limits)
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error
      return data(
        {
          result: submission.reply({ formErrors: [rateLimitMessage(error.retryAfterSeconds)] }),
          message: null,
          ok: false,
        },
        { status: 429 },
      )
    }
    await recordHits(limits)
    try {
      await withTenant(tenant.id, async (tx) => {
        const added = await addContactAndForward(tx, tenant.id, card.userId, {
          fullName: value.fullName,
          email: value.email,
          phoneNumber: value.phoneNumber,
          company: value.company,
          note: value.note,
          source: 'lead',
          sourceCardId,
        })
        // A lead already in the list is not news: only a new contact is emailed about, and the
        // email is queued with the contact, so one is never saved without the other.
        if (added.status === 'created') {
          await queueNewContactEmailIn(tx, tenant, {
            kind: 'lead',
            ownerId: card.userId,
            contact: { fullName: value.fullName, email: value.email, company: value.company },
            cause: { clientIp: context.clientIp ?? 'unknown' },
          })
        }
      })
    } catch (error) {
      // The owner's notification is past the send limits: the lead is not kept either (it
      // rolled back with it), and the visitor is told to come back.
      if (!(error instanceof RateLimitedError)) throw error
      return tooManyRequests(error, {
        result: submission.reply({ formErrors: [error.message] }),
        message: null,
        ok: false,
      })
    }
    wakeJobWorker()
    return {
      result: submission.reply({ resetForm: true }),
      message: `Thanks! ${card.firstName} will be in touch.`,
      ok: true,
    }
  }

  if (!user) {
    // The sign-in page says why it was needed (spec §8) and connecting resumes after it.
    const back = `/card/${card.id}?${value.intent === 'connect' ? 'connect=1' : 'save=1'}`
    throw redirect(`/auth/login?${new URLSearchParams({ redirectTo: back })}`)
  }

  if (value.intent === 'save') {
    const saved = await withTenant(tenant.id, (tx) =>
      addContactAndForward(tx, tenant.id, user.id, {
        fullName: `${card.firstName} ${card.lastName}`.trim(),
        email: card.email || card.workEmail,
        phoneNumber: card.phoneNumber,
        company: card.company,
        jobTitle: card.jobTitle,
        source: 'saved',
        sourceCardId,
      }),
    )
    return saved.status === 'duplicate'
      ? data(
          { result: null, message: 'This contact is already in your list', ok: false },
          { status: 409 },
        )
      : { result: null, message: 'Contact saved successfully', ok: true }
  }

  // Connect: each side gets the other as a contact, once.
  if (user.id === card.userId) {
    return data(
      { result: null, message: 'Failed to connect with contact', ok: false },
      { status: 400 },
    )
  }
  const visitorName = `${user.firstName} ${user.lastName}`.trim() || 'Unknown User'
  try {
    await withTenant(tenant.id, async (tx) => {
      const added = await addContactAndForward(tx, tenant.id, card.userId, {
        fullName: visitorName,
        email: user.email,
        source: 'connect',
        sourceCardId,
      })
      await addContactAndForward(tx, tenant.id, user.id, {
        fullName: `${card.firstName} ${card.lastName}`.trim(),
        email: card.email || card.workEmail,
        phoneNumber: card.phoneNumber,
        company: card.company,
        jobTitle: card.jobTitle,
        source: 'connect',
        sourceCardId,
      })
      // Connecting again (already in the owner's list) sends nothing: one email per new contact.
      if (added.status === 'created') {
        await queueNewContactEmailIn(tx, tenant, {
          kind: 'connect',
          ownerId: card.userId,
          contact: { fullName: visitorName, email: user.email },
          cause: { userId: user.id },
        })
      }
    })
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error
    return tooManyRequests(error, { result: null, message: error.message, ok: false })
  }
  wakeJobWorker()
  return { result: null, message: `Successfully connected with ${card.firstName}`, ok: true }
}
