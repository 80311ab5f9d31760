// /lead-data?token=: what a lead's receipt link opens (ADR 050). The token is the only
// authority (no session: the lead has no account); only its hash is stored, and the page's
// URL neither leaks through Referer nor rests in a shared cache. GET only shows: link scanners
// open every link in an email. Delete removes the contact in one transaction with the job that
// deletes it from the owner's CRM.
import { type AppLoadContext, data } from '@remix-run/node'
import { z } from 'zod'
import { formAction } from '#app/actions/intent-action.server'
import { queueCrmDeletion } from '#app/crm/forwarding.server'
import { hashToken, LINK_TOKEN } from '#app/email/link-token.server'
import { recordAudit } from '#app/models/audit.server'
import { deleteLeadByDataToken, findLeadByDataToken } from '#app/models/contacts.server'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { emitContactDeleted } from '#app/webhooks/webhook-events.server'
import { withTenant } from '#drizzle/db.server'
import { deleteLeadReceiptsIn, LEAD_DATA_PATH } from './lead-consent.server'

export const LEAD_DATA_HEADERS = { 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' }
export const LEAD_LINK_INVALID =
  'This link no longer opens any data: it was deleted, or the link is not complete.'

export const DeleteLeadDataSchema = z.object({ intent: z.literal('delete') })

function tokenHashOf(request: Request) {
  const token = new URL(request.url).searchParams.get('token') ?? ''
  // Anything but a link token's shape is refused without a query.
  return LINK_TOKEN.test(token) ? hashToken(token) : null
}

export async function leadDataLoader(request: Request, context: AppLoadContext) {
  const tenant = await requireTenant(context)
  const hash = tokenHashOf(request)
  const lead = hash
    ? await withTenant(tenant.id, (tx) => findLeadByDataToken(tx, tenant.id, hash))
    : undefined
  if (!lead) {
    return data(
      { status: 'invalid' as const, message: LEAD_LINK_INVALID },
      { status: 404, headers: LEAD_DATA_HEADERS },
    )
  }
  const { id: _id, ownerFirstName, ownerLastName, ...stored } = lead
  return data(
    {
      status: 'found' as const,
      lead: { ...stored, ownerName: `${ownerFirstName} ${ownerLastName}`.trim() },
    },
    { headers: LEAD_DATA_HEADERS },
  )
}

export async function leadDataAction(request: Request, context: AppLoadContext) {
  return formAction(request, {
    guard: async () => {
      const tenant = await requireTenant(context)
      const hash = tokenHashOf(request)
      if (!hash) throw new Response('Not Found', { status: 404, headers: LEAD_DATA_HEADERS })
      return { tenant, hash }
    },
    schema: DeleteLeadDataSchema,
    redirectTo: LEAD_DATA_PATH,
    headers: LEAD_DATA_HEADERS,
    handle: async (_value, { tenant, hash }) => {
      const deleted = await withTenant(tenant.id, async (tx) => {
        const lead = await findLeadByDataToken(tx, tenant.id, hash)
        if (!lead) return false
        // Before the delete: the CRM's id goes with the contact's sync row.
        const crm = await queueCrmDeletion(tx, tenant.id, lead.id)
        const row = await deleteLeadByDataToken(tx, tenant.id, hash)
        if (!row) return false
        // Nothing of the person in the event either: which contact of whose list (ADR 093).
        await emitContactDeleted(tx, tenant.id, row, 'lead_request')
        const receipts = await deleteLeadReceiptsIn(tx, tenant.id, lead.email, hash)
        // Nothing of the person in the log: which contact of whose list, and that it was them.
        await recordAudit(tx, tenant.id, {
          actorUserId: null,
          action: 'lead.deleted',
          entityType: 'contact',
          entityId: row.id,
          metadata: { ownerId: row.userId, crm, receipts },
        })
        return true
      })
      if (!deleted) throw new Response('Not Found', { status: 404, headers: LEAD_DATA_HEADERS })
      return { reply: { deleted: true } }
    },
  })
}
