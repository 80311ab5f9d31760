// Flat cost as tenants grow (issue 16 point 4): every query on a hot path (tenant resolution,
// the public card page and its view, sign-in and sessions, media, the dashboards' figures, new
// contacts, the job queue) is captured as it runs, then explained with sequential scans
// switched off. A plan that still scans a tenant table in sequence has no index it can use:
// on a large database that query would grow with every tenant.
import type { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { recordCardView, recordCardViews } from '#app/models/card-views.server'
import {
  findCardByReference,
  findCardBySlug,
  getDefaultCardForOwner,
  listCardsForOwner,
} from '#app/models/cards.server'
import {
  addContact,
  findContactByEmail,
  findContactForOwner,
  listContacts,
} from '#app/models/contacts.server'
import { findLatestDataExport, readDataExportChunk } from '#app/models/data-exports.server'
import { claimNextJob } from '#app/models/jobs.server'
import { getMediaByHash, getMediaBytes, getMediaPath } from '#app/models/media.server'
import { findBrandingImagePaths, findOrganizationForHost } from '#app/models/organizations.server'
import { findSessionWithUser, insertSession } from '#app/models/sessions.server'
import {
  countCards,
  countCardViewsBySource,
  countContactsByWeek,
  countUserViewsBySourcePerDay,
  countViewsBySourcePerDay,
  countViewsByWeek,
  endUserFigures,
} from '#app/models/stats.server'
import { findUserByEmail } from '#app/models/users.server'
import { type Database, getDatabaseHandle } from '#drizzle/db.server'
import * as schema from '#drizzle/schema'
import { makeBrandedOrganization, makeCard, makeUser } from '#tests/factories'

type Captured = { sql: string; params: unknown[] }
const captured: Captured[] = []
const logger = {
  logQuery(query: string, params: unknown[]) {
    captured.push({ sql: query, params })
  },
}

let db: Database
let explain: (sql: string, params: unknown[]) => Promise<unknown>
let close = async () => {}

beforeAll(async () => {
  const handle = getDatabaseHandle()
  if (handle.driver === 'pglite') {
    const client = (handle as unknown as { client: PGlite }).client
    db = drizzlePglite(client, { schema, logger }) as unknown as Database
    explain = async (sql, params) => {
      const [, result] = await client.transaction(async (tx) => [
        await tx.query('set local enable_seqscan = off'),
        await tx.query<{ 'QUERY PLAN': unknown }>(`explain (format json) ${sql}`, params),
      ])
      return result.rows[0]?.['QUERY PLAN']
    }
  } else {
    const url = process.env.TEST_FILE_DATABASE_URL as string
    const client = postgres(url, { max: 1, onnotice: () => {} })
    db = drizzlePostgres(client, { schema, logger }) as unknown as Database
    explain = async (sql, params) =>
      client.begin(async (tx) => {
        await tx.unsafe('set local enable_seqscan = off')
        const [row] = await tx.unsafe(`explain (format json) ${sql}`, params as never[])
        return (row as unknown as { 'QUERY PLAN': unknown })['QUERY PLAN']
      })
    close = () => client.end()
  }
})

afterAll(() => close())

const TENANT_TABLES = new Set(
  Object.values(schema.tenantTables).map(
    (table) => (table as unknown as Record<symbol, string>)[Symbol.for('drizzle:Name')],
  ),
)

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] }

function sequentialScans(node: PlanNode): string[] {
  const own =
    node['Node Type'] === 'Seq Scan' && node['Relation Name'] ? [node['Relation Name']] : []
  return [...own, ...(node.Plans ?? []).flatMap(sequentialScans)]
}

async function tenantSeqScans(query: Captured) {
  const plan = (await explain(query.sql, query.params)) as { Plan: PlanNode }[]
  return sequentialScans(plan[0]?.Plan as PlanNode).filter((table) => TENANT_TABLES.has(table))
}

