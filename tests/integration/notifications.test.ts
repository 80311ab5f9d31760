// Notification preferences (spec §3: notifications on, marketing emails off by default), the
// new-contact and new-lead emails that honour them, and the one-click unsubscribe (RFC 8058).
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { and, eq } from 'drizzle-orm'
import { afterEach, describe, expect, test } from 'vitest'
import { createUnsubscribeToken, readUnsubscribeToken } from '#app/email/unsubscribe-token.server'
import { resetEnvForTests } from '#app/env.server'
import { getNotificationPreferences } from '#app/notifications/preferences.server'
import { action as cardAction, loader as cardLoader } from '#app/routes/card.$ref'
import {
  action as unsubscribeAction,
  loader as unsubscribeLoader,
} from '#app/routes/email.unsubscribe'
import { action as profileAction, loader as profileLoader } from '#app/routes/profile._index'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { getDb, withTenant } from '#drizzle/db.server'
import { auditEvents, emailOutbox, userSettings } from '#drizzle/schema'
import { databaseChecksum } from '#tests/checksum'
import {
  contextFor,
  formRequest,
  makeBrandedOrganization,
  makeCard,
  makeUser,
  replyErrors,
  requestFor,
  sessionCookieFor,
  settle,
  settleBackgroundWork,
} from '#tests/factories'
import { asDelivered } from '#tests/inbox'

afterEach(() => {
  delete process.env.RESEND_API_KEY
  delete process.env.RESEND_BASE_URL
  resetEnvForTests()
})

async function setup(name = 'Notify Co') {
  const { organization } = await makeBrandedOrganization({ name, primaryColor: '#0f766e' })
  const host = `${organization.slug}.localhost`
  const owner = await makeUser(organization.id, {
    firstName: 'Nora',
    lastName: 'Owner',
    email: `nora-${organization.slug}@example.test`,
  })
  const card = await makeCard(organization.id, owner.id, { firstName: 'Nora', lastName: 'Owner' })
  const visitor = await makeUser(organization.id, {
    firstName: 'Vic',
    lastName: 'Visitor',
    email: `vic-${organization.slug}@example.test`,
  })
  return { organization, host, owner, card, visitor }
}

type World = Awaited<ReturnType<typeof setup>>

const preferencesOf = (world: World, userId: string) =>
  withTenant(world.organization.id, (tx) =>
    getNotificationPreferences(tx, world.organization.id, userId),
  )

// As the recipient got them: the outbox itself keeps no unsubscribe token (ADR 028).
const outboxOf = async (organizationId: string) =>
  asDelivered(
    await getDb().select().from(emailOutbox).where(eq(emailOutbox.organizationId, organizationId)),
  )

async function connect(world: World) {
  const cookie = await sessionCookieFor(world.organization.id, world.visitor.id)
  return settle(() =>
    cardAction({
      request: formRequest(world.host, `/card/${world.card.id}`, { intent: 'connect' }, cookie),
      context: contextFor(world.host),
      params: { ref: world.card.id },
    }),
  )
}

async function saveProfilePreferences(
  world: World,
  fields: Record<string, string>,
  signedIn?: string,
) {
  const cookie = signedIn ?? (await sessionCookieFor(world.organization.id, world.owner.id))
  return settle(() =>
    profileAction({
      request: formRequest(
        world.host,
        '/profile?index&tab=notifications',
        { intent: 'notifications', ...fields },
        cookie,
      ),
      context: contextFor(world.host),
      params: {},
    }),
  )
}

function unsubscribeUrlIn(headers: Record<string, string>) {
  return /^<(https?:\/\/[^>]+)>$/.exec(headers['List-Unsubscribe'] ?? '')?.[1] ?? ''
}

