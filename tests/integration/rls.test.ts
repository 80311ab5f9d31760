// Row-level security under the model functions: even a query without a tenant filter sees
// only the current tenant's rows, and with no tenant set it sees none.
import { getTableName, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { getPlatformScope } from '#app/auth/guards.server'
import {
  recordDepartedAddresses,
  scheduleAccountDeletion,
} from '#app/models/account-deletions.server'
import { insertAnnouncement } from '#app/models/announcements.server'
import { saveBillingCustomer, saveBillingSubscription } from '#app/models/billing-accounts.server'
import { insertTemplate } from '#app/models/card-templates.server'
import { replaceCardLinks } from '#app/models/cards.server'
import { insertConsentText } from '#app/models/consent-texts.server'
import { insertDataExport } from '#app/models/data-exports.server'
import { insertPasskey } from '#app/models/passkeys.server'
import { setSeatSuccessor } from '#app/models/seat-successors.server'
import { insertOidcProvider, insertSsoDomain } from '#app/models/sso.server'
import { insertStripeEvent } from '#app/models/stripe-events.server'
import { findOrCreateWalletPass, registerWalletDevice } from '#app/models/wallet-passes.server'
import {
  insertWebhookDelivery,
  insertWebhookEndpoint,
  insertWebhookMessage,
  recordWebhookAttempt,
  saveWebhookDigestCursor,
} from '#app/models/webhooks.server'
import { getDb, type PlatformScopeGrant, withPlatformScope, withTenant } from '#drizzle/db.server'
import {
  accountDeletions,
  announcements,
  auditEvents,
  billingAccounts,
  cardLinks,
  cardSlugs,
  cardTemplates,
  consentTexts,
  dataExports,
  departedAddresses,
  digitalCards,
  googleWalletObjects,
  passkeys,
  seatSuccessors,
  ssoDomains,
  ssoProviders,
  stripeEvents,
  tenantTables,
  walletPasses,
  walletRegistrations,
  webhookAttempts,
  webhookDeliveries,
  webhookDigestCursors,
  webhookEndpoints,
  webhookMessages,
} from '#drizzle/schema'
import { rowsOf } from '#tests/checksum'
import {
  contextFor,
  getPlatformOrganization,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
} from '#tests/factories'

async function twoTenants() {
  const a = await makeOrganization()
  const b = await makeOrganization()
  const userA = await makeUser(a.id)
  const userB = await makeUser(b.id)
  const cardA = await makeCard(a.id, userA.id)
  const cardB = await makeCard(b.id, userB.id)
  return { a, b, userA, userB, cardA, cardB }
}

describe('row-level security', () => {
  test('an unfiltered query inside a tenant sees only that tenant', async () => {
    const { a, cardA, cardB } = await twoTenants()
    const ids = await withTenant(a.id, async (tx) =>
      (await tx.select({ id: digitalCards.id }).from(digitalCards)).map((r) => r.id),
    )
    expect(ids).toContain(cardA.id)
    expect(ids).not.toContain(cardB.id)
  })

  test('with no tenant set, tenant tables return no rows', async () => {
    await twoTenants()
    const rows = await getDb().transaction(async (tx) => {
      await tx.execute(sql`set local role brandcard_app`)
      return tx.select().from(digitalCards)
    })
    expect(rows).toEqual([])
  })

  test('every tenant table forces row-level security and has a policy', async () => {
    const names = Object.values(tenantTables).map((table) => getTableName(table))
    const result = await getDb().execute(
      sql`select c.relname as name, c.relforcerowsecurity as forced,
            (select count(*)::int from pg_policies p where p.tablename = c.relname) as policies
          from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'`,
    )
    const rows = rowsOf<{ name: string; forced: boolean; policies: number }>(result)
    for (const name of names) {
      const row = rows.find((r) => r.name === name)
      expect(row, name).toMatchObject({ forced: true })
      expect(row?.policies, name).toBeGreaterThan(0)
    }
    expect(names).toContain('card_slugs')
    expect(names).toContain('card_event_hours')
    expect(names).toContain('announcements')
    expect(names).toContain('passkeys')
    expect(names).toContain('consent_texts')
    expect(names).toContain('card_templates')
    expect(names).toContain('seat_successors')
    expect(names).toEqual(expect.arrayContaining(['account_deletions', 'departed_addresses']))
    expect(names).toEqual(expect.arrayContaining(['billing_accounts', 'stripe_events']))
    expect(names).toContain('google_wallet_objects')
    expect(names).toContain('data_exports')
    expect(names).toContain('plan_requests')
    expect(names).toEqual(expect.arrayContaining(['sso_providers', 'sso_domains']))
    expect(names).toEqual(expect.arrayContaining(['scim_tokens', 'scim_events']))
    expect(names).toEqual(
      expect.arrayContaining([
        'webhook_endpoints',
        'webhook_messages',
        'webhook_deliveries',
        'webhook_attempts',
        'webhook_digest_cursors',
      ]),
    )
    expect(names).toEqual(expect.arrayContaining(['api_keys', 'api_idempotency_keys']))
    expect(names).toEqual(expect.arrayContaining(['wallet_passes', 'wallet_registrations']))
  })

  test("single sign-on: a tenant sees only its own providers and domains, and cannot claim for another's provider", async () => {
    const { a, b } = await twoTenants()
    const values = {
      displayName: 'IdP',
      issuerUrl: 'https://idp.example.test',
      clientId: 'client',
      clientSecretSealed: 'v1.not.a.secret',
      jitRole: 'end_user' as const,
      enabled: true,
    }
    const providerB = await withTenant(b.id, (tx) => insertOidcProvider(tx, b.id, values))
    await withTenant(b.id, (tx) =>
      insertSsoDomain(tx, b.id, { providerId: providerB.id, domain: 'b.example.test', token: 't' }),
    )
    const seen = await withTenant(a.id, async (tx) => ({
      providers: await tx.select().from(ssoProviders),
      domains: await tx.select().from(ssoDomains),
    }))
    expect(seen.providers.filter((row) => row.organizationId === b.id)).toEqual([])
    expect(seen.domains.filter((row) => row.organizationId === b.id)).toEqual([])
    await expect(
      withTenant(a.id, (tx) =>
        tx.insert(ssoDomains).values({
          organizationId: b.id,
          providerId: providerB.id,
          domain: 'taken.example.test',
          token: 'x',
        }),
      ),
    ).rejects.toThrow()
    const changed = await withTenant(a.id, (tx) =>
      tx
        .update(ssoProviders)
        .set({ enabled: false })
        .where(sql`${ssoProviders.id} = ${providerB.id}`)
        .returning(),
    )
    expect(changed).toEqual([])
  })

  test("webhooks: a tenant sees only its own endpoints, log and digest cursor, and cannot deliver to another's endpoint", async () => {
    const { a, b } = await twoTenants()
    const seeded = await withTenant(b.id, async (tx) => {
      const endpoint = await insertWebhookEndpoint(tx, b.id, {
        url: 'https://hooks.b.example.test/',
        description: '',
        eventTypes: ['lead.created'],
        secretSealed: 'v1.not.a.secret',
        createdByUserId: null,
      })
      const message = await insertWebhookMessage(tx, b.id, {
        eventType: 'lead.created',
        payload: { type: 'lead.created' },
      })
      if (!message) throw new Error('no message')
      const delivery = await insertWebhookDelivery(tx, b.id, {
        endpointId: endpoint.id,
        messageId: message.id,
        nextAttemptAt: new Date(),
      })
      await recordWebhookAttempt(tx, b.id, { deliveryId: delivery.id, statusCode: 500 })
      await saveWebhookDigestCursor(tx, b.id, 'card.viewed', new Date('2026-11-30T10:00Z'))
      return { endpoint, message, delivery }
    })
    const seen = await withTenant(a.id, async (tx) => ({
      endpoints: await tx.select().from(webhookEndpoints),
      messages: await tx.select().from(webhookMessages),
      deliveries: await tx.select().from(webhookDeliveries),
      attempts: await tx.select().from(webhookAttempts),
      cursors: await tx.select().from(webhookDigestCursors),
    }))
    for (const rows of Object.values(seen)) {
      expect(rows.filter((row) => row.organizationId === b.id)).toEqual([])
    }
    await expect(
      withTenant(a.id, (tx) =>
        tx.insert(webhookDeliveries).values({
          organizationId: b.id,
          endpointId: seeded.endpoint.id,
          messageId: seeded.message.id,
        }),
      ),
    ).rejects.toThrow()
    const changed = await withTenant(a.id, (tx) =>
      tx
        .update(webhookEndpoints)
        .set({ url: 'https://evil.example.test/' })
        .where(sql`${webhookEndpoints.id} = ${seeded.endpoint.id}`)
        .returning(),
    )
    expect(changed).toEqual([])
    // Nor move another's digest cursor (which would skip or repeat its hours).
    await expect(
      withTenant(a.id, (tx) =>
        tx.insert(webhookDigestCursors).values({
          organizationId: b.id,
          eventType: 'card.viewed',
          lastHour: new Date('2030-01-01T00:00Z'),
        }),
      ),
    ).rejects.toThrow()
    const moved = await withTenant(a.id, (tx) =>
      tx
        .update(webhookDigestCursors)
        .set({ lastHour: new Date('2030-01-01T00:00Z') })
        .where(sql`${webhookDigestCursors.organizationId} = ${b.id}`)
        .returning(),
    )
    expect(moved).toEqual([])
  })

  test("wallet passes: a tenant sees only its own passes and devices, and cannot write another's", async () => {
    const { a, b, cardA, cardB } = await twoTenants()
    const passA = await withTenant(a.id, (tx) =>
      findOrCreateWalletPass(tx, a.id, cardA.id, null, 'a'),
    )
    const passB = await withTenant(b.id, (tx) =>
      findOrCreateWalletPass(tx, b.id, cardB.id, null, 'b'),
    )
    await withTenant(b.id, (tx) => registerWalletDevice(tx, b.id, passB.id, 'device-b', 'push-b'))
    const seen = await withTenant(a.id, async (tx) => ({
      passes: (await tx.select({ id: walletPasses.id }).from(walletPasses)).map((r) => r.id),
      devices: await tx.select().from(walletRegistrations),
    }))
    expect(seen.passes).toContain(passA.id)
    expect(seen.passes).not.toContain(passB.id)
    expect(seen.devices.filter((row) => row.organizationId === b.id)).toEqual([])
    await expect(
      withTenant(a.id, (tx) =>
        tx.insert(walletRegistrations).values({
          organizationId: b.id,
          passId: passB.id,
          deviceLibraryId: 'intruder',
          pushToken: 'push-x',
        }),
      ),
    ).rejects.toThrow()
    const changed = await withTenant(a.id, (tx) =>
      tx
        .update(walletPasses)
        .set({ contentHash: 'stolen' })
        .where(sql`${walletPasses.id} = ${passB.id}`)
        .returning(),
    )
    expect(changed).toEqual([])
  })

  test("data exports (ADR 052): a tenant sees only its own zips and cannot write another's", async () => {
    const { a, b, userA, userB } = await twoTenants()
    const mine = await withTenant(a.id, (tx) => insertDataExport(tx, a.id, userA.id))
    const theirs = await withTenant(b.id, (tx) => insertDataExport(tx, b.id, userB.id))
    if (!mine || !theirs) throw new Error('exports not stored')
    const seen = await withTenant(a.id, async (tx) =>
      (await tx.select({ id: dataExports.id }).from(dataExports)).map((r) => r.id),
    )
    expect(seen).toContain(mine.id)
    expect(seen).not.toContain(theirs.id)
    await expect(
      withTenant(a.id, (tx) =>
        tx.insert(dataExports).values({ organizationId: b.id, userId: userB.id }),
      ),
    ).rejects.toThrow()
    const changed = await withTenant(a.id, (tx) =>
      tx
        .update(dataExports)
        .set({ state: 'ready', zip: Buffer.from('stolen') })
        .where(sql`${dataExports.id} = ${theirs.id}`)
        .returning({ id: dataExports.id }),
    )
    expect(changed).toEqual([])
  })

  test("announcements (ADR 046): a tenant sees only its own and cannot write another's", async () => {
    const { a, b, userA, userB } = await twoTenants()
    const mine = await withTenant(a.id, (tx) =>
      insertAnnouncement(tx, a.id, { sentByUserId: userA.id, subject: 'A', body: 'a' }),
    )
    const theirs = await withTenant(b.id, (tx) =>
      insertAnnouncement(tx, b.id, { sentByUserId: userB.id, subject: 'B', body: 'b' }),
    )
    const seen = await withTenant(a.id, async (tx) =>
      (await tx.select({ id: announcements.id }).from(announcements)).map((r) => r.id),
    )
    expect(seen).toContain(mine.id)
    expect(seen).not.toContain(theirs.id)
    await expect(
      withTenant(a.id, (tx) =>
        tx.insert(announcements).values({ organizationId: b.id, subject: 'x', body: 'x' }),
      ),
    ).rejects.toThrow()
    const changed = await withTenant(a.id, (tx) =>
      tx
        .update(announcements)
        .set({ status: 'failed' })
        .where(sql`${announcements.id} = ${theirs.id}`)
        .returning(),
    )
    expect(changed).toEqual([])
  })

  test("billing (ADR 051): a tenant sees only its own accounts and Stripe events, and cannot write another's", async () => {
    const { a, b, userA, userB } = await twoTenants()
    const subscription = (organizationId: string, userId: string) =>
      withTenant(organizationId, async (tx) => {
        const account = await saveBillingCustomer(
          tx,
          organizationId,
          { seatUserId: userId },
          `cus_${organizationId}`,
        )
        return saveBillingSubscription(tx, organizationId, account?.id ?? '', {
          stripeSubscriptionId: `sub_${organizationId}`,
          plan: 'team_basic',
          status: 'active',
          graceEndsAt: null,
        })
      })
    const mine = await subscription(a.id, userA.id)
    const theirs = await subscription(b.id, userB.id)
    const event = (organizationId: string) =>
      withTenant(organizationId, (tx) =>
        insertStripeEvent(tx, organizationId, {
          id: `evt_${organizationId}`,
          type: 'invoice.paid',
          data: {},
          occurredAt: new Date(),
        }),
      )
    await event(a.id)
    await event(b.id)
    const seen = await withTenant(a.id, async (tx) => ({
      accounts: (await tx.select({ id: billingAccounts.id }).from(billingAccounts)).map(
        (r) => r.id,
      ),
      events: (await tx.select({ id: stripeEvents.id }).from(stripeEvents)).map((r) => r.id),
    }))
    expect(seen.accounts).toContain(mine?.id)
    expect(seen.accounts).not.toContain(theirs?.id)
    expect(seen.events).toContain(`evt_${a.id}`)
    expect(seen.events).not.toContain(`evt_${b.id}`)
    await expect(
      withTenant(a.id, (tx) =>
        tx.insert(stripeEvents).values({
          id: `evt_intruder_${b.id}`,
          organizationId: b.id,
          type: 'invoice.paid',
          data: {},
          occurredAt: new Date(),
        }),
      ),
    ).rejects.toThrow()
    const changed = await withTenant(a.id, (tx) =>
      tx
        .update(billingAccounts)
        .set({ plan: 'free' })
        .where(sql`${billingAccounts.id} = ${theirs?.id ?? ''}`)
        .returning(),
    )
    expect(changed).toEqual([])
  })

  test("consent texts (ADR 050): a tenant sees only its own and cannot write another's", async () => {
    const { a, b } = await twoTenants()
    const mine = await withTenant(a.id, (tx) => insertConsentText(tx, a.id, 'Consent of A'))
    const theirs = await withTenant(b.id, (tx) => insertConsentText(tx, b.id, 'Consent of B'))
    if (!mine || !theirs) throw new Error('consent texts not stored')
    const seen = await withTenant(a.id, async (tx) =>
      (await tx.select({ id: consentTexts.id }).from(consentTexts)).map((r) => r.id),
    )
    expect(seen).toContain(mine.id)
    expect(seen).not.toContain(theirs.id)
    await expect(
      withTenant(a.id, (tx) =>
        tx.insert(consentTexts).values({ organizationId: b.id, version: 99, body: 'x' }),
      ),
    ).rejects.toThrow()
    const changed = await withTenant(a.id, (tx) =>
      tx
        .update(consentTexts)
        .set({ body: 'stolen' })
        .where(sql`${consentTexts.id} = ${theirs.id}`)
        .returning(),
    )
    expect(changed).toEqual([])
  })

  test("seat successors (ADR 049): a tenant sees only its own and cannot write another's", async () => {
    const { a, b, userA, userB } = await twoTenants()
    const successorA = await makeUser(a.id)
    const successorB = await makeUser(b.id)
    await withTenant(a.id, (tx) => setSeatSuccessor(tx, a.id, userA.id, successorA.id, null))
    await withTenant(b.id, (tx) => setSeatSuccessor(tx, b.id, userB.id, successorB.id, null))
    const seen = await withTenant(a.id, (tx) => tx.select().from(seatSuccessors))
    expect(seen.map((row) => row.userId)).toContain(userA.id)
    expect(seen.filter((row) => row.organizationId === b.id)).toEqual([])
    await expect(
      withTenant(a.id, (tx) =>
        tx
          .insert(seatSuccessors)
          .values({ organizationId: b.id, userId: successorB.id, successorId: userB.id }),
      ),
    ).rejects.toThrow()
    const changed = await withTenant(a.id, (tx) =>
      tx
        .update(seatSuccessors)
        .set({ successorId: userB.id })
        .where(sql`${seatSuccessors.userId} = ${userB.id}`)
        .returning(),
    )
    expect(changed).toEqual([])
  })

  test("pending deletions and departed addresses (ADR 053): a tenant sees only its own and cannot write another's", async () => {
    const { a, b, userA, userB } = await twoTenants()
    const later = new Date(Date.now() + 86_400_000)
    await withTenant(a.id, (tx) => scheduleAccountDeletion(tx, a.id, userA.id, later))
    await withTenant(b.id, (tx) => scheduleAccountDeletion(tx, b.id, userB.id, later))
    await withTenant(a.id, (tx) =>
      recordDepartedAddresses(tx, a.id, [{ kind: 'slug', address: 'gone-a' }], null, later),
    )
    await withTenant(b.id, (tx) =>
      recordDepartedAddresses(tx, b.id, [{ kind: 'slug', address: 'gone-b' }], null, later),
    )
    const deletions = await withTenant(a.id, (tx) => tx.select().from(accountDeletions))
    expect(deletions.map((row) => row.userId)).toContain(userA.id)
    expect(deletions.filter((row) => row.organizationId === b.id)).toEqual([])
    const addresses = await withTenant(a.id, (tx) => tx.select().from(departedAddresses))
    expect(addresses.map((row) => row.address)).toContain('gone-a')
    expect(addresses.filter((row) => row.organizationId === b.id)).toEqual([])
    await expect(
      withTenant(a.id, (tx) =>
        tx
          .insert(departedAddresses)
          .values({ organizationId: b.id, kind: 'slug', address: 'x', heldUntil: later }),
      ),
    ).rejects.toThrow()
    await expect(
      withTenant(a.id, (tx) =>
        tx
          .insert(accountDeletions)
          .values({ organizationId: b.id, userId: userB.id, scheduledFor: new Date() }),
      ),
    ).rejects.toThrow()
    const moved = await withTenant(a.id, (tx) =>
      tx
        .update(accountDeletions)
        .set({ scheduledFor: new Date() })
        .where(sql`${accountDeletions.userId} = ${userB.id}`)
        .returning(),
    )
    expect(moved).toEqual([])
    const dropped = await withTenant(a.id, (tx) =>
      tx.delete(departedAddresses).where(sql`${departedAddresses.address} = 'gone-b'`).returning(),
    )
    expect(dropped).toEqual([])
  })

  test("card templates (ADR 048): a tenant sees only its own and cannot write another's", async () => {
    const { a, b } = await twoTenants()
    const mine = await withTenant(a.id, (tx) => insertTemplate(tx, a.id, { name: 'A' }))
    const theirs = await withTenant(b.id, (tx) => insertTemplate(tx, b.id, { name: 'B' }))
    const seen = await withTenant(a.id, async (tx) =>
      (await tx.select({ id: cardTemplates.id }).from(cardTemplates)).map((r) => r.id),
    )
    expect(seen).toContain(mine.id)
    expect(seen).not.toContain(theirs.id)
    await expect(
      withTenant(a.id, (tx) =>
        tx.insert(cardTemplates).values({ organizationId: b.id, name: 'x' }),
      ),
    ).rejects.toThrow()
    const changed = await withTenant(a.id, (tx) =>
      tx
        .update(cardTemplates)
        .set({ company: 'stolen' })
        .where(sql`${cardTemplates.id} = ${theirs.id}`)
        .returning(),
    )
    expect(changed).toEqual([])
  })

  test("passkeys (ADR 045): a tenant sees only its own and cannot write another's", async () => {
    const { a, b, userA, userB } = await twoTenants()
    const key = (organizationId: string, userId: string, credentialId: string) => ({
      credentialId,
      publicKey: Buffer.from([1, 2, 3]),
      counter: 0,
      transports: [],
      name: credentialId,
      organizationId,
      userId,
    })
    const mine = await withTenant(a.id, async (tx) =>
      insertPasskey(tx, a.id, userA.id, key(a.id, userA.id, `rls-a-${a.id}`)),
    )
    const theirs = await withTenant(b.id, async (tx) =>
      insertPasskey(tx, b.id, userB.id, key(b.id, userB.id, `rls-b-${b.id}`)),
    )
    if (!mine || !theirs) throw new Error('passkeys not stored')
    const seen = await withTenant(a.id, async (tx) =>
      (await tx.select({ id: passkeys.id }).from(passkeys)).map((r) => r.id),
    )
    expect(seen).toContain(mine.id)
    expect(seen).not.toContain(theirs.id)
    await expect(
      withTenant(a.id, (tx) => tx.insert(passkeys).values(key(b.id, userB.id, 'intruder'))),
    ).rejects.toThrow()
    const changed = await withTenant(a.id, (tx) =>
      tx
        .update(passkeys)
        .set({ name: 'stolen' })
        .where(sql`${passkeys.id} = ${theirs.id}`)
        .returning(),
    )
    expect(changed).toEqual([])
  })

  test("short links: a tenant sees only its own slugs and cannot write another's", async () => {
    const { a, cardA, cardB } = await twoTenants()
    const seen = await withTenant(a.id, async (tx) =>
      (await tx.select({ cardId: cardSlugs.cardId }).from(cardSlugs)).map((r) => r.cardId),
    )
    expect(seen).toContain(cardA.id)
    expect(seen).not.toContain(cardB.id)
    await expect(
      withTenant(a.id, (tx) =>
        tx
          .insert(cardSlugs)
          .values({ organizationId: cardB.organizationId, cardId: cardB.id, slug: 'stolen' }),
      ),
    ).rejects.toThrow()
    const retired = await withTenant(a.id, (tx) =>
      tx
        .update(cardSlugs)
        .set({ retiredAt: new Date() })
        .where(sql`${cardSlugs.cardId} = ${cardB.id}`)
        .returning(),
    )
    expect(retired).toEqual([])
  })

  test("Google Wallet objects (issue 29): a tenant sees only its own and cannot write another's", async () => {
    const { a, b, cardA, cardB } = await twoTenants()
    await withTenant(b.id, (tx) =>
      tx
        .insert(googleWalletObjects)
        .values({ organizationId: b.id, cardId: cardB.id, objectId: `3388.card-${cardB.id}` }),
    )
    await withTenant(a.id, (tx) =>
      tx
        .insert(googleWalletObjects)
        .values({ organizationId: a.id, cardId: cardA.id, objectId: `3388.card-${cardA.id}` }),
    )
    const seen = await withTenant(a.id, async (tx) =>
      (await tx.select({ cardId: googleWalletObjects.cardId }).from(googleWalletObjects)).map(
        (r) => r.cardId,
      ),
    )
    expect(seen).toEqual([cardA.id])
    await expect(
      withTenant(a.id, (tx) =>
        tx
          .insert(googleWalletObjects)
          .values({ organizationId: b.id, cardId: cardB.id, objectId: 'stolen' }),
      ),
    ).rejects.toThrow()
    const patched = await withTenant(a.id, (tx) =>
      tx
        .update(googleWalletObjects)
        .set({ patchedAt: new Date() })
        .where(sql`${googleWalletObjects.cardId} = ${cardB.id}`)
        .returning(),
    )
    expect(patched).toEqual([])
  })

  test("writing another tenant's rows is refused, updating them changes nothing", async () => {
    const { a, userB, cardB } = await twoTenants()
    await expect(
      withTenant(a.id, (tx) =>
        tx.insert(digitalCards).values({
          organizationId: userB.organizationId,
          userId: userB.id,
          title: 'x',
          firstName: 'x',
          lastName: 'y',
        }),
      ),
    ).rejects.toThrow()
    const updated = await withTenant(a.id, (tx) =>
      tx
        .update(digitalCards)
        .set({ title: 'stolen' })
        .where(sql`${digitalCards.id} = ${cardB.id}`)
        .returning(),
    )
    expect(updated).toEqual([])
  })

  test("a card's links (issue 28) are the tenant's alone: unfiltered reads and foreign writes", async () => {
    const { a, b, userA, userB, cardA, cardB } = await twoTenants()
    await withTenant(a.id, (tx) =>
      replaceCardLinks(tx, a.id, userA.id, cardA.id, [
        { kind: 'github', label: '', url: 'https://github.com/a' },
      ]),
    )
    await withTenant(b.id, (tx) =>
      replaceCardLinks(tx, b.id, userB.id, cardB.id, [
        { kind: 'github', label: '', url: 'https://github.com/b' },
      ]),
    )
    const seen = await withTenant(a.id, async (tx) =>
      (await tx.select({ url: cardLinks.url }).from(cardLinks)).map((r) => r.url),
    )
    expect(seen).toContain('https://github.com/a')
    expect(seen).not.toContain('https://github.com/b')
    await expect(
      withTenant(a.id, (tx) =>
        tx.insert(cardLinks).values({
          organizationId: b.id,
          cardId: cardB.id,
          position: 5,
          kind: 'custom',
          label: 'x',
          url: 'https://evil.example.test',
        }),
      ),
    ).rejects.toThrow()
    const deleted = await withTenant(a.id, (tx) =>
      tx.delete(cardLinks).where(sql`${cardLinks.cardId} = ${cardB.id}`).returning(),
    )
    expect(deleted).toEqual([])
  })

  test('every tenant table forces row-level security and has a tenant policy', async () => {
    const names = Object.values(tenantTables).map((table) => getTableName(table))
    const rows = (await getDb().execute(sql`
      select c.relname as name, c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
        (select count(*)::int from pg_policies p where p.tablename = c.relname) as policies
      from pg_class c where c.relkind = 'r' and c.relnamespace = 'public'::regnamespace
    `)) as unknown as { rows?: unknown[] } | unknown[]
    const list = (Array.isArray(rows) ? rows : (rows.rows ?? [])) as {
      name: string
      enabled: boolean
      forced: boolean
      policies: number
    }[]
    for (const name of names) {
      const row = list.find((r) => r.name === name)
      expect(row, name).toMatchObject({ enabled: true, forced: true })
      expect(row?.policies, name).toBeGreaterThan(0)
    }
  })

  test('the platform scope reads across tenants for a super admin, and each use is audited', async () => {
    const { cardA, cardB } = await twoTenants()
    const platform = await getPlatformOrganization()
    const admin = await makeUser(platform.id, { role: 'super_admin' })
    const { platformScope } = await getPlatformScope(
      requestFor('localhost', '/', {
        headers: { Cookie: await sessionCookieFor(platform.id, admin.id) },
      }),
      contextFor('localhost'),
    )
    if (!platformScope) throw new Error('a super admin on the platform host gets the scope')
    const ids = await withPlatformScope(platformScope, 'test read', async (tx) =>
      (await tx.select({ id: digitalCards.id }).from(digitalCards)).map((r) => r.id),
    )
    expect(ids).toEqual(expect.arrayContaining([cardA.id, cardB.id]))
    const audits = await withTenant(platform.id, (tx) =>
      tx.select().from(auditEvents).where(sql`${auditEvents.actorUserId} = ${admin.id}`),
    )
    expect(audits).toMatchObject([
      { action: 'platform.read', entityType: 'platform', metadata: { purpose: 'test read' } },
    ])
  })

  test('only the guard gives the platform scope: other roles, other hosts and forged grants get none', async () => {
    const { a } = await twoTenants()
    const platform = await getPlatformOrganization()
    const platformUser = await makeUser(platform.id, { role: 'super_admin_team' })
    const agencyAdmin = await makeUser(a.id, { role: 'agency_admin' })
    const asPlatformUser = await getPlatformScope(
      requestFor('localhost', '/', {
        headers: { Cookie: await sessionCookieFor(platform.id, platformUser.id) },
      }),
      contextFor('localhost'),
    )
    expect(asPlatformUser.platformScope).toBeNull()
    const asAgencyAdmin = await getPlatformScope(
      requestFor(`${a.slug}.localhost`, '/', {
        headers: { Cookie: await sessionCookieFor(a.id, agencyAdmin.id) },
      }),
      contextFor(`${a.slug}.localhost`),
    )
    expect(asAgencyAdmin.platformScope).toBeNull()
    const forged = { actorUserId: agencyAdmin.id, organizationId: a.id } as PlatformScopeGrant
    await expect(withPlatformScope(forged, 'forged', async () => 1)).rejects.toThrow(
      /grant from the super-admin guard/,
    )
  })
})
