// What makes the demo look used on its first start (issue 28 point 5): a drawn photo for each
// card owner, and two weeks of views and contacts that end at the moment of seeding, so the
// dashboards' charts and lists are full whenever someone starts it. Everything is derived from a
// fixed seed (the same demo on every machine) except the dates, which follow the clock.
import { createHash } from 'node:crypto'
import { and, inArray, sql } from 'drizzle-orm'
import { type CardEventCount, recordCardEvents } from '#app/models/card-events.server'
import type { DeviceClass } from '#app/models/card-views.server'
import sharp from '#app/services/sharp.server'
import type { ViewSource } from '#app/utils/view-sources'
import { IMAGE_PURPOSES } from '#app/validation/images'
import type { Transaction } from '#drizzle/db.server'
import { cardLinks, cardViews, contacts } from '#drizzle/schema'

export type DemoViewRow = typeof cardViews.$inferInsert
export type DemoContactRow = typeof contacts.$inferInsert

const DAY_MS = 86_400_000
/** Days of views and contacts: the dashboards compare the last 7 days with the 7 before. */
export const DEMO_ACTIVITY_DAYS = 14
const QUIET_BEFORE_SEED_MS = 90 * 60_000

/** How long of today, from midnight, has views: all but the quiet spell before the seed. */
function todaysViewSpan(elapsed: number) {
  return Math.max(elapsed - QUIET_BEFORE_SEED_MS, elapsed / 3, 1)
}

/**
 * How far back from `now` the newest contacts may go and still follow today's views: the quiet
 * spell, or, just after midnight, the two thirds of the day after its views.
 */
function todaysContactSpan(now: Date) {
  const elapsed = now.getTime() % DAY_MS
  return Math.max(0, Math.min(QUIET_BEFORE_SEED_MS, elapsed - todaysViewSpan(elapsed)))
}

/** A small deterministic generator (mulberry32), seeded from a string. */
export function seededRandom(seed: string) {
  let state = createHash('sha256').update(seed).digest().readUInt32LE(0)
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

function pick<T>(random: () => number, weighted: readonly (readonly [T, number])[]): T {
  const total = weighted.reduce((sum, [, weight]) => sum + weight, 0)
  let roll = random() * total
  for (const [value, weight] of weighted) {
    roll -= weight
    if (roll < 0) return value
  }
  return weighted[weighted.length - 1]?.[0] as T
}

const hex = (color: string) => [1, 3, 5].map((i) => Number.parseInt(color.slice(i, i + 2), 16))

/** How much of a pixel lies inside a shape whose edge is `distance` away (negative: inside). */
const coverage = (distance: number) => Math.min(1, Math.max(0, 0.5 - distance))

let silhouette: Float32Array | undefined

/** How much of each pixel the head and shoulders cover: the same for every photo, drawn once. */
function silhouetteMask(size: number) {
  if (silhouette?.length === size * size) return silhouette
  const mask = new Float32Array(size * size)
  const head = { x: size / 2, y: size * 0.4, r: size * 0.19 }
  const body = { x: size / 2, y: size * 1.02, rx: size * 0.36, ry: size * 0.34 }
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const headEdge = Math.hypot(x - head.x, y - head.y) - head.r
      // An ellipse's distance, close enough near its edge for one pixel of smoothing.
      const bodyEdge =
        (Math.hypot((x - body.x) / body.rx, (y - body.y) / body.ry) - 1) *
        Math.min(body.rx, body.ry)
      mask[y * size + x] = 0.82 * Math.max(coverage(headEdge), coverage(bodyEdge))
    }
  }
  silhouette = mask
  return mask
}

/**
 * A portrait placeholder: a diagonal gradient between two colours with a light head-and-shoulders
 * silhouette, drawn as raw pixels (the app's sharp reads no SVG, and no font is needed), stored
 * at a profile picture's size and quality (IMAGE_PURPOSES.profilePicture). Plain libjpeg, not
 * the uploads' mozjpeg: a tenth of the time on every fresh start, for a few kilobytes.
 */
export async function drawDemoPhoto(from: string, to: string) {
  const { width: size, quality } = IMAGE_PURPOSES.profilePicture
  const [r1 = 0, g1 = 0, b1 = 0] = hex(from)
  const [r2 = 0, g2 = 0, b2 = 0] = hex(to)
  const mask = silhouetteMask(size)
  const pixels = Buffer.alloc(size * size * 3)
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const t = (x + y) / (2 * size)
      const figure = mask[y * size + x] ?? 0
      const i = (y * size + x) * 3
      pixels[i] = (r1 + (r2 - r1) * t) * (1 - figure) + 255 * figure
      pixels[i + 1] = (g1 + (g2 - g1) * t) * (1 - figure) + 255 * figure
      pixels[i + 2] = (b1 + (b2 - b1) * t) * (1 - figure) + 255 * figure
    }
  }
  const bytes = await sharp(pixels, { raw: { width: size, height: size, channels: 3 } })
    .jpeg({ quality })
    .toBuffer()
  return { bytes, width: size, height: size, contentType: 'image/jpeg' as const }
}

