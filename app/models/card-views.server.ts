import { sql } from 'drizzle-orm'
import type { Queryable } from '#drizzle/db.server'
import { cardViews } from '#drizzle/schema'

export const REPEAT_WINDOW_MINUTES = 30

/**
 * Records a view unless the same visitor viewed the card within the last 30 minutes.
 * One statement; returns whether a row was written.
 */
export async function recordCardView(
  db: Queryable,
  organizationId: string,
  cardId: string,
  visitorHash: string,
) {
  const rows = await db.execute(sql`
    insert into ${cardViews} (organization_id, card_id, visitor_hash)
    select ${organizationId}, ${cardId}, ${visitorHash}
    where not exists (
      select 1 from ${cardViews}
      where organization_id = ${organizationId} and card_id = ${cardId}
        and visitor_hash = ${visitorHash}
        and viewed_at > now() - make_interval(mins => ${REPEAT_WINDOW_MINUTES})
    )
    returning id`)
  const list = Array.isArray(rows) ? rows : ((rows as { rows?: unknown[] }).rows ?? [])
  return list.length > 0
}
