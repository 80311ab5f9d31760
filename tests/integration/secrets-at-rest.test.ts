// Issue 26 point 2 (ADR 028): no usable single-use token rests anywhere, backups included. Every
// kind of emailed token is caused and delivered through the fake Resend (so the test holds the
// links exactly as their recipients got them), a backup is taken with the app's own backup code
// while every link still works, and then: no token is in the dump or in any table, and every
// token-like value the dump does hold, presented to every token endpoint, is refused.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { apiLoader } from '#app/api/api-route.server'
import { createApiKey, hashApiKey } from '#app/api/manage-api-keys.server'
import { requestPasswordReset } from '#app/auth/accounts.server'
import { sendConfirmationEmail } from '#app/auth/email-confirmation.server'
import { type DatabaseLocation, takeBackup } from '#app/backups/backups.server'
import { resetEnvForTests } from '#app/env.server'
import { askToFollow, confirmFollower } from '#app/models/card-followers.server'
import { insertConsentText } from '#app/models/consent-texts.server'
import { sendNewContactEmail } from '#app/notifications/new-contact.server'
import { saveNotificationPreferences } from '#app/notifications/preferences.server'
import { offerPersonalCardIn } from '#app/people/personal-card.server'
import { action as apiSettingsAction } from '#app/routes/api-settings'
import { loader as confirmLoader } from '#app/routes/auth.confirm-email'
import { loader as resetLoader } from '#app/routes/auth.reset-password'
import { action as cardAction } from '#app/routes/card.$ref'
import { action as announcementsAction } from '#app/routes/dashboard.agency.announcements'
import { action as agenciesAction } from '#app/routes/dashboard.super-admin.agencies'
import { action as usersAction } from '#app/routes/dashboard.team-member.users'
import { loader as unsubscribeLoader } from '#app/routes/email.unsubscribe'
import { loader as followConfirmLoader } from '#app/routes/follow.confirm'
import { loader as followStopLoader } from '#app/routes/follow.unsubscribe'
import { loader as invitationLoader } from '#app/routes/invitations.$token'
import { loader as leadDataLoader } from '#app/routes/lead-data'
import { loader as personalCardClaimLoader } from '#app/routes/personal-card.claim'
import { scimLoader } from '#app/scim/scim-route.server'
import { createScimToken, hashScimToken } from '#app/scim/scim-tokens.server'
import { addMemberByEmail, createTeam } from '#app/teams/manage-teams.server'
import { resolveTenant, type Tenant } from '#app/tenancy/tenant.server'
import { createEndpoint, rotateEndpointSecret } from '#app/webhooks/webhook-endpoints.server'
import { getDatabaseHandle, getDb, withTenant } from '#drizzle/db.server'
import { apiSettings, digitalCards, emailOutbox } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  getPlatformOrganization,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  settleBackgroundWork,
} from '#tests/factories'
import { startFakeCrm } from '#tests/fake-crm'
import { startFakeHubspot } from '#tests/fake-hubspot'
import { type FakeResend, startFakeResend } from '#tests/fake-resend'
import { startFakeSalesforce } from '#tests/fake-salesforce'

const onPostgres = process.env.TEST_DB_DRIVER === 'postgres'

/** Each CRM's secret as the user types it (ADR 094). */
const CRM_SECRETS = {
  gohighlevel: 'pit-ghl-at-rest-0123456789abcdef',
  hubspot: 'pat-na1-at-rest-0123456789abcdef',
  salesforce: 'SFSECRETATREST0123456789ABCDEF',
}

let resend: FakeResend
let workDir: string

beforeAll(async () => {
  resend = await startFakeResend()
  process.env.RESEND_API_KEY = resend.apiKey
  process.env.RESEND_BASE_URL = resend.url
  resetEnvForTests()
  workDir = await mkdtemp(path.join(os.tmpdir(), 'brandcard-secrets-'))
})

afterAll(async () => {
  delete process.env.RESEND_API_KEY
  delete process.env.RESEND_BASE_URL
  resetEnvForTests()
  await resend.close()
  await rm(workDir, { recursive: true, force: true })
})

