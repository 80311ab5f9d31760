// The public card page: the product's hot path. One tenant lookup (cached), one card query
// with its images, one view insert; no session work unless a cookie is present.

import { type AppLoadContext, data, redirect } from '@remix-run/node'
import { intentAction } from '#app/actions/intent-action.server'
import { getOptionalUser } from '#app/auth/guards.server'
import { pageCacheHeaders } from '#app/cache/page-cache.server'
import { toCardExtras } from '#app/cards/card-extras.server'
import { askToFollowIn } from '#app/cards/card-follow.server'
import {
  type CardReference,
  cardViewerOf,
  type Forwarding,
  openCard,
  openCardPage,
} from '#app/cards/card-gate.server'
import { toCardView } from '#app/cards/card-view.server'
import {
  countCachedVcardSave,
  countCardEvent,
  VCARD_SAVE_MARK,
  visitorHash,
} from '#app/cards/count-card-events.server'
import { linkTapPath } from '#app/cards/link-taps.server'
import { OG_HEIGHT, OG_WIDTH, ogImagePath } from '#app/cards/og-image.server'
import { cardLinkUrl, shortLinkPath } from '#app/cards/short-link'
import { queueCardView } from '#app/cards/view-batcher.server'
import { walletOffersOnCardPage } from '#app/cards/wallet-offers.server'
import { addContactAndForward } from '#app/crm/forwarding.server'
import {
  consentOfLead,
  currentConsentText,
  queueLeadReceiptIn,
} from '#app/leads/lead-consent.server'
import { deviceClassOf, recordCardView } from '#app/models/card-views.server'
import type { DigitalCard } from '#app/models/cards.server'
import { findContactByEmail } from '#app/models/contacts.server'
import { queueNewContactEmailIn } from '#app/notifications/new-contact.server'
import { addressLimitKey, assertNotLimited, recordHits } from '#app/rate-limits/rate-limit.server'
import { writesPausedForDiskSpace } from '#app/storage/disk-space.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { Refusal } from '#app/utils/action-error'
import { isBotUserAgent } from '#app/utils/bot'
import { languageOfRequest } from '#app/utils/i18n/negotiate'
import { translateEnglish, translator } from '#app/utils/i18n/translate'
import { sourceOfRequest, type ViewSource, withSource } from '#app/utils/view-sources'
import { CardIntentSchema } from '#app/validation/public-card'
import { withTenant } from '#drizzle/db.server'
import { isOutage } from '#drizzle/unavailable.server'

/**
 * A visitor's view of a page the server answered for everyone (a cache hit, or the request
 * that filled the cache): counted as the loader would, with the source its link was marked
 * with (server.ts reads it off the request), written in the next batch. A cached vCard's hit
 * comes here too, marked: it counts as a save.
 */
export function recordPublicCardView(
  organizationId: string,
  cardId: string,
  clientIp: string,
  userAgent: string,
  source: ViewSource = 'direct',
) {
  // A cached vCard's hit is a save, not a view (ADR 082).
  if (cardId.startsWith(VCARD_SAVE_MARK)) {
    countCachedVcardSave(
      organizationId,
      cardId.slice(VCARD_SAVE_MARK.length),
      clientIp,
      userAgent,
      source,
    )
    return
  }
  if (isBotUserAgent(userAgent)) return
  queueCardView({
    organizationId,
    cardId,
    visitorHash: visitorHash(clientIp, userAgent, cardId),
    deviceClass: deviceClassOf(userAgent),
    source,
  })
}

/** What the card page's answers vary by besides the URL (ADR 105). */
const VARY_LANGUAGE = 'Accept-Language'

/**
 * The slug a short link should be at instead: the card's current one, when the link carries a
 * retired slug (any case of the current one is the same link: QR codes carry it in capitals).
 */
function movedSlug(reference: CardReference, shortSlug: string | null) {
  if (!('slug' in reference) || !shortSlug) return null
  return reference.slug.toLowerCase() === shortSlug ? null : shortSlug
}

