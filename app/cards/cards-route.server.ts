// The digital cards list and editor, shared by the end-user and team-member areas.
import { type AppLoadContext, redirect } from '@remix-run/node'
import { z } from 'zod'
import { intentAction } from '#app/actions/intent-action.server'
import { getOptionalUser, requireRole, type SignedIn } from '#app/auth/guards.server'
import { setCardArchived } from '#app/cards/card-archive.server'
import { toCardExtras } from '#app/cards/card-extras.server'
import { type CardArea, cardEditPath, cardsListPath } from '#app/cards/card-paths'
import { toCardView } from '#app/cards/card-view.server'
import { resolveImageField } from '#app/media/uploads.server'
import { recordCardAudit } from '#app/models/audit.server'
import { countFollowers } from '#app/models/card-followers.server'
import { changeCardSlug } from '#app/models/card-slugs.server'
import {
  cardFieldsFromProfile,
  deleteCard,
  getCardForOwner,
  listCardsForOwner,
  setDefaultCard,
} from '#app/models/cards.server'
import { countCardViewsBySource } from '#app/models/stats.server'
import {
  createCardUnderTemplate,
  directoryHeldValues,
  lockedFieldsOfCard,
  writeCardUnderTemplate,
} from '#app/templates/template-locks.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { Refusal } from '#app/utils/action-error'
import { redirectWithToast } from '#app/utils/toast.server'
import { BackgroundSchema } from '#app/validation/card-background'
import { CardSlugSchema, SLUG_MESSAGES } from '#app/validation/card-slug'
import { keptMessage, lockedMessage } from '#app/validation/card-templates'
import { parseVideoUrl } from '#app/validation/card-video'
import { CardsListIntentSchema } from '#app/validation/cards-list'
import { CardDetailsSchema } from '#app/validation/profile'
import { CARD_AREA_ROLES } from '#app/validation/roles'
import { DIRECTORY_HELD_MESSAGE } from '#app/validation/scim'
import { type Transaction, withTenant } from '#drizzle/db.server'

export async function cardsListLoader(request: Request, context: AppLoadContext, area: CardArea) {
  const { tenant, user } = await requireRole(request, context, CARD_AREA_ROLES[area])
  const { rows, views, followers } = await withTenant(tenant.id, async (tx) => {
    const rows = await listCardsForOwner(tx, tenant.id, user.id)
    return {
      rows,
      // Each card's own views of the last 14 days by source (ADR 039).
      views: await countCardViewsBySource(tx, tenant.id, user.id, new Date()),
      // How many confirmed followers each card has (ADR 102).
      followers: await countFollowers(
        tx,
        tenant.id,
        rows.map((row) => row.card.id),
      ),
    }
  })
  const viewsOf = new Map(views.map((entry) => [entry.cardId, entry]))
  return {
    cards: rows.map((row) => ({
      ...toCardView(row),
      archivedAt: row.card.archivedAt?.toISOString() ?? null,
      views: viewsOf.get(row.card.id) ?? { views: 0, sources: {} },
      followers: followers.get(row.card.id) ?? 0,
    })),
    origin: tenantOrigin(tenant),
    area,
  }
}

/**
 * Creating a card while signed out (a session that ended while the list was open): sign in,
 * then continue in the card wizard, with the spec's 'You must be logged in to create a digital card'.
 */
async function requireSignInToCreate(request: Request, context: AppLoadContext) {
  const { user } = await getOptionalUser(request, context)
  if (user) return
  const intent = (await request.clone().formData()).get('intent')
  if (intent !== 'create') return
  const redirectTo = '/onboarding?mode=card&step=1'
  throw redirect(`/auth/login?${new URLSearchParams({ redirectTo })}`)
}

/**
 * One change to one of the user's own cards, audited when it was made. Another user's card is
 * not found, as an unknown one (a crafted post: the page's buttons name the user's own cards).
 */
async function changeOwnCard(
  { tenant, user }: Pick<SignedIn, 'tenant' | 'user'>,
  cardId: string,
  action: string,
  change: (
    tx: Transaction,
    organizationId: string,
    userId: string,
    cardId: string,
  ) => Promise<boolean>,
) {
  const done = await withTenant(tenant.id, async (tx) => {
    const ok = await change(tx, tenant.id, user.id, cardId)
    if (ok) await recordCardAudit(tx, tenant.id, user.id, cardId, action)
    return ok
  })
  if (!done) throw new Response('Not Found', { status: 404 })
}