/**
 * A cover (issue 41 point 6, ADR 083): a horizontal gradient between the photo's two colours at
 * the cover's stored size, drawn as the photo is.
 */
export async function drawDemoCover(from: string, to: string) {
  const { width, quality } = IMAGE_PURPOSES.cover
  const height = width / 3
  const [r1 = 0, g1 = 0, b1 = 0] = hex(from)
  const [r2 = 0, g2 = 0, b2 = 0] = hex(to)
  const pixels = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = x / width
      const i = (y * width + x) * 3
      pixels[i] = r1 + (r2 - r1) * t
      pixels[i + 1] = g1 + (g2 - g1) * t
      pixels[i + 2] = b1 + (b2 - b1) * t
    }
  }
  const bytes = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer()
  return { bytes, width, height, contentType: 'image/jpeg' as const }
}

// The channels there are today (wallet, signature and background come with the next issue).
const SOURCE_WEIGHTS = [
  ['qr', 30],
  ['link', 20],
  ['direct', 16],
  ['share', 14],
  ['nfc', 12],
  ['vcard', 8],
] as const satisfies readonly (readonly [ViewSource, number])[]

const DEVICE_BY_SOURCE: Record<(typeof SOURCE_WEIGHTS)[number][0], DeviceClass> = {
  qr: 'mobile',
  nfc: 'mobile',
  vcard: 'mobile',
  share: 'mobile',
  link: 'desktop',
  direct: 'desktop',
}

/**
 * Two weeks of views of a card, up to `now`: more on weekdays and in office hours, a little more
 * each week (the dashboards show a rise), `scale` times a main card's traffic. Visitors are
 * opaque hashes, as a real view's keyed hash is: no address or user agent is stored.
 */
export function demoViews(
  organizationId: string,
  cardId: string,
  seed: string,
  scale: number,
  now: Date,
): DemoViewRow[] {
  const random = seededRandom(`views:${seed}`)
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const rows: DemoViewRow[] = []
  for (let daysAgo = DEMO_ACTIVITY_DAYS - 1; daysAgo >= 0; daysAgo--) {
    const dayStart = today - daysAgo * DAY_MS
    const weekday = new Date(dayStart).getUTCDay()
    const base = weekday === 0 || weekday === 6 ? 4 : 11
    const trend = 0.75 + (0.5 * (DEMO_ACTIVITY_DAYS - 1 - daysAgo)) / (DEMO_ACTIVITY_DAYS - 1)
    const usual = Math.round(base * trend * scale * (0.6 + 0.8 * random()))
    // Today has had the hours until now, and its views stop a while before it: the newest
    // contacts (app/demo/seed.server.ts) head the recent activity, not a run of views. Just after
    // midnight the day is shorter than that quiet spell: its views take its first third, and
    // the newest contacts are brought into the rest (todaysContactSpan).
    const elapsed = now.getTime() - dayStart
    const dayLength = daysAgo > 0 ? DAY_MS : todaysViewSpan(elapsed)
    const count =
      daysAgo > 0
        ? usual
        : Math.max(2, Math.round((usual * Math.max(elapsed, DAY_MS / 3)) / DAY_MS))
    for (let n = 0; n < count; n++) {
      // Office hours around 8:00 to 20:00, evenings now and then; today anywhere before now.
      const hour = random() < 0.85 ? 8 + ((random() + random()) / 2) * 12 : random() * 24
      const offset = daysAgo === 0 ? random() * dayLength : hour * 3_600_000
      const source = pick(random, SOURCE_WEIGHTS)
      const likely = DEVICE_BY_SOURCE[source]
      const device: DeviceClass =
        random() < 0.15 ? 'tablet' : likely === 'desktop' && random() < 0.4 ? 'mobile' : likely
      rows.push({
        organizationId,
        cardId,
        visitorHash: createHash('sha256')
          .update(`demo-visitor:${seed}:${rows.length}`)
          .digest('hex'),
        deviceClass: device,
        source,
        viewedAt: new Date(dayStart + Math.min(offset, dayLength - 1)),
      })
    }
  }
  return rows
}

export type DemoContact = {
  fullName: string
  email: string
  phoneNumber?: string
  company?: string
  jobTitle?: string
  note?: string
  source: 'lead' | 'connect' | 'saved' | 'manual'
  /** When it came, in days before the seed (fractions place it within the day). */
  daysAgo: number
}