/** The public card page, by a `/card/` link's reference or a short link's slug (ADR 041). */
export async function publicCardLoader(
  request: Request,
  context: AppLoadContext,
  reference: CardReference,
) {
  const tenant = await requireTenant(context)
  const viewer = await cardViewerOf(request, context)
  const userAgent = request.headers.get('User-Agent') ?? ''
  const countable = !isBotUserAgent(userAgent)
  // The view this request counts, once the card is known (none for a bot, the owner, a page
  // the server may cache: the server records those, for this request and every hit).
  const counting: { view?: Parameters<typeof queueCardView>[0]; started?: boolean } = {}
  // One transaction for the lookup and the view: the hot path pays for one round of BEGIN/COMMIT.
  const readCard = (recordView: boolean) =>
    withTenant(tenant.id, async (tx) => {
      // A card hidden from this visitor is not found (and its view is not counted).
      const opened = await openCardPage(tx, tenant.id, reference, viewer)
      if (!opened || 'forwarding' in opened) return opened
      const shown = opened.card
      // The lead form's consent box (ADR 050): a new version drops the cached page (its trigger).
      const consent = shown.isOwner ? null : await currentConsentText(tx, tenant.id)
      // A signed-in visitor already in the owner's contacts has connected: the button says so.
      const connected =
        viewer && !shown.isOwner
          ? Boolean(await findContactByEmail(tx, tenant.id, shown.card.userId, viewer.email))
          : false
      const answered = { ...opened, card: { ...shown, consent, connected } }
      // A retired short link only redirects: the view is counted where it lands.
      if (movedSlug(reference, shown.shortSlug)) return answered
      // A profile standing in for a card has no card row to count views of.
      if (shown.cardId && countable && !shown.isOwner && !context.pageCacheCandidate) {
        const view = {
          organizationId: tenant.id,
          cardId: shown.cardId,
          visitorHash: visitorHash(context.clientIp ?? 'unknown', userAgent, shown.cardId),
          deviceClass: deviceClassOf(userAgent),
          source: sourceOfRequest(request, context),
        }
        counting.view = view
        if (recordView) {
          counting.started = true
          const { cardId, visitorHash: hash, deviceClass, source } = view
          await recordCardView(tx, tenant.id, cardId, hash, deviceClass, source)
        }
      }
      return answered
    })
  // Counting the view must never cost the visitor the page (issue 39 point 4: a full disk
  // answered 500 with 53100 "could not extend file"). Short of disk space the view is not
  // written here but waits in the batch writer, as the cached pages' views do (ADR 033). When
  // the view's insert or the commit after it fails (the page's reads were done), the page is
  // read again without it and the view goes to the batch writer, which writes it once the
  // database takes writes again. A database that cannot be reached is no view's fault: that
  // answer stands.
  const paused = await writesPausedForDiskSpace()
  const answer = await readCard(!paused).catch(async (error: unknown) => {
    const { view, started } = counting
    if (!view || !started || isOutage(error)) throw error
    const read = await readCard(false)
    queueCardView(view)
    return read
  })
  if (paused && counting.view) queueCardView(counting.view)
  if (!answer) {
    return data(
      { found: false as const, forwarding: null },
      { status: 404, headers: { Vary: VARY_LANGUAGE } },
    )
  }
  if ('forwarding' in answer) return forwardedPage(request, context, answer.forwarding)
  const row = answer.card
  const moved = movedSlug(reference, row.shortSlug)
  // Permanent, but revalidated: the slug may come back to this card, or go to another one later.
  if (moved)
    // The view is counted where it lands, with the source of the link that led here.
    throw redirect(withSource(shortLinkPath(moved), sourceOfRequest(request, context)), {
      status: 301,
      headers: { 'Cache-Control': 'no-cache' },
    })
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
      extras: withTapPaths(toCardExtras(row), row.cardId, row.links),
      // The short link: og:url and the canonical link name it (ADR 041).
      cardUrl: cardLinkUrl(origin, row),
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
      connected: row.connected,
      // The version the lead form shows and posts back, so the lead records the words it saw.
      consent: row.consent ? { id: row.consent.id, body: row.consent.body } : null,
      // Passing the card on and keeping it (issue 41 point 6): its QR code, and the wallets.
      qrUrl: `/card/${card.id}/qr.svg`,
      wallet: walletOffersOnCardPage(card, row.isPublic),
    },
    {
      headers: {
        // Edits show at once: browsers revalidate every time (a 304 while unchanged). A card
        // shown only to some people is theirs: no shared cache may keep it.
        'Cache-Control': row.isPublic ? 'no-cache' : 'private, no-cache',
        // The page speaks the browser's language (ADR 105): a shared cache keys on it too.
        Vary: VARY_LANGUAGE,
        ...(row.isPublic ? pageCacheHeaders(context, tenant.id, { viewOf: row.cardId }) : {}),
      },
    },
  )
}