async function tenantOf(host: string): Promise<Tenant> {
  const resolution = await resolveTenant(host)
  if (resolution.status !== 'found') throw new Error(`no tenant at ${host}`)
  return resolution.tenant
}

const rowsOf = <T>(result: unknown): T[] =>
  Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? [])

/** Every emailed link that carries a token, as the fake Resend received it. */
function linksReceived() {
  const links: { kind: 'query' | 'invitation'; path: string; token: string; host: string }[] = []
  for (const email of resend.emails) {
    const content = [email.html, email.text, ...Object.values(email.headers ?? {})].join('\n')
    for (const match of content.matchAll(
      /https?:\/\/([^/\s"<>]+)(\/[a-z-/]+)\?token=([^&\s"<>]+)/g,
    )) {
      links.push({
        kind: 'query',
        host: match[1] ?? '',
        path: match[2] ?? '',
        token: match[3] ?? '',
      })
    }
    for (const match of content.matchAll(/https?:\/\/([^/\s"<>]+)\/invitations\/([a-z2-7]{52})/g)) {
      links.push({
        kind: 'invitation',
        host: match[1] ?? '',
        path: '/invitations',
        token: match[2] ?? '',
      })
    }
  }
  return links.filter(
    (link, i, all) => all.findIndex((l) => l.token === link.token && l.path === link.path) === i,
  )
}

/** Whether any endpoint that takes a token accepts this one on `host`. */
async function acceptedAnywhere(host: string, token: string) {
  const query = `?token=${encodeURIComponent(token)}`
  const context = contextFor(host)
  const reset = await settle(() =>
    resetLoader({ request: requestFor(host, `/auth/reset-password${query}`), context, params: {} }),
  )
  if (((await reset.json()) as { token: string | null }).token !== null) return 'reset'
  const confirm = await settle(() =>
    confirmLoader({
      request: requestFor(host, `/auth/confirm-email${query}`),
      context,
      params: {},
    }),
  )
  if (((await confirm.json()) as { token: string | null }).token !== null) return 'confirmation'
  const unsubscribe = await settle(() =>
    unsubscribeLoader({
      request: requestFor(host, `/email/unsubscribe${query}`),
      context,
      params: {},
    }),
  )
  if (unsubscribe.status === 200) return 'unsubscribe'
  const segment = encodeURIComponent(token)
  const invitation = await settle(() =>
    invitationLoader({
      request: requestFor(host, `/invitations/${segment}`),
      context,
      params: { token },
    }),
  )
  if (invitation.status !== 404) return 'invitation'
  const leadData = await settle(() =>
    leadDataLoader({ request: requestFor(host, `/lead-data${query}`), context, params: {} }),
  )
  if (leadData.status === 200) return 'lead data'
  // A card follower's confirmation and stop links (ADR 102).
  const follow = await settle(() =>
    followConfirmLoader({
      request: requestFor(host, `/follow/confirm${query}`),
      context,
      params: {},
    }),
  )
  if (follow.status === 200) return 'follow confirmation'
  const stop = await settle(() =>
    followStopLoader({
      request: requestFor(host, `/follow/unsubscribe${query}`),
      context,
      params: {},
    }),
  )
  if (stop.status === 200) return 'follow stop'
  // A departing person's claim of a personal card (ADR 103).
  const claim = await settle(() =>
    personalCardClaimLoader({
      request: requestFor(host, `/personal-card/claim${query}`),
      context,
      params: {},
    }),
  )
  if (claim.status === 200) return 'personal card claim'
  return null
}

test('a backup taken while every emailed link works holds no token any endpoint accepts', async () => {
  const org = await makeOrganization()
  const host = `${org.slug}.localhost`
  const tenant = await tenantOf(host)
  const owner = await makeUser(org.id, { role: 'end_user', plan: 'team_pro' })

  // Password reset.
  await requestPasswordReset(tenant, owner.email, '198.51.100.30')
  // Email confirmation.
  await sendConfirmationEmail(tenant, owner)
  // Team invitation.
  const team = await createTeam(tenant, owner, { name: 'Secrets', description: 'At rest' })
  await addMemberByEmail(tenant, owner, {
    teamId: team.teamId ?? '',
    email: 'invitee@example.test',
  })
  // A notification with its one-click unsubscribe link.
  await sendNewContactEmail(tenant, {
    kind: 'connect',
    ownerId: owner.id,
    contact: { fullName: 'Vic Visitor', email: 'vic@example.test' },
    cause: { clientIp: '203.0.113.9' },
  })
  // A lead's receipt, with the link to see or delete their data (ADR 050).
  const consent = await withTenant(org.id, (tx) => insertConsentText(tx, org.id, 'I agree.'))
  const card = await makeCard(org.id, owner.id)
  const lead = await settle(() =>
    cardAction({
      request: formRequest(host, `/card/${card.id}`, {
        intent: 'lead',
        fullName: 'Lena Lead',
        email: 'lena@example.test',
        consentTextId: consent?.id ?? '',
        consent: 'on',
      }),
      context: contextFor(host, '203.0.113.10'),
      params: { ref: card.id },
    }),
  )
  expect(lead.status).toBe(200)
  // "Keep me updated" (ADR 102): a visitor's confirmation link, and a follower's digest with its
  // one-click stop link (that follower confirmed without an email here, so every link still works).
  const follow = await settle(() =>
    cardAction({
      request: formRequest(host, `/card/${card.id}`, {
        intent: 'follow',
        email: 'fiona@example.test',
      }),
      context: contextFor(host, '203.0.113.11'),
      params: { ref: card.id },
    }),
  )
  expect(follow.status).toBe(200)
  await withTenant(org.id, async (tx) => {
    await askToFollow(tx, org.id, card.id, 'frank@example.test', 'e'.repeat(64))
    await confirmFollower(tx, org.id, 'e'.repeat(64))
  })
  await withTenant(org.id, (tx) =>
    tx
      .update(digitalCards)
      .set({ jobTitle: 'Changed at rest' })
      .where(and(eq(digitalCards.organizationId, org.id), eq(digitalCards.id, card.id))),
  )
  // A personal card offered at a hand-over, with its emailed claim link (ADR 103).
  const leaving = await makeUser(org.id, { firstName: 'Lee', lastName: 'Leaving' })
  await withTenant(org.id, (tx) => offerPersonalCardIn(tx, tenant, leaving, owner.id))
  // An agency's announcement, with its one-click unsubscribe of Marketing Communications.
  await withTenant(org.id, (tx) =>
    saveNotificationPreferences(tx, org.id, owner.id, { marketingEmails: true }),
  )
  const agencyAdmin = await makeUser(org.id, { role: 'agency_admin' })
  const agencyCookie = await sessionCookieFor(org.id, agencyAdmin.id)
  const announced = await settle(() =>
    announcementsAction({
      request: formRequest(
        host,
        '/dashboard/agency/announcements',
        { subject: 'News', body: 'At rest' },
        agencyCookie,
      ),
      context: contextFor(host),
      params: {},
    }),
  )
  expect(announced.status).toBe(302)
  // Set-password of an account a team admin adds.
  const teamAdmin = await makeUser(org.id, { role: 'team_admin' })
  const adminCookie = await sessionCookieFor(org.id, teamAdmin.id)
  const addUser = await settle(() =>
    usersAction({
      request: formRequest(
        host,
        '/dashboard/team-member/users',
        { intent: 'add-user', name: 'Nora New', email: 'nora@example.test', active: 'on' },
        adminCookie,
      ),
      context: contextFor(host),
      params: {},
    }),
  )
  expect(addUser.status).toBe(302)
  // Set-password of a new agency's owner, sent by a super admin.
  const platform = await getPlatformOrganization()
  const superAdmin = await makeUser(platform.id, { role: 'super_admin' })
  const agencySlug = `vault-${org.slug}`.slice(0, 40)
  const superAdminCookie = await sessionCookieFor(platform.id, superAdmin.id)
  const created = await settle(() =>
    agenciesAction({
      request: formRequest(
        'localhost',
        '/dashboard/super-admin/agencies',
        {
          intent: 'create',
          name: 'Vault Agency',
          slug: agencySlug,
          ownerName: 'Olive Owner',
          email: 'olive@example.test',
          subscription: 'starter',
          active: 'on',
        },
        superAdminCookie,
      ),
      context: contextFor('localhost'),
      params: {},
    }),
  )
  expect(created.status).toBe(302)
  // A SCIM token for the agency's identity provider (ADR 089): shown once, kept as a hash.
  const scim = await createScimToken(
    { tenant, user: agencyAdmin, session: { sessionId: 'secrets' } },
    'Entra',
  )
  // A webhook endpoint's signing secrets (ADR 093): shown once, sealed at rest (signing needs
  // them back); rotated, so the previous one rests sealed beside the new one.
  const webhookActor = { organizationId: tenant.id, userId: agencyAdmin.id }
  const hook = await createEndpoint(webhookActor, {
    url: 'https://hooks.example.com/brandcard',
    description: '',
    eventTypes: ['lead.created'],
  })
  const rotated = await rotateEndpointSecret(webhookActor, hook.endpoint.id, 24)
  // An API key (ADR 092): shown once, kept as a hash; its use records the address, not the key.
  const apiKey = await createApiKey(
    { tenant, user: agencyAdmin, session: { sessionId: 'secrets' } },
    { name: 'Integration', scopes: ['cards:read'] },
  )
  await settleBackgroundWork()

  // Every kind reached its recipient, and every link works right now.
  const links = linksReceived()
  const agencyHost = `${agencySlug}.localhost`
  const kinds = links.map((link) => `${link.path}@${link.host.split(':')[0]}`).sort()
  expect(kinds).toEqual(
    [
      `/auth/confirm-email@${host}`,
      `/auth/reset-password@${agencyHost}`,
      `/auth/reset-password@${host}`,
      `/auth/reset-password@${host}`,
      `/email/unsubscribe@${host}`,
      `/email/unsubscribe@${host}`,
      `/follow/confirm@${host}`,
      `/follow/unsubscribe@${host}`,
      `/invitations@${host}`,
      `/lead-data@${host}`,
      `/personal-card/claim@${host}`,
    ].sort(),
  )
  for (const link of links) {
    const at = link.host.split(':')[0] ?? ''
    expect(await acceptedAnywhere(at, decodeURIComponent(link.token)), link.path).not.toBeNull()
  }

  // The backup, with the app's own code, while all of them work.
  const database: DatabaseLocation = onPostgres
    ? { driver: 'postgres', url: process.env.TEST_FILE_DATABASE_URL as string }
    : { driver: 'pglite', client: (getDatabaseHandle() as unknown as { client: PGlite }).client }
  const backupText = async () => {
    const { file } = await takeBackup({ dir: workDir, retention: 1, database })
    return { dump: await readFile(file, 'utf8') }
  }
  const { dump } = await backupText()
  expect(dump).toContain('invitee@example.test')

  // No token in the dump, nor in any table (the outbox, jobs and audit rows included).
  const tables = rowsOf<{ table_name: string }>(
    await getDb().execute(sql`
      select table_name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE'`),
  )
  for (const link of links) {
    const token = decodeURIComponent(link.token)
    expect(dump.includes(token), `${link.path} token in the dump`).toBe(false)
    for (const { table_name: table } of tables) {
      const [row] = rowsOf<{ n: number | string }>(
        await getDb().execute(
          sql`select count(*) as n from ${sql.identifier(table)} t where t::text like ${`%${token}%`}`,
        ),
      )
      expect(Number(row?.n), `${link.path} token in ${table}`).toBe(0)
    }
  }

  // Nor the SCIM token; its hash, which the dump holds, is no bearer token.
  expect(dump.includes(scim.token), 'SCIM token in the dump').toBe(false)
  for (const { table_name: table } of tables) {
    const [row] = rowsOf<{ n: number | string }>(
      await getDb().execute(
        sql`select count(*) as n from ${sql.identifier(table)} t where t::text like ${`%${scim.token}%`}`,
      ),
    )
    expect(Number(row?.n), `SCIM token in ${table}`).toBe(0)
  }
  // Nor a webhook signing secret (its key part, with or without the whsec_ prefix).
  for (const secret of [hook.secret, rotated.secret]) {
    const key = secret.slice('whsec_'.length)
    expect(dump.includes(key), 'webhook secret in the dump').toBe(false)
    for (const { table_name: table } of tables) {
      const [row] = rowsOf<{ n: number | string }>(
        await getDb().execute(
          sql`select count(*) as n from ${sql.identifier(table)} t where t::text like ${`%${key}%`}`,
        ),
      )
      expect(Number(row?.n), `webhook secret in ${table}`).toBe(0)
    }
  }
  const scimHash = hashScimToken(scim.token)
  expect(dump).toContain(scimHash)
  const scimWith = (bearer: string) =>
    scimLoader(
      requestFor(host, '/scim/v2/ServiceProviderConfig', {
        headers: { Authorization: `Bearer ${bearer}` },
      }),
      contextFor(host),
    )
  expect((await scimWith(scimHash)).status).toBe(401)
  expect((await scimWith(scim.token)).status).toBe(200)

  // Nor the API key; its hash is no key (nor even key-shaped: no checksum to pass).
  const apiWith = (bearer: string) =>
    apiLoader(
      requestFor(host, '/api/v1/cards', { headers: { Authorization: `Bearer ${bearer}` } }),
      contextFor(host),
    )
  expect((await apiWith(apiKey.key)).status).toBe(200)
  const { dump: apiDump } = await backupText()
  expect(apiDump.includes(apiKey.key), 'API key in the dump').toBe(false)
  for (const { table_name: table } of tables) {
    const [row] = rowsOf<{ n: number | string }>(
      await getDb().execute(
        sql`select count(*) as n from ${sql.identifier(table)} t where t::text like ${`%${apiKey.key}%`}`,
      ),
    )
    expect(Number(row?.n), `API key in ${table}`).toBe(0)
  }
  const apiHash = hashApiKey(apiKey.key)
  expect(apiDump).toContain(apiHash)
  expect((await apiWith(apiHash)).status).toBe(401)

  // Every token-like value the dump holds (link-shaped, unsubscribe-shaped, or in a link) is
  // refused by every endpoint, on both tenants' hosts.
  const candidates = new Set<string>()
  for (const match of dump.matchAll(/(?<![A-Za-z0-9_-])[a-z2-7]{52}(?![A-Za-z0-9_-])/g)) {
    candidates.add(match[0])
  }
  for (const match of dump.matchAll(/[A-Za-z0-9_-]{20,200}\.[A-Za-z0-9_-]{43}/g)) {
    candidates.add(match[0])
  }
  for (const match of dump.matchAll(/(?:token=|\/invitations\/)([^&\s"'<>\\]+)/g)) {
    candidates.add(decodeURIComponent(match[1] ?? ''))
  }
  // The seeds the outbox keeps to derive the tokens: worthless without APP_SECRET.
  for (const match of dump.matchAll(/"seed":\s*"([^"]+)"/g)) candidates.add(match[1] ?? '')
  expect([...candidates].some((c) => c.startsWith('{removed-secret-'))).toBe(true)
  for (const candidate of candidates) {
    for (const at of [host, agencyHost]) {
      expect(await acceptedAnywhere(at, candidate), `${candidate} on ${at}`).toBeNull()
    }
  }
}, 90_000)

test('migration 0012 takes the tokens out of emails stored before it', async () => {
  const org = await makeOrganization()
  const link = 'abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrst'
  const unsubscribe = 'b3JnOnVzZXI6bm90aWZpY2F0aW9ucw.AAAAbbbbCCCCddddEEEEffffGGGGhhhhIIIIjjjjKKK'
  const [row] = await getDb()
    .insert(emailOutbox)
    .values({
      organizationId: org.id,
      toAddress: 'old@example.test',
      subject: 'Stored before 0012',
      html: `<a href="http://a.localhost/auth/reset-password?token=${link}">Reset</a> <a href="http://a.localhost/invitations/${link}/decline">No</a>`,
      text: `http://a.localhost/auth/confirm-email?token=${link}`,
      headers: {
        'List-Unsubscribe': `<http://a.localhost/email/unsubscribe?token=${unsubscribe}>`,
      },
    })
    .returning({ id: emailOutbox.id })
  // The migration's own statements, as the migrator runs them (one transaction).
  const migration = await readFile('migrations/0012_email_secrets_at_rest.sql', 'utf8')
  const statements = migration.split('--> statement-breakpoint').slice(1)
  await getDb().transaction(async (tx) => {
    for (const statement of statements) await tx.execute(sql.raw(statement))
  })
  const [after] = await getDb()
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.id, row?.id ?? ''))
  const stored = JSON.stringify(after)
  expect(stored).not.toContain(link)
  expect(stored).not.toContain(unsubscribe.split('.')[1])
  expect(after?.html).toContain('/auth/reset-password?token={removed-secret}')
  expect(after?.html).toContain('/invitations/{removed-secret}/decline')
  expect(after?.text).toContain('/auth/confirm-email?token={removed-secret}')
  expect(after?.headers['List-Unsubscribe']).toBe(
    '<http://a.localhost/email/unsubscribe?token={removed-secret}>',
  )
})

test('CRM credentials rest sealed: no table and no backup holds a GoHighLevel key, HubSpot token or Salesforce secret in clear (ADR 094)', async () => {
  const crm = await startFakeCrm({ validKeys: [CRM_SECRETS.gohighlevel] })
  const hubspot = await startFakeHubspot({ validTokens: [CRM_SECRETS.hubspot] })
  const salesforce = await startFakeSalesforce({
    clients: [{ clientId: 'sf-client-id', clientSecret: CRM_SECRETS.salesforce }],
  })
  process.env.GOHIGHLEVEL_API_URL = crm.url
  process.env.HUBSPOT_API_URL = hubspot.url
  resetEnvForTests()
  try {
    const org = await makeOrganization()
    const host = `${org.slug}.localhost`
    const owner = await makeUser(org.id)
    const cookie = await sessionCookieFor(org.id, owner.id)
    const save = (fields: Record<string, string>) =>
      settle(() =>
        apiSettingsAction({
          request: formRequest(host, '/api-settings', fields, cookie),
          context: contextFor(host),
          params: {},
        }),
      )
    // Each CRM's credentials saved through the screen (each checked against its fake).
    expect((await save({ intent: 'save', apiKey: CRM_SECRETS.gohighlevel })).status).toBe(302)
    expect((await save({ intent: 'save-hubspot', hubspotToken: CRM_SECRETS.hubspot })).status).toBe(
      302,
    )
    expect(
      (
        await save({
          intent: 'save-salesforce',
          salesforceUrl: salesforce.url,
          salesforceClientId: 'sf-client-id',
          salesforceClientSecret: CRM_SECRETS.salesforce,
        })
      ).status,
    ).toBe(302)
    const tables = rowsOf<{ table_name: string }>(
      await getDb().execute(sql`
        select table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE'`),
    )
    const database: DatabaseLocation = onPostgres
      ? { driver: 'postgres', url: process.env.TEST_FILE_DATABASE_URL as string }
      : { driver: 'pglite', client: (getDatabaseHandle() as unknown as { client: PGlite }).client }
    const { file } = await takeBackup({ dir: workDir, retention: 1, database })
    const dump = await readFile(file, 'utf8')
    for (const [crmName, secret] of Object.entries(CRM_SECRETS)) {
      expect(dump.includes(secret), `${crmName} secret in the dump`).toBe(false)
      // The columns that hold them are sealed values (v1.…), not the secret.
      for (const { table_name: table } of tables) {
        const [row] = rowsOf<{ n: number | string }>(
          await getDb().execute(
            sql`select count(*) as n from ${sql.identifier(table)} t where t::text like ${`%${secret.slice(4, 20)}%`}`,
          ),
        )
        expect(Number(row?.n), `${crmName} secret in ${table}`).toBe(0)
      }
    }
    const [row] = await getDb().select().from(apiSettings).where(eq(apiSettings.userId, owner.id))
    expect(row?.gohighlevelApiKeyEncrypted).toMatch(/^v1\./)
    expect(row?.hubspotTokenEncrypted).toMatch(/^v1\./)
    expect(row?.salesforceClientSecretEncrypted).toMatch(/^v1\./)
  } finally {
    delete process.env.GOHIGHLEVEL_API_URL
    delete process.env.HUBSPOT_API_URL
    resetEnvForTests()
    await crm.close()
    await hubspot.close()
    await salesforce.close()
  }
}, 60_000)