/** A card owner's contacts, dated back from `now`; leads and connections name the card they came by. */
export function demoContacts(
  organizationId: string,
  userId: string,
  cardId: string,
  list: DemoContact[],
  now: Date,
): DemoContactRow[] {
  // The contacts of the quiet spell keep their order but are squeezed into what is left of it.
  const span = todaysContactSpan(now)
  return list.map(({ daysAgo, ...contact }) => {
    const ago = daysAgo * DAY_MS
    const squeezed = ago < QUIET_BEFORE_SEED_MS ? (ago * span) / QUIET_BEFORE_SEED_MS : ago
    return {
      organizationId,
      userId,
      ...contact,
      sourceCardId: contact.source === 'lead' || contact.source === 'connect' ? cardId : null,
      createdAt: new Date(now.getTime() - squeezed),
    }
  })
}

const HOUR_MS = 3_600_000
// What some of the views led to (ADR 082), in rough proportions of a card's visitors.
const EVENT_ODDS = [
  ['vcard', 0.18],
  ['wallet', 0.05],
  ['link', 0.3],
  ['lead', 0.04],
  ['connect', 0.02],
] as const

/**
 * Saves, link taps and exchanges that follow the demo's views (ADR 082): each view, by a fixed
 * seed, may lead to some, in its hour and with its source; a tap goes to one of the card's
 * links. Counted per hour, as the event batcher writes them.
 */
export function demoEvents(
  views: DemoViewRow[],
  linksOfCard: Map<string, string[]>,
): Map<string, CardEventCount[]> {
  const random = seededRandom('events')
  const counts = new Map<string, CardEventCount & { organizationId: string }>()
  for (const view of views) {
    const viewedAt = view.viewedAt instanceof Date ? view.viewedAt : new Date()
    const hour = new Date(Math.floor(viewedAt.getTime() / HOUR_MS) * HOUR_MS)
    for (const [kind, odds] of EVENT_ODDS) {
      if (random() >= odds) continue
      const links = linksOfCard.get(view.cardId) ?? []
      if (kind === 'link' && links.length === 0) continue
      const linkId = kind === 'link' ? (links[Math.floor(random() * links.length)] ?? '') : ''
      const source = view.source ?? 'direct'
      const key = [view.organizationId, view.cardId, hour.toISOString(), source, kind, linkId].join(
        '|',
      )
      const found = counts.get(key)
      if (found) found.count++
      else
        counts.set(key, {
          organizationId: view.organizationId,
          cardId: view.cardId,
          hour,
          source,
          kind,
          linkId,
          count: 1,
        })
    }
  }
  const byOrganization = new Map<string, CardEventCount[]>()
  for (const { organizationId, ...event } of counts.values()) {
    byOrganization.set(organizationId, [...(byOrganization.get(organizationId) ?? []), event])
  }
  return byOrganization
}

/**
 * Inserts the rows in one statement each; card_view_hours follows by its trigger (ADR 039). The
 * views go as one JSON parameter: hundreds of rows of six bound parameters each took twice as
 * long to bind on PGlite.
 */
export async function insertDemoActivity(
  tx: Transaction,
  views: DemoViewRow[],
  people: DemoContactRow[],
) {
  if (views.length > 0) {
    await tx.execute(sql`
      insert into ${cardViews} (organization_id, card_id, visitor_hash, device_class, source, viewed_at)
      select "organizationId", "cardId", "visitorHash", "deviceClass", "source", "viewedAt"
      from json_to_recordset(${JSON.stringify(views)}::json) as v(
        "organizationId" uuid, "cardId" uuid, "visitorHash" text, "deviceClass" text,
        "source" view_source, "viewedAt" timestamptz
      )`)
  }
  if (people.length > 0) await tx.insert(contacts).values(people)
  // The saves, taps and exchanges that followed the views (ADR 082).
  const organizations = [...new Set(views.map((view) => view.organizationId))]
  const cardIds = [...new Set(views.map((view) => view.cardId))]
  const links =
    cardIds.length > 0
      ? await tx
          .select({ id: cardLinks.id, cardId: cardLinks.cardId })
          .from(cardLinks)
          .where(
            and(
              inArray(cardLinks.organizationId, organizations),
              inArray(cardLinks.cardId, cardIds),
            ),
          )
      : []
  const linksOfCard = new Map<string, string[]>()
  for (const link of links)
    linksOfCard.set(link.cardId, [...(linksOfCard.get(link.cardId) ?? []), link.id])
  for (const [organizationId, events] of demoEvents(views, linksOfCard)) {
    await recordCardEvents(tx, organizationId, events)
  }
}