export async function cardsListAction(request: Request, context: AppLoadContext, area: CardArea) {
  const list = cardsListPath(area)
  return intentAction(request, {
    guard: async () => {
      await requireSignInToCreate(request, context)
      return requireRole(request, context, CARD_AREA_ROLES[area])
    },
    schema: CardsListIntentSchema,
    redirectTo: list,
    intents: {
      create: async (value, { tenant, user }) => {
        if (value.method === 'new') {
          const params = new URLSearchParams({ mode: 'card', step: '1' })
          if (value.title) params.set('title', value.title)
          return { redirectTo: `/onboarding?${params}` }
        }
        // Spec §5: duplicating needs a first and last name and an email in the profile.
        if (!user.firstName.trim() || !user.lastName.trim()) {
          throw new Refusal('invalid', 'Profile must have a first and last name')
        }
        if (!user.email.trim()) throw new Refusal('invalid', 'Profile must have an email address')
        const card = await withTenant(tenant.id, async (tx) => {
          const created = await createCardUnderTemplate(tx, tenant.id, user.id, {
            title: value.title,
            ...cardFieldsFromProfile(user),
          })
          await recordCardAudit(tx, tenant.id, user.id, created.id, 'card.created')
          return created
        })
        return { toast: 'Digital card created successfully', redirectTo: `/qrcode/${card.id}` }
      },
      'set-default': async ({ cardId }, signedIn) => {
        // Spec §3 audit events: a default-card change shows on the Activity tab.
        await changeOwnCard(signedIn, cardId, 'card.default_set', setDefaultCard)
        return 'Default card updated'
      },
      delete: async ({ cardId }, signedIn) => {
        await changeOwnCard(signedIn, cardId, 'card.deleted', deleteCard)
        return 'Card deleted successfully'
      },
      archive: async ({ cardId }, signedIn) => {
        await changeOwnCard(signedIn, cardId, 'card.archived', async (tx, org, userId, id) =>
          Boolean(await setCardArchived(tx, org, userId, id, true)),
        )
        return 'Card archived: its link and QR code show nothing until you restore it'
      },
      restore: async ({ cardId }, signedIn) => {
        await changeOwnCard(signedIn, cardId, 'card.restored', async (tx, org, userId, id) =>
          Boolean(await setCardArchived(tx, org, userId, id, false)),
        )
        return 'Card restored'
      },
    },
  })
}

export const EDIT_STEPS = ['details', 'visuals', 'review'] as const
export type EditStep = (typeof EDIT_STEPS)[number]

async function requireOwnCard(
  request: Request,
  context: AppLoadContext,
  area: CardArea,
  cardId: string,
) {
  const signedIn = await requireRole(request, context, CARD_AREA_ROLES[area])
  const { tenant, user } = signedIn
  const row = await withTenant(tenant.id, (tx) => getCardForOwner(tx, tenant.id, user.id, cardId))
  // Unknown, another user's, or another tenant's card: the same answer (spec §2.8).
  if (!row) {
    throw await redirectWithToast(cardsListPath(area), {
      type: 'error',
      title: 'Digital card not found',
    })
  }
  return { ...signedIn, row }
}

export async function cardEditLoader(
  request: Request,
  context: AppLoadContext,
  area: CardArea,
  cardId: string,
) {
  const { tenant, row } = await requireOwnCard(request, context, area, cardId)
  // The template's locked fields are shown read only (the action keeps them whatever is sent).
  // So are the fields the agency's directory holds for the owner (issue 42 point 3).
  const { locked, directory } = await withTenant(tenant.id, async (tx) => ({
    locked: await lockedFieldsOfCard(tx, tenant.id, row.card.id),
    directory: (await directoryHeldValues(tx, tenant.id, row.card.userId)).fields,
  }))
  const stepParam = new URL(request.url).searchParams.get('step')
  const step: EditStep = EDIT_STEPS.includes(stepParam as EditStep)
    ? (stepParam as EditStep)
    : 'details'
  return {
    card: { ...toCardView(row), ...toCardExtras(row) },
    step,
    area,
    locked,
    directory,
    archivedAt: row.card.archivedAt?.toISOString() ?? null,
    // The short link's form: the slug, and the origin it is shown after (ADR 041).
    shortLink: { slug: row.shortSlug ?? '', origin: tenantOrigin(tenant) },
  }
}

const EditIntentSchema = z.discriminatedUnion('intent', [
  CardDetailsSchema.extend({ intent: z.literal('details') }),
  z.object({ intent: z.literal('visuals') }),
  z.object({
    intent: z.literal('background'),
    kind: z.enum(['color', 'gradient', 'image']),
    value: z.string().max(64).optional(),
  }),
  CardSlugSchema.extend({ intent: z.literal('short-link') }),
])