test('the check sees a query no index serves', async () => {
  expect(
    await tenantSeqScans({ sql: 'select id from contacts where note = $1', params: ['x'] }),
  ).toEqual(['contacts'])
  expect(
    await tenantSeqScans({
      sql: 'select id from contacts where id = $1',
      params: [crypto.randomUUID()],
    }),
  ).toEqual([])
})

test('no hot query scans a tenant table in sequence', async () => {
  const { organization } = await makeBrandedOrganization({ name: 'Plans Co' })
  const user = await makeUser(organization.id, { email: `plans-${organization.slug}@example.test` })
  const card = await makeCard(organization.id, user.id, { firstName: 'Pia', lastName: 'Plans' })
  const now = new Date()
  const scope = { kind: 'user' as const, userId: user.id }

  // Captured from here: what a request on each hot path runs.
  captured.length = 0
  await findOrganizationForHost(db, { kind: 'subdomain', slug: organization.slug })
  await findOrganizationForHost(db, { kind: 'custom-domain', domain: 'cards.plans.test' })
  await findBrandingImagePaths(db, organization.id, organization)
  await findCardByReference(db, organization.id, card.id)
  await findCardByReference(db, organization.id, 'pia-plans')
  // The short link (ADR 041), as a QR code's capitals ask for it.
  await findCardBySlug(db, organization.id, 'PIA-PLANS')
  await recordCardView(db, organization.id, card.id, 'visitor-hash', 'mobile')
  await recordCardViews(db, organization.id, [
    {
      cardId: card.id,
      visitorHash: 'batched',
      deviceClass: 'mobile',
      source: 'qr',
      viewedAt: new Date(),
    },
  ])
  await findUserByEmail(db, organization.id, user.email)
  await insertSession(db, organization.id, {
    id: `plans-session-${organization.slug}`,
    userId: user.id,
    twoFactorVerified: true,
    expiresAt: new Date(Date.now() + 60_000),
  })
  await findSessionWithUser(db, organization.id, `plans-session-${organization.slug}`)
  await getMediaByHash(db, organization.id, 'f'.repeat(64))
  await getMediaPath(db, organization.id, card.id)
  await getMediaBytes(db, organization.id, card.id)
  await listCardsForOwner(db, organization.id, user.id)
  await getDefaultCardForOwner(db, organization.id, user.id)
  await countCards(db, organization.id, scope)
  await countViewsByWeek(db, organization.id, scope, now)
  for (const admin of [
    scope,
    { kind: 'assigned' as const, teamAdminId: user.id },
    { kind: 'organization' as const },
  ]) {
    await countViewsBySourcePerDay(db, organization.id, admin, now)
  }
  await countContactsByWeek(db, organization.id, scope, now)
  await endUserFigures(db, organization.id, user.id, now)
  await countUserViewsBySourcePerDay(db, organization.id, user.id, now)
  await countCardViewsBySource(db, organization.id, user.id, now)
  await findContactByEmail(db, organization.id, user.id, 'someone@example.test')
  await addContact(db, organization.id, user.id, { fullName: 'New One', email: 'new@example.test' })
  await listContacts(db, organization.id, user.id)
  // The contacts list's filters and a contact's page, with the card it was met on (issue 41
  // point 12).
  await listContacts(db, organization.id, user.id, { source: 'lead', kind: 'personal' })
  await findContactForOwner(db, organization.id, user.id, card.id)
  await claimNextJob(db, 60_000)
  // Download my data (ADR 052): the panel polls the newest export while one is prepared; the
  // download reads the zip in pieces.
  await findLatestDataExport(db, organization.id, user.id)
  await readDataExportChunk(db, organization.id, user.id, card.id, 0, 1024)
  const queries = captured.splice(0)
  expect(queries.length).toBeGreaterThan(20)

  const problems: string[] = []
  for (const query of queries) {
    // Writes are explained too (an insert's conflict check, an update's search).
    const scans = await tenantSeqScans(query)
    if (scans.length > 0) problems.push(`${scans.join(', ')}: ${query.sql.trim().slice(0, 160)}`)
  }
  expect(problems).toEqual([])
})
