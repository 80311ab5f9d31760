// Cards through the REST API (ADR 092): list, read, create, update, archive, restore and delete,
// every write through the template rule module (app/templates/template-locks.server.ts) as the
// editor's and the archive through the owner's own function (ADR 095); and a card's views, saves
// and exchanges per day and source from the analytics rollups.
import { setCardArchived } from '#app/cards/card-archive.server'
import { cardForAgencyApi } from '#app/cards/card-gate.server'
import { countCardActivityPerDay } from '#app/models/card-events.server'
import {
  type DigitalCard,
  deleteCard,
  findOrganizationCard,
  listOrganizationCards,
} from '#app/models/cards.server'
import {
  createCardUnderTemplate,
  writeCardUnderTemplate,
} from '#app/templates/template-locks.server'
import {
  AnalyticsQuery,
  AnalyticsSchema,
  CardCreateSchema,
  CardIdParams,
  CardListQuery,
  CardPageSchema,
  CardSchema,
  CardUpdateSchema,
  CardWrittenSchema,
} from '#app/validation/api'
import {
  type ApiCall,
  answerPage,
  auditApiWrite,
  iso,
  notFound,
  requireOwner,
  route,
  timestamps,
} from './api-call.server'
import { ApiProblem } from './problem'

const DAY_MS = 86_400_000
const MAX_ANALYTICS_DAYS = 366

/** A card as the API answers it: through the gate, so what its owner hides stays hidden. */
async function answerCard(call: ApiCall, card: DigitalCard) {
  return toApiCard(await cardForAgencyApi(call.tx, call.tenant.id, card))
}

function toApiCard(card: DigitalCard) {
  return {
    id: card.id,
    owner_id: card.userId,
    title: card.title,
    first_name: card.firstName,
    last_name: card.lastName,
    email: card.email,
    phone_number: card.phoneNumber,
    company: card.company,
    job_title: card.jobTitle,
    department: card.department,
    website: card.website,
    bio: card.bio,
    is_default: card.isDefault,
    template_id: card.templateId,
    archived_at: iso(card.archivedAt),
    ...timestamps(card),
  }
}

/** The API's snake_case fields as the card's columns (only those sent). */
function cardColumns(body: Record<string, string | undefined>) {
  const names = {
    title: 'title',
    first_name: 'firstName',
    last_name: 'lastName',
    email: 'email',
    phone_number: 'phoneNumber',
    company: 'company',
    job_title: 'jobTitle',
    department: 'department',
    website: 'website',
    bio: 'bio',
  } as const
  const out: Partial<Record<(typeof names)[keyof typeof names], string>> = {}
  for (const [field, column] of Object.entries(names)) {
    const value = body[field]
    if (value !== undefined) out[column] = value
  }
  return out
}

async function requireCard(call: ApiCall, cardId: string) {
  const card = await findOrganizationCard(call.tx, call.tenant.id, cardId)
  if (!card) throw notFound('card')
  return card
}