export async function cardEditAction(
  request: Request,
  context: AppLoadContext,
  area: CardArea,
  cardId: string,
) {
  const editUrl = (step: EditStep) => cardEditPath(area, cardId, step)
  return intentAction(request, {
    guard: () => requireOwnCard(request, context, area, cardId),
    schema: EditIntentSchema,
    // An image too large to read is refused next to its field (the input is `logoFile`).
    multipart: { uploadField: (field) => field.replace(/File$/, '') },
    redirectTo: cardsListPath(area),
    intents: {
      details: async ({ intent, links, videoUrl, ...fields }, { tenant, user }) => {
        // The video is kept as its provider and id, never the address typed (ADR 083).
        const video = parseVideoUrl(videoUrl)
        // The card's fields and its links change together, or not at all, under the card's
        // template: a locked field keeps the template's value whatever was sent (ADR 048).
        // Save is the one step that publishes (ADR 076): the update is audited with it.
        const written = await withTenant(tenant.id, async (tx) => {
          const result = await writeCardUnderTemplate(tx, tenant.id, user.id, cardId, {
            fields: {
              ...fields,
              videoProvider: video?.provider ?? null,
              videoId: video?.id ?? null,
            },
            links,
          })
          if (result) await recordCardAudit(tx, tenant.id, user.id, cardId, 'card.updated')
          return result
        })
        if (written?.kept.length || written?.heldByDirectory.length) {
          return {
            toast: 'Locked fields kept',
            description: [
              written.kept.length ? keptMessage(written.kept) : '',
              written.heldByDirectory.length ? DIRECTORY_HELD_MESSAGE : '',
            ]
              .filter(Boolean)
              .join(' '),
            type: 'info',
            redirectTo: editUrl('details'),
          }
        }
        return { toast: 'Card updated successfully', redirectTo: editUrl('details') }
      },
      visuals: async (_value, { tenant, user }, formData) => {
        // One transaction: a refused second image (an image Refusal, the reply next to its field)
        // leaves the first one unstored.
        const written = await withTenant(tenant.id, async (tx) => {
          const logo = await resolveImageField({ tenant, user }, formData, 'logo', 'logo', tx)
          const picture = await resolveImageField(
            { tenant, user },
            formData,
            'profilePicture',
            'profilePicture',
            tx,
          )
          const cover = await resolveImageField({ tenant, user }, formData, 'cover', 'cover', tx)
          const result = await writeCardUnderTemplate(tx, tenant.id, user.id, cardId, {
            fields: {
              ...(logo !== undefined ? { logoMediaId: logo } : {}),
              ...(picture !== undefined ? { profilePictureMediaId: picture } : {}),
              ...(cover !== undefined ? { coverMediaId: cover } : {}),
            },
          })
          if (result) await recordCardAudit(tx, tenant.id, user.id, cardId, 'card.updated')
          return result
        })
        if (written?.kept.length) {
          return {
            toast: 'Changes saved',
            description: keptMessage(written.kept),
            type: 'info',
            redirectTo: editUrl('visuals'),
          }
        }
        return { toast: 'Changes saved', redirectTo: editUrl('visuals') }
      },
      background: async (value, { tenant, user }, formData) => {
        // An image background is the media the image field resolves to (this organization's
        // own, checked there); no other field names it.
        const mediaId =
          value.kind === 'image'
            ? await resolveImageField({ tenant, user }, formData, 'background', 'background').catch(
                () => null,
              )
            : undefined
        const background = BackgroundSchema.safeParse(
          value.kind === 'image'
            ? { kind: 'image', mediaId }
            : { kind: value.kind, value: value.value },
        )
        if (!background.success) {
          throw new Refusal('invalid', 'Failed to save background changes', { field: 'background' })
        }
        await withTenant(tenant.id, async (tx) => {
          const written = await writeCardUnderTemplate(tx, tenant.id, user.id, cardId, {
            background: background.data,
          })
          if (!written) return
          // A locked background is refused here (the picker is not offered for it), and the
          // transaction rolls back the write that kept it.
          if (written.kept.includes('background')) {
            throw new Refusal('conflict', lockedMessage('background'), { field: 'background' })
          }
          await recordCardAudit(tx, tenant.id, user.id, cardId, 'card.background_set', {
            kind: background.data.kind,
          })
        })
        // The picker posts with a fetcher: it answers in place, no redirect.
        return { reply: { applied: background.data.kind } }
      },
      // The short link's own form posts with a fetcher: it answers in place (ADR 041).
      'short-link': async ({ slug }, { tenant, user }) => {
        const change = await withTenant(tenant.id, async (tx) => {
          const result = await changeCardSlug(tx, tenant.id, cardId, slug)
          // Another card's slug, current or retired: refused, and the retirement rolls back.
          if (result === 'taken')
            throw new Refusal('conflict', SLUG_MESSAGES.taken, { field: 'slug' })
          // A departed account's, in quarantine: it keeps forwarding to the agency's choice.
          if (result === 'held')
            throw new Refusal('conflict', SLUG_MESSAGES.held, { field: 'slug' })
          if (result === 'changed') {
            await recordCardAudit(tx, tenant.id, user.id, cardId, 'card.short_link_set', { slug })
          }
          return result
        })
        return { reply: { slug, changed: change === 'changed' } }
      },
    },
  })
}
