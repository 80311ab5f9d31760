// The analytics figures (issue 41 point 8, ADR 082): views, saves (vCard, wallet), link taps and
// exchanges (lead forms, connects) of a scope's cards over whole UTC hours, per card and per
// source, with the rates from a view to a save and to an exchange. Every figure is a sum of the
// rollups' rows; a rate without views is null (the screen and the CSV say "—").
import {
  type AnalyticsCount,
  countCardActivity,
  countLinkTaps,
  type LinkTaps,
  listCardNames,
} from '#app/models/card-events.server'
import type { CardScope } from '#app/models/stats.server'
import { VIEW_SOURCES, type ViewSource } from '#app/utils/view-sources'
import type { AnalyticsRange } from '#app/validation/analytics'
import { withTenant } from '#drizzle/db.server'

const HOUR_MS = 3_600_000

export type Figures = {
  views: number
  vcardSaves: number
  walletSaves: number
  saves: number
  linkTaps: number
  leads: number
  connects: number
  exchanges: number
  /** Saves per view, 0 to 1 (or more: a save needs no counted view); null without views. */
  saveRate: number | null
  exchangeRate: number | null
}

export type CardFigures = Figures & { cardId: string; name: string; owner: string }
export type SourceFigures = Figures & { source: ViewSource }
export type LinkFigures = { cardId: string; card: string; link: string; url: string; taps: number }

export type Analytics = {
  days: AnalyticsRange
  from: string
  to: string
  totals: Figures
  cards: CardFigures[]
  sources: SourceFigures[]
  links: LinkFigures[]
}

/** The range: the last `days` × 24 whole hours, the current hour included. */
export function analyticsWindow(now: Date, days: number) {
  const to = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS)
  return { from: new Date(to.getTime() - days * 24 * HOUR_MS), to }
}

const rate = (part: number, whole: number) => (whole > 0 ? part / whole : null)

function figuresOf(rows: AnalyticsCount[]): Figures {
  const sum = (kind: AnalyticsCount['kind']) =>
    rows.reduce((total, row) => (row.kind === kind ? total + row.count : total), 0)
  const views = sum('view')
  const vcardSaves = sum('vcard')
  const walletSaves = sum('wallet')
  const leads = sum('lead')
  const connects = sum('connect')
  const saves = vcardSaves + walletSaves
  const exchanges = leads + connects
  return {
    views,
    vcardSaves,
    walletSaves,
    saves,
    linkTaps: sum('link'),
    leads,
    connects,
    exchanges,
    saveRate: rate(saves, views),
    exchangeRate: rate(exchanges, views),
  }
}

function groupBy<K>(rows: AnalyticsCount[], key: (row: AnalyticsCount) => K) {
  const groups = new Map<K, AnalyticsCount[]>()
  for (const row of rows) {
    const list = groups.get(key(row)) ?? []
    list.push(row)
    groups.set(key(row), list)
  }
  return groups
}

type CardName = {
  id: string
  title: string
  firstName: string
  lastName: string
  ownerFirstName: string
  ownerLastName: string
}

/** Puts the rollups' rows together: totals, each card (busiest first), each source, each link. */
export function assembleAnalytics(
  window: { days: AnalyticsRange; from: Date; to: Date },
  rows: AnalyticsCount[],
  names: CardName[],
  taps: LinkTaps[],
): Analytics {
  const nameOf = new Map(names.map((card) => [card.id, card]))
  const cardName = (cardId: string) => {
    const card = nameOf.get(cardId)
    return card?.title || `${card?.firstName ?? ''} ${card?.lastName ?? ''}`.trim() || 'Card'
  }
  const cards = [...groupBy(rows, (row) => row.cardId)].map(([cardId, list]) => {
    const card = nameOf.get(cardId)
    return {
      cardId,
      name: cardName(cardId),
      owner: `${card?.ownerFirstName ?? ''} ${card?.ownerLastName ?? ''}`.trim(),
      ...figuresOf(list),
    }
  })
  cards.sort((a, b) => b.views - a.views || b.saves - a.saves || a.name.localeCompare(b.name))
  const bySource = groupBy(rows, (row) => row.source)
  const sources = VIEW_SOURCES.filter((source) => bySource.has(source)).map((source) => ({
    source,
    ...figuresOf(bySource.get(source) ?? []),
  }))
  return {
    days: window.days,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    totals: figuresOf(rows),
    cards,
    sources,
    links: taps.map((tap) => ({
      cardId: tap.cardId,
      card: cardName(tap.cardId),
      link: tap.label || tap.kind || 'Removed link',
      url: tap.url ?? '',
      taps: tap.taps,
    })),
  }
}

/** A scope's analytics over the last `days` days, in one tenant transaction. */
export function loadAnalytics(
  organizationId: string,
  scope: CardScope,
  days: AnalyticsRange,
  now: Date,
): Promise<Analytics> {
  const { from, to } = analyticsWindow(now, days)
  return withTenant(organizationId, async (tx) => {
    const rows = await countCardActivity(tx, organizationId, scope, from, to)
    const taps = await countLinkTaps(tx, organizationId, scope, from, to)
    const cardIds = [...new Set([...rows.map((r) => r.cardId), ...taps.map((t) => t.cardId)])]
    const names = await listCardNames(tx, organizationId, cardIds)
    return assembleAnalytics({ days, from, to }, rows, names, taps)
  })
}