export const CARD_ROUTES = [
  route({
    method: 'GET',
    path: '/cards',
    operationId: 'listCards',
    summary: "List the agency's cards, oldest change first",
    tag: 'Cards',
    scope: 'cards:read',
    query: CardListQuery,
    success: { status: 200, description: 'A page of cards', schema: CardPageSchema },
    handle: (call, { query }) => {
      const archived = query.archived === undefined ? undefined : query.archived === 'true'
      return answerPage(
        query,
        (page) => listOrganizationCards(call.tx, call.tenant.id, page, archived),
        (card) => answerCard(call, card),
      )
    },
  }),
  route({
    method: 'GET',
    path: '/cards/{cardId}',
    operationId: 'getCard',
    summary: 'Read a card',
    tag: 'Cards',
    scope: 'cards:read',
    params: CardIdParams,
    success: { status: 200, description: 'The card', schema: CardSchema },
    handle: async (call, { params }) => ({
      status: 200,
      body: await answerCard(call, await requireCard(call, params.cardId)),
    }),
  }),
  route({
    method: 'POST',
    path: '/cards',
    operationId: 'createCard',
    summary: 'Create a card for a user, under the template that applies to them',
    tag: 'Cards',
    scope: 'cards:write',
    body: CardCreateSchema,
    create: true,
    success: { status: 201, description: 'The card made', schema: CardWrittenSchema },
    handle: async (call, { body }) => {
      const owner = await requireOwner(call, body.owner_id)
      const { title, firstName, lastName, ...rest } = cardColumns(body)
      const card = await createCardUnderTemplate(call.tx, call.tenant.id, owner.id, {
        ...rest,
        title: title ?? `${body.first_name.trim()}'s Card`,
        firstName: firstName ?? '',
        lastName: lastName ?? '',
      })
      await auditApiWrite(call, 'card.created', 'digital_card', card.id, { ownerId: owner.id })
      return { status: 201, body: { card: await answerCard(call, card), locked_fields_kept: [] } }
    },
  }),
  route({
    method: 'PATCH',
    path: '/cards/{cardId}',
    operationId: 'updateCard',
    summary: "Change a card's fields; the fields its template locks keep the template's values",
    tag: 'Cards',
    scope: 'cards:write',
    params: CardIdParams,
    body: CardUpdateSchema,
    success: { status: 200, description: 'The card after the change', schema: CardWrittenSchema },
    handle: async (call, { params, body }) => {
      const card = await requireCard(call, params.cardId)
      const written = await writeCardUnderTemplate(call.tx, call.tenant.id, card.userId, card.id, {
        fields: cardColumns(body),
      })
      if (!written) throw notFound('card')
      await auditApiWrite(call, 'card.updated', 'digital_card', card.id, {
        fields: Object.keys(body),
        ...(written.kept.length ? { kept: written.kept } : {}),
      })
      return {
        status: 200,
        body: {
          card: await answerCard(call, written.card),
          locked_fields_kept: [...written.kept, ...written.heldByDirectory],
        },
      }
    },
  }),
  ...(['archive', 'restore'] as const).map((change) =>
    route({
      method: 'POST',
      path: `/cards/{cardId}/${change}`,
      operationId: `${change}Card`,
      summary:
        change === 'archive'
          ? 'Archive a card: its link, QR code, NFC tags and passes show nothing until restored; a default card hands the default to the oldest live card'
          : 'Restore an archived card; it becomes the default when its owner has no other',
      tag: 'Cards',
      scope: 'cards:write',
      params: CardIdParams,
      success: { status: 200, description: 'The card after the change', schema: CardSchema },
      handle: async (call, { params }) => {
        const card = await requireCard(call, params.cardId)
        const archived = change === 'archive'
        const written = await setCardArchived(
          call.tx,
          call.tenant.id,
          card.userId,
          card.id,
          archived,
        )
        if (!written) throw notFound('card')
        await auditApiWrite(
          call,
          archived ? 'card.archived' : 'card.restored',
          'digital_card',
          card.id,
          { ownerId: card.userId },
        )
        return { status: 200, body: await answerCard(call, written) }
      },
    }),
  ),
  route({
    method: 'DELETE',
    path: '/cards/{cardId}',
    operationId: 'deleteCard',
    summary: "Delete a card (the owner's oldest other card becomes the default)",
    tag: 'Cards',
    scope: 'cards:write',
    params: CardIdParams,
    success: { status: 204, description: 'Deleted' },
    handle: async (call, { params }) => {
      const card = await requireCard(call, params.cardId)
      if (!(await deleteCard(call.tx, call.tenant.id, card.userId, card.id))) throw notFound('card')
      await auditApiWrite(call, 'card.deleted', 'digital_card', card.id, { ownerId: card.userId })
      return { status: 204 }
    },
  }),
  route({
    method: 'GET',
    path: '/cards/{cardId}/analytics',
    operationId: 'getCardAnalytics',
    summary: "A card's views, saves, exchanges and link taps per UTC day and source",
    tag: 'Cards',
    scope: 'cards:read',
    params: CardIdParams,
    query: AnalyticsQuery,
    success: { status: 200, description: 'Counts per day', schema: AnalyticsSchema },
    handle: async (call, { params, query }) => {
      const card = await requireCard(call, params.cardId)
      const today = new Date().toISOString().slice(0, 10)
      const to = query.to ?? today
      const from = query.from ?? new Date(Date.parse(to) - 29 * DAY_MS).toISOString().slice(0, 10)
      const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1
      if (days < 1 || days > MAX_ANALYTICS_DAYS) {
        throw new ApiProblem(
          400,
          `from must be on or before to, at most ${MAX_ANALYTICS_DAYS} days`,
        )
      }
      const rows = await countCardActivityPerDay(
        call.tx,
        call.tenant.id,
        card.id,
        new Date(`${from}T00:00:00Z`),
        new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS),
      )
      return { status: 200, body: { card_id: card.id, from, to, days: rows } }
    },
  }),
]