/** The page's web links through the tap counter (ADR 082); a profile without a card has none. */
function withTapPaths(
  extras: ReturnType<typeof toCardExtras>,
  cardId: string | null,
  links: { id?: string; url: string }[],
) {
  if (!cardId) return extras
  return {
    ...extras,
    links: extras.links.map((link, index) => ({
      ...link,
      tapPath: linkTapPath(cardId, links[index] ?? link),
    })),
  }
}

/**
 * A departed person's card page (ADR 049): a redirect to the successor's card or the agency's
 * contact page, or the agency's message. Never a 200, so the page cache keeps none of it, and
 * revalidated every time: the person may come back, or the agency choose otherwise.
 */
function forwardedPage(request: Request, context: AppLoadContext, forwarding: Forwarding) {
  const headers = { 'Cache-Control': 'no-cache', Vary: VARY_LANGUAGE }
  if (forwarding.kind === 'message') {
    return data(
      { found: false as const, forwarding: { message: forwarding.message } },
      // Gone: the card was here and is no more (and a crawler drops it).
      { status: 410, headers },
    )
  }
  // The successor's view is counted where it lands, with the source of the link that led here.
  const to =
    forwarding.kind === 'successor'
      ? withSource(forwarding.path, sourceOfRequest(request, context))
      : forwarding.url
  throw redirect(to, { status: 302, headers })
}

