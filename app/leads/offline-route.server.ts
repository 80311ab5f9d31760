// "My cards offline" (issue 45 point 4, ADR 104): the page the service worker keeps for its
// owner (each card's QR code and vCard), and the endpoint the page's queue sends leads captured
// without a network to. A lead carries the key its browser made when it was captured: the first
// arrival adds the contact and keeps its answer under the key, a resend (the answer lost on a
// flaky network, two tabs sending at once) gets the same answer and adds nothing.
import { createHash } from 'node:crypto'
import type { AppLoadContext } from '@remix-run/node'
import { formAction } from '#app/actions/intent-action.server'
import { requireUser } from '#app/auth/guards.server'
import { addContactAndForward } from '#app/crm/forwarding.server'
import {
  deleteIdempotentAnswersBefore,
  findIdempotentAnswer,
  IDEMPOTENT_ANSWER_KEPT_MS,
  saveIdempotentAnswer,
} from '#app/models/api-keys.server'
import { listCardsForOwner } from '#app/models/cards.server'
import { Refusal } from '#app/utils/action-error'
import {
  LEAD_ALREADY_IN_CONTACTS,
  LEAD_KEY_REUSED,
  LEAD_SEND_IN_PROGRESS,
  LEAD_SENT,
  OfflineLeadSchema,
} from '#app/validation/offline-lead'
import { withTenant } from '#drizzle/db.server'

export const OFFLINE_PATH = '/offline'
export const OFFLINE_LEADS_PATH = '/offline/leads'

export async function offlineLoader(request: Request, context: AppLoadContext) {
  const { tenant, user } = await requireUser(request, context)
  const rows = await withTenant(tenant.id, (tx) => listCardsForOwner(tx, tenant.id, user.id))
  return {
    // The cards a recipient can still be shown: an archived card's page is gone (ADR 095).
    cards: rows
      .filter((row) => !row.card.archivedAt)
      .map(({ card }) => ({
        id: card.id,
        title: card.title,
        name: `${card.firstName} ${card.lastName}`.trim(),
        qrUrl: `/card/${card.id}/qr.svg`,
        vcardUrl: `/card/${card.id}/vcard`,
      })),
  }
}

/** What the endpoint answers for a lead that arrived (now or the first time it was sent). */
export type OfflineLeadAnswer = {
  status: 'created' | 'duplicate'
  message: string
  replayed: boolean
}

/** A JSON answer from the helper's reply (the queue reads JSON, not a page's single fetch). */
function asJson(answer: Awaited<ReturnType<typeof formAction>>) {
  if (!('data' in answer)) return answer
  return Response.json(answer.data, answer.init ?? undefined)
}

export async function offlineLeadAction(request: Request, context: AppLoadContext) {
  return asJson(
    await formAction(request, {
      guard: () => requireUser(request, context),
      schema: OfflineLeadSchema,
      redirectTo: OFFLINE_PATH,
      handle: async ({ idempotencyKey, ...fields }, { tenant, user }) => {
        // The key is the browser's, so it is kept per owner; the hash tells a resend of the
        // same lead from another lead that reused its key.
        const key = `offline-lead:${user.id}:${idempotencyKey}`
        const requestHash = createHash('sha256')
          .update(JSON.stringify([user.id, fields]))
          .digest('hex')
        const answer = await withTenant(tenant.id, async (tx) => {
          const first = await findIdempotentAnswer(tx, tenant.id, key)
          if (first) {
            if (first.requestHash !== requestHash)
              throw new Refusal('unprocessable', LEAD_KEY_REUSED)
            return { ...(first.response as OfflineLeadAnswer), replayed: true }
          }
          const added = await addContactAndForward(tx, tenant.id, user.id, {
            ...fields,
            source: 'manual',
          })
          const kept: OfflineLeadAnswer =
            added.status === 'created'
              ? { status: 'created', message: LEAD_SENT, replayed: false }
              : { status: 'duplicate', message: LEAD_ALREADY_IN_CONTACTS, replayed: false }
          // Kept as long as the API's answers (ADR 092); older ones of the agency go now.
          await deleteIdempotentAnswersBefore(
            tx,
            tenant.id,
            new Date(Date.now() - IDEMPOTENT_ANSWER_KEPT_MS),
          )
          const saved = await saveIdempotentAnswer(tx, tenant.id, {
            idempotencyKey: key,
            apiKeyId: null,
            method: 'POST',
            path: OFFLINE_LEADS_PATH,
            requestHash,
            status: 200,
            response: kept,
          })
          // Another request with this key saved first: this one's contact rolls back with it.
          if (!saved) throw new Refusal('conflict', LEAD_SEND_IN_PROGRESS)
          return kept
        })
        return { reply: { lead: answer } }
      },
    }),
  )
}
