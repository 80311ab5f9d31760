// The analytics screens' filters (issue 41 point 8), read by the screen and its CSV alike.
import { z } from 'zod'

export const ANALYTICS_RANGES = [7, 30, 90] as const
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number]

/**
 * Whose cards: the signed-in person's own, a team admin's assigned end users, one team's members
 * (with `team`, its id), or the whole agency.
 */
export const ANALYTICS_SCOPES = ['mine', 'assigned', 'team', 'agency'] as const
export type AnalyticsScopeName = (typeof ANALYTICS_SCOPES)[number]

/** Anything unknown falls back to the defaults: a hand-edited link still shows a page. */
export const AnalyticsQuerySchema = z.object({
  days: z.coerce
    .number()
    .refine((n): n is AnalyticsRange => (ANALYTICS_RANGES as readonly number[]).includes(n))
    .catch(30),
  scope: z.enum(ANALYTICS_SCOPES).catch('mine'),
  team: z.string().uuid().optional().catch(undefined),
})
export type AnalyticsQuery = { days: AnalyticsRange; scope: AnalyticsScopeName; team?: string }

export function readAnalyticsQuery(params: URLSearchParams): AnalyticsQuery {
  const parsed = AnalyticsQuerySchema.parse({
    days: params.get('days') ?? undefined,
    scope: params.get('scope') ?? undefined,
    team: params.get('team') ?? undefined,
  })
  const query = { days: parsed.days as AnalyticsRange, scope: parsed.scope }
  return parsed.team ? { ...query, team: parsed.team } : query
}