/** A POST as a mailbox provider sends it: no cookies, no Origin, the RFC 8058 body. */
function oneClick(host: string, path: string, body = 'List-Unsubscribe=One-Click') {
  return settle(() =>
    unsubscribeAction({
      request: new Request(`http://${host}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
      }),
      context: contextFor(host),
      params: {},
    }),
  )
}

function openLink(host: string, path: string) {
  return settle(() =>
    unsubscribeLoader({ request: requestFor(host, path), context: contextFor(host), params: {} }),
  )
}

describe('preferences', () => {
  test("a new user has the spec's defaults: notifications on, marketing emails off", async () => {
    const world = await setup()
    expect(await preferencesOf(world, world.owner.id)).toEqual({
      notifications: true,
      marketingEmails: false,
      // The team member's finer toggles (settings §2.6), on by default and untouched here.
      newContactAlerts: true,
      teamUpdates: true,
    })
    const cookie = await sessionCookieFor(world.organization.id, world.owner.id)
    const page = await settle(() =>
      profileLoader({
        request: requestFor(world.host, '/profile/end-user', { headers: { Cookie: cookie } }),
        context: contextFor(world.host),
        params: {},
      }),
    )
    const data = (await page.json()) as { notifications: unknown }
    expect(data.notifications).toEqual({
      notifications: true,
      marketingEmails: false,
      newContactAlerts: true,
      teamUpdates: true,
    })
  })

  test('the profile form saves both choices (an unchecked box is off) and audits it', async () => {
    const world = await setup()
    const saved = await saveProfilePreferences(world, { marketingEmails: 'on' })
    expect(saved).toHaveRedirect('/profile?tab=notifications')
    await expect(saved).toSendToast()
    expect(await preferencesOf(world, world.owner.id)).toEqual({
      notifications: false,
      marketingEmails: true,
      // The team member's finer toggles (settings §2.6), on by default and untouched here.
      newContactAlerts: true,
      teamUpdates: true,
    })
    await saveProfilePreferences(world, { notifications: 'on' })
    expect(await preferencesOf(world, world.owner.id)).toEqual({
      notifications: true,
      marketingEmails: false,
      // The team member's finer toggles (settings §2.6), on by default and untouched here.
      newContactAlerts: true,
      teamUpdates: true,
    })
    const audit = await getDb()
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, world.organization.id),
          eq(auditEvents.action, 'notifications.updated'),
        ),
      )
    expect(audit).toHaveLength(2)
    // Other keys of user_settings.preferences (the wizard's draft) are kept.
    const [row] = await getDb()
      .select()
      .from(userSettings)
      .where(eq(userSettings.userId, world.owner.id))
    expect(Object.keys(row?.preferences ?? {}).sort()).toEqual(['marketingEmails', 'notifications'])
  })

  test('bad input gets a message next to the field and changes nothing', async () => {
    const world = await setup()
    const cookie = await sessionCookieFor(world.organization.id, world.owner.id)
    const before = await databaseChecksum({ organizationId: world.organization.id })
    const cases: Record<string, string>[] = [
      { notifications: 'yes' },
      { notifications: 'on', marketingEmails: 'true' },
      { marketingEmails: '<script>' },
    ]
    for (const fields of cases) {
      const refused = await saveProfilePreferences(world, fields, cookie)
      expect(refused.status, JSON.stringify(fields)).toBe(400)
      const errors = await replyErrors(refused)
      const field = 'marketingEmails' in fields ? 'marketingEmails' : 'notifications'
      expect(errors[field], JSON.stringify(fields)).toEqual(['Please choose on or off'])
    }
    expect(await databaseChecksum({ organizationId: world.organization.id })).toEqual(before)
  })
})

describe('connecting from the card page (issue 41 point 7)', () => {
  test('the page tells a signed-in visitor they have connected, and nobody else', async () => {
    const world = await setup('Connected Co')
    const open = async (cookie?: string) => {
      const response = await settle(() =>
        cardLoader({
          request: requestFor(world.host, `/card/${world.card.id}`, {
            headers: cookie ? { Cookie: cookie } : {},
          }),
          context: contextFor(world.host),
          params: { ref: world.card.id },
        }),
      )
      return ((await response.json()) as { connected: boolean }).connected
    }
    const visitor = await sessionCookieFor(world.organization.id, world.visitor.id)
    const owner = await sessionCookieFor(world.organization.id, world.owner.id)
    expect(await open(visitor)).toBe(false)
    expect((await connect(world)).status).toBeLessThan(400)
    expect(await open(visitor)).toBe(true)
    // A signed-out visitor and the owner are never "connected" with the card.
    expect(await open()).toBe(false)
    expect(await open(owner)).toBe(false)
  })
})

describe('new-contact emails', () => {
  test('connecting with notifications on sends the owner one branded email with one-click unsubscribe headers', async () => {
    const world = await setup()
    const connected = await connect(world)
    expect(connected.status).toBe(200)
    const emails = await outboxOf(world.organization.id)
    expect(emails).toHaveLength(1)
    const [email] = emails
    expect(email?.toAddress).toBe(world.owner.email)
    expect(email?.subject).toBe('Vic Visitor connected with you on Notify Co')
    expect(email?.text).toContain(`Vic Visitor (${world.visitor.email}) connected with you`)
    const origin = tenantOrigin(world.organization)
    expect(email?.text).toContain(`${origin}/contacts`)
    expect(email?.html).toContain('#0f766e')
    expect(email?.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
    const url = unsubscribeUrlIn(email?.headers ?? {})
    expect(url.startsWith(`${origin}/email/unsubscribe?token=`)).toBe(true)
    // The same link is visible in the email too.
    expect(email?.text).toContain(url)
    const token = new URL(url).searchParams.get('token') ?? ''
    expect(readUnsubscribeToken(token)).toEqual({
      organizationId: world.organization.id,
      userId: world.owner.id,
      purpose: 'notifications',
    })

    // Connecting again adds no contact, so no second email.
    await connect(world)
    expect(await outboxOf(world.organization.id)).toHaveLength(1)
  })

  test('with notifications off the owner gets no email, and the connect still succeeds', async () => {
    const world = await setup()
    await saveProfilePreferences(world, {})
    const connected = await connect(world)
    expect(connected.status).toBe(200)
    expect(((await connected.json()) as { message: string }).message).toBe(
      'Successfully connected with Nora',
    )
    expect(await outboxOf(world.organization.id)).toEqual([])
  })

  test('a lead left on the card sends a new-lead email, only when notifications are on', async () => {
    const world = await setup()
    const lead = (email: string, ip: string) =>
      settle(() =>
        cardAction({
          request: formRequest(world.host, `/card/${world.card.id}`, {
            intent: 'lead',
            fullName: 'Lee Lead',
            email,
            company: 'Prospects Ltd',
          }),
          context: contextFor(world.host, ip),
          params: { ref: world.card.id },
        }),
      )
    expect((await lead('lee@example.test', '198.51.100.20')).status).toBe(200)
    const [email, ...rest] = await outboxOf(world.organization.id)
    expect(rest).toEqual([])
    expect(email?.toAddress).toBe(world.owner.email)
    // The visitor's words are quoted data (issue 39 point 3); the zero-width non-joiners that keep
    // mail clients from linking them are left out of the comparison.
    expect(email?.subject?.replaceAll('\u200c', '')).toBe(
      'New lead: “Lee Lead” left their details on Notify Co',
    )
    expect(email?.text).toContain('Someone left their details on your digital card.')
    expect(email?.text?.replaceAll('\u200c', '')).toContain(
      '> Name: “Lee Lead”\n> Email: “lee@example.test”\n> Company: “Prospects Ltd”',
    )
    expect(unsubscribeUrlIn(email?.headers ?? {})).toContain('/email/unsubscribe?token=')

    await saveProfilePreferences(world, {})
    expect((await lead('lou@example.test', '198.51.100.21')).status).toBe(200)
    expect(await outboxOf(world.organization.id)).toHaveLength(1)
  })

  test('with Resend the unsubscribe headers reach the provider', async () => {
    const received: Record<string, unknown>[] = []
    const server = createServer((req: IncomingMessage, res) => {
      let raw = ''
      req.on('data', (chunk) => {
        raw += chunk
      })
      req.on('end', () => {
        received.push(JSON.parse(raw))
        res.writeHead(200, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify({ id: 'email_456' }))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      process.env.RESEND_API_KEY = 're_test_key'
      process.env.RESEND_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      resetEnvForTests()
      const world = await setup()
      await connect(world)
      await settleBackgroundWork()
      expect(received).toHaveLength(1)
      const headers = received[0]?.headers as Record<string, string>
      expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
      expect(unsubscribeUrlIn(headers)).toContain(
        `${tenantOrigin(world.organization)}/email/unsubscribe?token=`,
      )
      // The outbox keeps the record of what went to the provider, and under which id.
      const outbox = await outboxOf(world.organization.id)
      expect(outbox.map((email) => [email.state, email.providerMessageId])).toEqual([
        ['sent', expect.any(String)],
      ])
    } finally {
      server.close()
    }
  })
})

describe('one-click unsubscribe', () => {
  async function linkFor(world: World) {
    await connect(world)
    const [email] = await outboxOf(world.organization.id)
    const url = new URL(unsubscribeUrlIn(email?.headers ?? {}))
    return `${url.pathname}${url.search}`
  }

  test('opening the link (GET) shows the page and changes nothing', async () => {
    const world = await setup()
    const path = await linkFor(world)
    const before = await databaseChecksum()
    const page = await openLink(world.host, path)
    expect(page.status).toBe(200)
    expect(page.headers.get('Referrer-Policy')).toBe('no-referrer')
    expect(await page.json()).toMatchObject({ status: 'valid', notificationsOn: true })
    expect(await databaseChecksum()).toEqual(before)
  })

  test('the POST a mailbox provider sends, without a session, turns notifications off and is audited', async () => {
    const world = await setup()
    const path = await linkFor(world)
    const done = await oneClick(world.host, path)
    expect(done.status).toBe(200)
    expect(await done.json()).toEqual({ status: 'unsubscribed', purpose: 'notifications' })
    expect(await preferencesOf(world, world.owner.id)).toEqual({
      notifications: false,
      marketingEmails: false,
      // The team member's finer toggles (settings §2.6), on by default and untouched here.
      newContactAlerts: true,
      teamUpdates: true,
    })
    const audit = await getDb()
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, world.organization.id),
          eq(auditEvents.action, 'notifications.unsubscribed'),
        ),
      )
    expect(audit).toHaveLength(1)
    expect(audit[0]?.actorUserId).toBe(world.owner.id)
    // A second click answers the same and records nothing new.
    expect((await oneClick(world.host, path)).status).toBe(200)
    expect(
      await getDb()
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.action, 'notifications.unsubscribed')),
    ).toHaveLength(1)
    // The page now says so.
    expect(await (await openLink(world.host, path)).json()).toMatchObject({
      notificationsOn: false,
    })

    // And the next connection sends nothing.
    const other = await makeUser(world.organization.id, { firstName: 'Ona', lastName: 'Other' })
    const cookie = await sessionCookieFor(world.organization.id, other.id)
    await settle(() =>
      cardAction({
        request: formRequest(world.host, `/card/${world.card.id}`, { intent: 'connect' }, cookie),
        context: contextFor(world.host),
        params: { ref: world.card.id },
      }),
    )
    expect(await outboxOf(world.organization.id)).toHaveLength(1)
  })

  test('forged, altered or foreign tokens are refused with a clear 400 and change nothing', async () => {
    const world = await setup()
    const path = await linkFor(world)
    const token = new URL(`http://x${path}`).searchParams.get('token') ?? ''
    const other = await setup('Other Co')
    const foreign = createUnsubscribeToken({
      organizationId: other.organization.id,
      userId: other.owner.id,
      purpose: 'notifications',
    })
    const [payload = '', signature = ''] = token.split('.')
    // The other tenant's owner named on this tenant's payload, with this token's signature.
    const swapped = `${Buffer.from(`${world.organization.id}:${other.owner.id}:notifications`).toString('base64url')}.${signature}`
    const flipped = `${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`
    const before = await databaseChecksum()
    for (const bad of [
      '',
      'nonsense',
      flipped,
      swapped,
      `${payload}.`,
      `${payload}.${signature}x`,
      foreign,
    ]) {
      const badPath = `/email/unsubscribe?token=${bad}`
      const page = await openLink(world.host, badPath)
      expect(page.status, `GET ${bad}`).toBe(400)
      const body = (await page.json()) as { message: string }
      expect(body.message).toMatch(/^This unsubscribe link is not valid\./)
      expect(JSON.stringify(body)).not.toContain(other.organization.id)
      const refused = await oneClick(world.host, badPath)
      expect(refused.status, `POST ${bad}`).toBe(400)
    }
    // The other tenant's genuine token on this tenant's host.
    expect((await oneClick(world.host, `/email/unsubscribe?token=${foreign}`)).status).toBe(400)
    // A genuine token without RFC 8058's body is not a one-click request.
    const stray = await oneClick(world.host, path, 'something=else')
    expect(stray.status).toBe(400)
    expect(((await stray.json()) as { message: string }).message).toBe(
      'An unsubscribe request must carry List-Unsubscribe=One-Click.',
    )
    expect(await databaseChecksum()).toEqual(before)
    expect(await preferencesOf(world, world.owner.id)).toMatchObject({ notifications: true })
    expect(await preferencesOf(other, other.owner.id)).toMatchObject({ notifications: true })
  })
})