export async function publicCardAction(
  request: Request,
  context: AppLoadContext,
  reference: CardReference,
) {
  // The replies in the visitor's language (ADR 105), as the page that sent the form.
  const tenantLanguages = (await requireTenant(context)).languages
  const language = languageOfRequest(request, tenantLanguages)
  const t = translator(language)
  const translate = (message: string) => translateEnglish(message, t)
  return intentAction(request, {
    translate,
    guard: async () => {
      const { tenant, user } = await getOptionalUser(request, context)
      // The lead form too: a card hidden from this visitor, or whose owner is inactive, takes none.
      const found = await withTenant(tenant.id, async (tx) => {
        const row = await openCard(tx, tenant.id, reference, user)
        // The consent the lead form must carry (ADR 050), read in the same transaction.
        return row && { row, consent: await currentConsentText(tx, tenant.id) }
      })
      if (!found) throw new Response('Not Found', { status: 404 })
      const { row, consent } = found
      return { tenant, user, card: row.card, sourceCardId: row.cardId, consent }
    },
    schema: CardIntentSchema,
    // Nothing leaves the card page: every answer is a fetcher's, said in place.
    redirectTo: request.url,
    // The page's buttons toast `message` (`ok` says which kind); card-visitor.js reads the same.
    refused: (refusal) => ({ message: translate(refusal.message), ok: false }),
    intents: {
      lead: async (value, { tenant, card, sourceCardId, consent: current }) => {
        const thanks = {
          reply: { message: t('lead.thanks', { firstName: card.firstName }), ok: true },
          result: { resetForm: true },
        }
        // Honeypot: people leave the hidden "website" field empty; bots fill it. Answer as if done.
        if (value.website) return thanks
        // Refused next to the box before anything is counted or written (ADR 050).
        const consent = await consentOfLead(
          tenant.id,
          current,
          value,
          new URL(request.url).pathname,
        )
        const limits = [
          {
            name: 'leadIp' as const,
            key: addressLimitKey('leadIp', context.clientIp ?? 'unknown'),
          },
        ]
        await assertNotLimited(limits)
        await recordHits(limits)
        // The owner's notification past the send limits (a rate_limited Refusal, 429): the lead is
        // not kept either (it rolls back with it), and the visitor is told to come back.
        const created = await withTenant(tenant.id, async (tx) => {
          const added = await addContactAndForward(tx, tenant.id, card.userId, {
            fullName: value.fullName,
            email: value.email,
            phoneNumber: value.phoneNumber,
            company: value.company,
            note: value.note,
            source: 'lead',
            sourceCardId,
            ...consent?.stored,
          })
          // A lead already in the list is not news: only a new contact is emailed about, and
          // the email is queued with the contact, so one is never saved without the other.
          if (added.status === 'created') {
            await queueNewContactEmailIn(tx, tenant, {
              kind: 'lead',
              ownerId: card.userId,
              contact: { fullName: value.fullName, email: value.email, company: value.company },
              cause: { clientIp: context.clientIp ?? 'unknown' },
            })
            // The lead's own receipt, with the way to see or delete what is kept of them.
            if (consent) {
              await queueLeadReceiptIn(tx, tenant, {
                to: value.email,
                leadName: value.fullName,
                ownerName: `${card.firstName} ${card.lastName}`.trim(),
                consent,
                language,
                cause: { clientIp: context.clientIp ?? 'unknown' },
              })
            }
          }
          return added.status === 'created'
        })
        // An exchange is a new contact, counted once kept (ADR 082): a refused or rolled-back
        // lead is none, and sending the form again with the same address is not another.
        if (created && sourceCardId) {
          countCardEvent(request, context, {
            organizationId: tenant.id,
            cardId: sourceCardId,
            kind: 'lead',
            isOwner: false,
          })
        }
        return thanks
      },
      // "Keep me updated" (ADR 102): the same answer whether or not the address follows already.
      follow: async (value, { tenant, card, sourceCardId }) => {
        const asked = {
          reply: { message: t('follow.asked', { firstName: card.firstName }), ok: true },
          result: { resetForm: true },
        }
        // A page drawn from a profile without a stored card has nothing to follow.
        if (value.website || !sourceCardId) return asked
        // Past the send limits (per client address, per recipient, per tenant): a rate_limited
        // Refusal, nothing kept; one address cannot be flooded with confirmations.
        await withTenant(tenant.id, (tx) =>
          askToFollowIn(
            tx,
            tenant,
            { ...card, id: sourceCardId },
            value.email,
            { clientIp: context.clientIp ?? 'unknown' },
            language,
          ),
        )
        return asked
      },
      save: async (_value, { tenant, user, card, sourceCardId }) => {
        if (!user) throw signInFirst(card.id, 'save')
        const saved = await withTenant(tenant.id, (tx) =>
          addContactAndForward(tx, tenant.id, user.id, {
            ...contactOfCard(card),
            source: 'saved',
            sourceCardId,
          }),
        )
        if (saved.status === 'duplicate') {
          throw new Refusal('conflict', 'This contact is already in your list')
        }
        return { reply: { message: t('reply.saved'), ok: true } }
      },
      // Connect: each side gets the other as a contact, once.
      connect: async (_value, { tenant, user, card, sourceCardId }) => {
        if (!user) throw signInFirst(card.id, 'connect')
        if (user.id === card.userId) throw new Refusal('invalid', 'Failed to connect with contact')
        const visitorName = `${user.firstName} ${user.lastName}`.trim() || 'Unknown User'
        // Past the send limits (the owner's email): a rate_limited Refusal, 429, nothing kept.
        const created = await withTenant(tenant.id, async (tx) => {
          const added = await addContactAndForward(tx, tenant.id, card.userId, {
            fullName: visitorName,
            email: user.email,
            source: 'connect',
            sourceCardId,
          })
          await addContactAndForward(tx, tenant.id, user.id, {
            ...contactOfCard(card),
            source: 'connect',
            sourceCardId,
          })
          // Connecting again (already in the owner's list) sends nothing: one email per new
          // contact.
          if (added.status === 'created') {
            await queueNewContactEmailIn(tx, tenant, {
              kind: 'connect',
              ownerId: card.userId,
              contact: { fullName: visitorName, email: user.email },
              cause: { userId: user.id },
            })
          }
          return added.status === 'created'
        })
        // An exchange is a new contact, counted once kept: connecting again is not another.
        if (created && sourceCardId) {
          countCardEvent(request, context, {
            organizationId: tenant.id,
            cardId: sourceCardId,
            kind: 'connect',
            isOwner: false,
          })
        }
        return {
          reply: { message: t('reply.connected', { firstName: card.firstName }), ok: true },
        }
      },
    },
  })
}

/** The sign-in page says why it was needed (spec §8) and connecting resumes after it. */
/** The card's owner as a contact of the visitor who saves or connects with the card. */
function contactOfCard(
  card: Pick<
    DigitalCard,
    'firstName' | 'lastName' | 'email' | 'workEmail' | 'phoneNumber' | 'company' | 'jobTitle'
  >,
) {
  return {
    fullName: `${card.firstName} ${card.lastName}`.trim(),
    email: card.email || card.workEmail,
    phoneNumber: card.phoneNumber,
    company: card.company,
    jobTitle: card.jobTitle,
  }
}

function signInFirst(cardId: string, intent: 'connect' | 'save') {
  const back = `/card/${cardId}?${intent === 'connect' ? 'connect=1' : 'save=1'}`
  return redirect(`/auth/login?${new URLSearchParams({ redirectTo: back })}`)
}
