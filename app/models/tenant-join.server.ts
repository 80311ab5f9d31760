import { type AnyColumn, and, eq, type SQL } from 'drizzle-orm'

/**
 * The condition that joins two tenant tables: the same organization, and the key that links them.
 * Tenant foreign keys are composite (organization_id, id), so every such join states both;
 * `more` adds the join's own conditions (a current slug: not retired).
 */
export function tenantJoin(
  joined: { organizationId: AnyColumn },
  to: { organizationId: AnyColumn },
  key: AnyColumn,
  ref: AnyColumn,
  ...more: SQL[]
): SQL {
  return and(eq(joined.organizationId, to.organizationId), eq(key, ref), ...more) as SQL
}
