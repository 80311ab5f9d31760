// The audit log page (issue 14 point 6): a super admin on the platform host reads every
// organization's events through the audited platform scope; an agency admin reads their own
// organization's; anyone else gets 403.
import type { AppLoadContext } from '@remix-run/node'
import { z } from 'zod'
import { requirePlatformAdmin, requireUser } from '#app/auth/guards.server'
import {
  type AuditEventRow,
  type AuditFilter,
  listAuditEvents,
  listAuditEventsForPlatform,
} from '#app/models/audit.server'
import { withPlatformScope, withTenant } from '#drizzle/db.server'
import { AUDIT_CATEGORIES, AUDIT_PAGE_SIZE } from './audit-log'

const FilterSchema = z.object({
  category: z.enum(AUDIT_CATEGORIES.map((c) => c.id) as [string, ...string[]]).catch(''),
  actor: z.string().max(100).catch(''),
  reads: z.literal('1').optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(1000).catch(1),
})

export async function auditLogLoader(request: Request, context: AppLoadContext) {
  const { tenant, user } = await requireUser(request, context)
  const platformAdmin = user.role === 'super_admin' && tenant.kind === 'platform'
  const agencyAdmin = user.role === 'agency_admin' && tenant.kind === 'agency'
  if (!platformAdmin && !agencyAdmin) {
    throw new Response('Forbidden', { status: 403, statusText: 'Forbidden' })
  }
  const platformScope = platformAdmin
    ? (await requirePlatformAdmin(request, context)).platformScope
    : null
  const params = Object.fromEntries(new URL(request.url).searchParams)
  const parsed = FilterSchema.parse(params)
  const filter: AuditFilter = {
    category: parsed.category,
    actor: parsed.actor.trim(),
    includeReads: parsed.reads === '1',
    // One more than a page: whether there is a next one.
    limit: AUDIT_PAGE_SIZE + 1,
    offset: (parsed.page - 1) * AUDIT_PAGE_SIZE,
  }
  const rows = platformScope
    ? await withPlatformScope(platformScope, 'audit log', (tx) =>
        listAuditEventsForPlatform(tx, filter),
      )
    : await withTenant(tenant.id, (tx) => listAuditEvents(tx, tenant.id, filter))
  return {
    scope: platformScope ? ('platform' as const) : ('organization' as const),
    filter: { category: filter.category, actor: filter.actor, reads: filter.includeReads },
    page: parsed.page,
    hasNext: rows.length > AUDIT_PAGE_SIZE,
    events: rows.slice(0, AUDIT_PAGE_SIZE).map(toEvent),
  }
}

function toEvent(row: AuditEventRow) {
  const name = `${row.actorFirstName ?? ''} ${row.actorLastName ?? ''}`.trim()
  return {
    id: row.id,
    at: row.createdAt.toISOString(),
    action: row.action,
    entity: row.entityId ? `${row.entityType} ${row.entityId}` : row.entityType,
    organization: row.organizationName,
    actor: row.actorEmail
      ? name
        ? `${name} (${row.actorEmail})`
        : row.actorEmail
      : row.actorUserId
        ? 'Platform administrator'
        : 'System',
    metadata: JSON.stringify(row.metadata),
  }
}
