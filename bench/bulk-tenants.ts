// The large database of `npm run bench:scale` (issue 16 point 4): 10,000 agencies with a logo
// each, 100,000 users, 200,000 cards, a session per user and a view per card, added in bulk beside
// the demo. Each
// table is filled by one INSERT … SELECT over generate_series, run by the database itself: no
// rows cross the wire, the same SQL on PGlite and Postgres, seconds rather than minutes.
// Run as the owner (superuser), before the server starts.
import { like, sql } from 'drizzle-orm'
import { hashPassword } from '#app/auth/password.server'
import { DEMO_PASSWORD } from '#app/demo/seed.server'
import type { Database } from '#drizzle/db.server'
import { cardViews, digitalCards, media, organizations, sessions, users } from '#drizzle/schema'

export const BULK = {
  agencies: 10_000,
  usersPerAgency: 10,
  cardsPerUser: 2,
  /** Every n-th agency is on a verified custom domain of its own. */
  customDomainEvery: 10,
} as const

// Varied names, so that the index on lower(first name), lower(last name) that resolves
// "{first}-{last}" links holds many distinct keys per agency, as a real one would.
const FIRST_NAMES =
  'Ada Ben Cleo Dan Eva Finn Gia Hugo Iris Jon Kai Lena Max Nora Omar Pia Quinn Rosa Sven Tara Uma Vic Wen Xavi Yara Zoe'.split(
    ' ',
  )
const LAST_NAMES =
  'Adler Berg Costa Dietz Evans Fischer Garcia Hansen Ito Jensen Kowalski Lopez Meyer Novak Olsen Petrov Quist Rossi Schmidt Tanaka Ueda Vogel Weber Xu Young Zimmer'.split(
    ' ',
  )

/** The bulk users' addresses (user<n>@agency-<n>.test), and their cards'. */
const BULK_EMAILS = '%@agency-%'

/** A constant list of the names above as a SQL array literal (they hold no quotes). */
const sqlArray = (values: string[]) => sql.raw(`array['${values.join("','")}']`)

export type BulkCounts = {
  agencies: number
  media: number
  users: number
  cards: number
  sessions: number
  views: number
}

/**
 * Adds the bulk tenants to a migrated, demo-seeded database, then VACUUM ANALYZE (what autovacuum
 * would do soon after such a load on Postgres; PGlite has no autovacuum). Every bulk user's password is
 * the demo's, under one argon2 hash computed once.
 */
export async function seedBulkTenants(db: Database): Promise<BulkCounts> {
  const passwordHash = await hashPassword(DEMO_PASSWORD)
  const { agencies, usersPerAgency, cardsPerUser, customDomainEvery } = BULK
  await db.execute(sql`
    insert into organizations
      (slug, name, kind, subscription_tier, owner_name, contact_email,
       custom_domain, custom_domain_verified_at, custom_domain_checked_at)
    select
      'agency-' || lpad(n::text, 5, '0'),
      'Agency ' || n,
      'agency',
      (array['free', 'starter', 'professional', 'enterprise'])[1 + n % 4]::subscription_tier,
      'Owner ' || n,
      'owner@agency-' || lpad(n::text, 5, '0') || '.test',
      case when n % ${customDomainEvery} = 0 then 'cards.agency-' || lpad(n::text, 5, '0') || '.test' end,
      case when n % ${customDomainEvery} = 0 then now() end,
      case when n % ${customDomainEvery} = 0 then now() end
    from generate_series(1, ${agencies}::int) as n`)
  // A logo per agency, as branding would upload (a few bytes stand in for the image): the card
  // page and the tenant's branding join media by (organization_id, id).
  await db.execute(sql`
    insert into media
      (organization_id, hash, ext, content_type, purpose, width, height, byte_size, data)
    select id, encode(sha256(convert_to(id::text, 'UTF8')), 'hex'), 'png', 'image/png', 'logo',
      64, 64, 8, '\\x89504e470d0a1a0a'::bytea
    from organizations where slug like 'agency-%'`)
  await db.execute(sql`
    update organizations as o set logo_media_id = m.id
    from media as m
    where m.organization_id = o.id and o.slug like 'agency-%'`)
  // One agency admin, one team admin and end users in each; names cycle through both lists at
  // different rates, so neighbours differ.
  await db.execute(sql`
    insert into users
      (organization_id, email, password_hash, role, first_name, last_name, company, job_title,
       onboarding_step, onboarding_completed_at, email_confirmed_at, created_at)
    select
      o.id,
      'user' || u || '@' || o.slug || '.test',
      ${passwordHash},
      (case u when 1 then 'agency_admin' when 2 then 'team_admin' else 'end_user' end)::user_role,
      (${sqlArray(FIRST_NAMES)})[1 + (u + o.n) % ${FIRST_NAMES.length}],
      (${sqlArray(LAST_NAMES)})[1 + (u * 7 + o.n * 3) % ${LAST_NAMES.length}],
      o.name,
      'Consultant',
      4,
      now() - make_interval(days => o.n % 365),
      now() - make_interval(days => o.n % 365),
      now() - make_interval(days => o.n % 365)
    from (
      select id, slug, name, substr(slug, 8)::int as n from organizations where slug like 'agency-%'
    ) as o
    cross join generate_series(1, ${usersPerAgency}::int) as u`)
  await db.execute(sql`
    insert into digital_cards
      (organization_id, user_id, title, first_name, last_name, email, company, job_title,
       phone_number, website, is_default, created_at)
    select
      u.organization_id, u.id,
      case c when 1 then 'Work' else 'Card ' || c end,
      u.first_name, u.last_name, u.email, u.company, u.job_title,
      '+1 555 ' || lpad((abs(hashtext(u.email)) % 10000000)::text, 7, '0'),
      'https://example.test',
      c = 1,
      u.created_at + make_interval(mins => c)
    from users as u
    cross join generate_series(1, ${cardsPerUser}::int) as c
    where u.email like ${BULK_EMAILS}`)
  // Signed-in users: the session lookup and the insert of a new session face a full table.
  await db.execute(sql`
    insert into sessions (id, organization_id, user_id, expires_at)
    select md5(u.id::text) || md5(random()::text), u.organization_id, u.id,
      now() + interval '30 days'
    from users as u
    where u.email like ${BULK_EMAILS}`)
  // A view per card over the last 30 days: the view de-duplication query faces a full table.
  await db.execute(sql`
    insert into card_views (organization_id, card_id, visitor_hash, device_class, viewed_at)
    select c.organization_id, c.id, md5(c.id::text),
      (array['mobile', 'tablet', 'desktop'])[1 + abs(hashtext(c.id::text)) % 3],
      now() - make_interval(secs => abs(hashtext(c.id::text)) % (30 * 24 * 3600))
    from digital_cards as c
    where c.email like ${BULK_EMAILS}`)
  // VACUUM too: on Postgres autovacuum would otherwise visit these 800,000 new rows while the
  // large database is being measured, and its work would count against the large side.
  await db.execute(sql`vacuum analyze`)
  return countBulkRows(db)
}

async function countBulkRows(db: Database): Promise<BulkCounts> {
  return {
    agencies: await db.$count(organizations, like(organizations.slug, 'agency-%')),
    media: await db.$count(media),
    users: await db.$count(users, like(users.email, BULK_EMAILS)),
    cards: await db.$count(digitalCards, like(digitalCards.email, BULK_EMAILS)),
    sessions: await db.$count(sessions),
    views: await db.$count(cardViews),
  }
}
