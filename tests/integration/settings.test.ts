// The settings pages (roles-teams-admin.md §2.6, §3, §8, §9) through their loaders and actions:
// every tab saves, reads back and answers with its toast; a refused form changes nothing; other
// roles get 403; the privacy choices reach the public card and its vCard, the appearance the root
// layout, the notification choices the emails, and the platform name the root domain.

import { and, desc, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { createSession, validateSessionToken } from '#app/auth/session.server'
import { sendNewContactEmail } from '#app/notifications/new-contact.server'
import { getNotificationPreferences } from '#app/notifications/preferences.server'
import { loader as rootLoader } from '#app/root'
import { loader as cardLoader } from '#app/routes/card.$ref'
import { loader as vcardLoader } from '#app/routes/card_.$ref.vcard'
import * as agencyDashboard from '#app/routes/dashboard.agency.settings'
import * as endUserDashboard from '#app/routes/dashboard.end-user.settings'
import * as superAdminDashboard from '#app/routes/dashboard.super-admin.settings'
import * as teamMemberDashboard from '#app/routes/dashboard.team-member.settings'
import * as teamMemberProfile from '#app/routes/profile.team-member'
import * as variant from '#app/routes/settings.$variant'
import * as agencySettings from '#app/routes/settings.agency'
import * as endUserSettings from '#app/routes/settings.end-user'
import * as superAdminSettings from '#app/routes/settings.super-admin'
import * as teamMemberSettings from '#app/routes/settings.team-member'
import { maintenanceResponse } from '#app/settings/maintenance.server'
import { clearTenantCache, resolveTenant } from '#app/tenancy/tenant.server'
import type { Role } from '#app/validation/roles'
import { getDb, withTenant } from '#drizzle/db.server'
import { auditEvents, emailOutbox } from '#drizzle/schema'
import { databaseChecksum } from '#tests/checksum'
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
} from '#tests/factories'

type Route = {
  loader: (args: never) => Promise<unknown>
  action: (args: never) => Promise<unknown>
}
type Actor = { host: string; cookie: string; userId: string; orgId: string }

let agencyHost = ''
let orgId = ''
const actors = {} as Record<
  'endUser' | 'teamMember' | 'agencyAdmin' | 'agencyMember' | 'superAdmin' | 'superOnAgency',
  Actor
>

async function actor(organizationId: string, host: string, role: Role) {
  const user = await makeUser(organizationId, { role })
  return {
    host,
    cookie: await sessionCookieFor(organizationId, user.id),
    userId: user.id,
    orgId: organizationId,
  }
}

beforeAll(async () => {
  const platform = await getPlatformOrganization()
  const org = await makeOrganization()
  orgId = org.id
  agencyHost = `${org.slug}.localhost`
  actors.endUser = await actor(org.id, agencyHost, 'end_user')
  actors.teamMember = await actor(org.id, agencyHost, 'team_admin')
  actors.agencyAdmin = await actor(org.id, agencyHost, 'agency_admin')
  actors.agencyMember = await actor(org.id, agencyHost, 'agency_member')
  actors.superAdmin = await actor(platform.id, 'localhost', 'super_admin')
  actors.superOnAgency = await actor(org.id, agencyHost, 'super_admin')
})

function load(route: Route, path: string, who: Actor) {
  return settle(() =>
    (route.loader as (args: unknown) => Promise<unknown>)({
      request: requestFor(who.host, path, { headers: { Cookie: who.cookie } }),
      context: contextFor(who.host),
      params: {},
    }),
  )
}

function post(route: Route, path: string, who: Actor, fields: Record<string, string>) {
  return settle(() =>
    (route.action as (args: unknown) => Promise<unknown>)({
      request: formRequest(who.host, path, fields, who.cookie),
      context: contextFor(who.host),
      params: {},
    }),
  )
}

async function data<T>(route: Route, path: string, who: Actor) {
  const response = await load(route, path, who)
  expect(response.status).toBe(200)
  return (await response.json()) as T
}

/** Posts a refused form: a 400 whose database is exactly as before. */
async function refused(route: Route, path: string, who: Actor, fields: Record<string, string>) {
  const before = await databaseChecksum()
  const response = await post(route, path, who, fields)
  expect(response.status).toBe(400)
  expect(await databaseChecksum()).toEqual(before)
}

describe('end-user settings', () => {
  const path = '/settings/end-user'
  test('privacy and appearance save, read back and toast', async () => {
    const who = actors.endUser
    const defaults = await data<Record<string, unknown>>(endUserSettings, path, who)
    expect(defaults).toMatchObject({
      privacy: { visibility: 'public', showEmail: true, showPhone: true },
      appearance: { theme: 'system', fontSize: 'medium', animations: true },
    })
    const saved = await post(endUserSettings, path, who, {
      intent: 'privacy',
      visibility: 'contacts',
      showPhone: 'on',
    })
    expect(saved).toHaveRedirect(path)
    await expect(saved).toSendToast('Privacy settings saved successfully')
    const appearance = await post(endUserDashboard, '/dashboard/end-user/settings', who, {
      intent: 'appearance',
      theme: 'dark',
      fontSize: 'large',
    })
    await expect(appearance).toSendToast('Appearance settings saved successfully')
    expect(await data(endUserDashboard, '/dashboard/end-user/settings', who)).toMatchObject({
      privacy: { visibility: 'contacts', showEmail: false, showPhone: true },
      appearance: { theme: 'dark', fontSize: 'large', animations: false },
    })
  })

  test('the appearance reaches the root layout', async () => {
    const who = actors.endUser
    const root = await rootLoader({
      request: requestFor(who.host, '/', { headers: { Cookie: who.cookie } }),
      context: contextFor(who.host),
      params: {},
    })
    expect(root.appearance).toEqual({ theme: 'dark', fontSize: 'large', animations: false })
  })

  test('bad input changes nothing', async () => {
    const who = actors.endUser
    await refused(endUserSettings, path, who, { intent: 'privacy', visibility: 'team' })
    await refused(endUserSettings, path, who, { intent: 'privacy', visibility: 'everyone' })
    await refused(endUserSettings, path, who, {
      intent: 'appearance',
      theme: 'neon',
      fontSize: 'large',
    })
    await refused(endUserSettings, path, who, {
      intent: 'appearance',
      theme: 'dark',
      fontSize: 'huge',
    })
    await refused(endUserSettings, path, who, {
      intent: 'appearance',
      theme: 'dark',
      fontSize: 'small',
      animations: 'yes',
    })
    await refused(endUserSettings, path, who, { intent: 'team', defaultTeamRole: 'admin' })
  })

  test('other roles get 403', async () => {
    for (const who of [actors.teamMember, actors.agencyAdmin, actors.superAdmin]) {
      expect((await load(endUserSettings, path, who)).status).toBe(403)
      expect(
        (await post(endUserSettings, path, who, { intent: 'privacy', visibility: 'private' }))
          .status,
      ).toBe(403)
    }
  })
})

describe('privacy applied to the public card', () => {
  test('hidden email and phone leave the page and the vCard; private hides the card', async () => {
    const owner = await actor(orgId, agencyHost, 'end_user')
    const card = await makeCard(orgId, owner.userId, {
      email: 'owner@example.test',
      workEmail: 'work@example.test',
      phoneNumber: '+1 555 0100',
    })
    const visit = (who?: Actor) =>
      settle(() =>
        cardLoader({
          request: requestFor(
            agencyHost,
            `/card/${card.id}`,
            who ? { headers: { Cookie: who.cookie } } : {},
          ),
          context: contextFor(agencyHost),
          params: { ref: card.id },
        }),
      )
    const vcard = () =>
      settle(() =>
        vcardLoader({
          request: requestFor(agencyHost, `/card/${card.id}/vcard`),
          context: contextFor(agencyHost),
          params: { ref: card.id },
        }),
      )
    const shown = (await (await visit()).json()) as { card: Record<string, string> }
    expect(shown.card).toMatchObject({ email: 'owner@example.test', phoneNumber: '+1 555 0100' })
    expect(await (await vcard()).text()).toContain('owner@example.test')

    await post(endUserSettings, '/settings/end-user', owner, {
      intent: 'privacy',
      visibility: 'public',
    })
    const hidden = (await (await visit()).json()) as { card: Record<string, string> }
    expect(hidden.card).toMatchObject({ email: '', workEmail: '', phoneNumber: '' })
    const file = await (await vcard()).text()
    expect(file).not.toContain('example.test')
    // The number itself, in any spacing: a generated host such as org-7c555169 may hold "555".
    expect(file).not.toMatch(/555\D?0100/)

    await post(endUserSettings, '/settings/end-user', owner, {
      intent: 'privacy',
      visibility: 'private',
      showEmail: 'on',
      showPhone: 'on',
    })
    expect((await visit()).status).toBe(404)
    expect((await visit(actors.endUser)).status).toBe(404)
    expect((await vcard()).status).toBe(404)
    // Its owner still sees it.
    expect((await visit(owner)).status).toBe(200)
  })
})

describe('team-member settings', () => {
  const path = '/settings/team-member'
  test('notifications map onto the notification preferences and decide the emails', async () => {
    const who = actors.teamMember
    expect(await data(teamMemberSettings, path, who)).toMatchObject({
      notifications: {
        notifications: true,
        newContactAlerts: true,
        teamUpdates: true,
        marketingEmails: false,
      },
      privacy: { visibility: 'public', showEmail: true, showPhone: true, activityTracking: true },
    })
    const saved = await post(teamMemberSettings, path, who, {
      intent: 'notifications',
      notifications: 'on',
      teamUpdates: 'on',
      marketingEmails: 'on',
    })
    await expect(saved).toSendToast('Notification settings saved successfully')
    const stored = await withTenant(orgId, (tx) =>
      getNotificationPreferences(tx, orgId, who.userId),
    )
    expect(stored).toEqual({
      notifications: true,
      newContactAlerts: false,
      teamUpdates: true,
      marketingEmails: true,
    })
    const [tenant] = [(await resolveTenant(agencyHost)) as { status: 'found'; tenant: never }]
    const sent = await sendNewContactEmail(tenant.tenant, {
      kind: 'lead',
      ownerId: who.userId,
      contact: { fullName: 'Lead Person', email: 'lead@example.test' },
      cause: { clientIp: '203.0.113.1' },
    })
    expect(sent).toBe(false)
    await post(teamMemberDashboard, '/dashboard/team-member/settings', who, {
      intent: 'notifications',
      notifications: 'on',
      newContactAlerts: 'on',
    })
    expect(
      await sendNewContactEmail(tenant.tenant, {
        kind: 'lead',
        ownerId: who.userId,
        contact: { fullName: 'Lead Person', email: 'lead@example.test' },
        cause: { clientIp: '203.0.113.1' },
      }),
    ).toBe(true)
  })

  test('privacy saves with the team visibility and activity tracking', async () => {
    const who = actors.teamMember
    const saved = await post(teamMemberSettings, path, who, {
      intent: 'privacy',
      visibility: 'team',
      showEmail: 'on',
    })
    await expect(saved).toSendToast('Privacy settings saved successfully')
    expect(await data(teamMemberDashboard, '/dashboard/team-member/settings', who)).toMatchObject({
      privacy: { visibility: 'team', showEmail: true, showPhone: false, activityTracking: false },
    })
  })

  test('bad input changes nothing; other roles get 403', async () => {
    await refused(teamMemberSettings, path, actors.teamMember, {
      intent: 'notifications',
      notifications: 'maybe',
    })
    await refused(teamMemberSettings, path, actors.teamMember, {
      intent: 'appearance',
      theme: 'dark',
      fontSize: 'small',
    })
    for (const who of [actors.endUser, actors.agencyAdmin]) {
      expect((await load(teamMemberSettings, path, who)).status).toBe(403)
      expect((await post(teamMemberSettings, path, who, { intent: 'notifications' })).status).toBe(
        403,
      )
    }
  })
})

describe('agency settings', () => {
  const path = '/settings/agency'
  test('the agency admin saves team and billing; members read them', async () => {
    const admin = actors.agencyAdmin
    expect(await data(agencySettings, path, admin)).toMatchObject({
      canEdit: true,
      // Auto-approve starts on: an untouched agency's teams behave as before the setting applied.
      team: { defaultTeamRole: 'member', autoApprove: true, membersMayInvite: true },
      // Nothing saved and no contact email on the organization: empty, not the reader's address.
      billing: { billingEmail: '' },
      plan: 'free',
    })
    // Both toggles unticked: both turn off (a checkbox left out of the form is off).
    const team = await post(agencySettings, path, admin, {
      intent: 'team',
      defaultTeamRole: 'viewer',
    })
    await expect(team).toSendToast('Team settings saved successfully')
    const billing = await post(agencyDashboard, '/dashboard/agency/settings', admin, {
      intent: 'billing',
      billingEmail: 'Billing@Example.test',
    })
    await expect(billing).toSendToast('Billing settings saved successfully')
    const read = await data(agencyDashboard, '/dashboard/agency/settings', actors.agencyMember)
    expect(read).toMatchObject({
      canEdit: false,
      team: { defaultTeamRole: 'viewer', autoApprove: false, membersMayInvite: false },
      billing: { billingEmail: 'Billing@Example.test' },
    })
  })

  test("billing shows the organization's own plan and contact email until a billing email is saved", async () => {
    const org = await makeOrganization({
      subscriptionTier: 'professional',
      contactEmail: 'owner@agency.example.test',
    })
    const host = `${org.slug}.localhost`
    for (const role of ['agency_admin', 'agency_member'] as const) {
      expect(await data(agencySettings, path, await actor(org.id, host, role))).toMatchObject({
        plan: 'professional',
        billing: { billingEmail: 'owner@agency.example.test' },
      })
    }
  })

  test('bad input changes nothing; members and other roles cannot save', async () => {
    await refused(agencySettings, path, actors.agencyAdmin, {
      intent: 'team',
      defaultTeamRole: 'owner',
    })
    await refused(agencySettings, path, actors.agencyAdmin, {
      intent: 'billing',
      billingEmail: 'not-an-email',
    })
    const before = await databaseChecksum()
    expect(
      (
        await post(agencySettings, path, actors.agencyMember, {
          intent: 'team',
          defaultTeamRole: 'admin',
        })
      ).status,
    ).toBe(403)
    expect(await databaseChecksum()).toEqual(before)
    for (const who of [actors.endUser, actors.teamMember]) {
      expect((await load(agencySettings, path, who)).status).toBe(403)
    }
  })
})

describe('system settings (super admin)', () => {
  const path = '/settings/super-admin'
  test('general and security save and read back; the platform name is the product name', async () => {
    const who = actors.superAdmin
    expect(await data(superAdminSettings, path, who)).toMatchObject({
      sessionTimeoutMinutes: 60,
      requireTwoFactorForAdmins: true,
      passwordRotation: false,
      maintenanceMode: false,
    })
    const general = await post(superAdminSettings, path, who, {
      intent: 'general',
      platformName: 'Cardly',
      platformUrl: 'https://cardly.example.test',
    })
    await expect(general).toSendToast('General settings saved successfully')
    const security = await post(superAdminDashboard, '/dashboard/super-admin/settings', who, {
      intent: 'security',
      sessionTimeoutMinutes: '120',
      passwordRotation: 'on',
    })
    await expect(security).toSendToast('Security settings saved successfully')
    expect(await data(superAdminDashboard, '/dashboard/super-admin/settings', who)).toMatchObject({
      platformName: 'Cardly',
      platformUrl: 'https://cardly.example.test',
      sessionTimeoutMinutes: 120,
      requireTwoFactorForAdmins: false,
      passwordRotation: true,
    })
    clearTenantCache()
    const platform = await resolveTenant('localhost')
    expect(platform).toMatchObject({ status: 'found', tenant: { name: 'Cardly' } })
  })

  test('bad input changes nothing; others and a super admin off the root domain get 403', async () => {
    const who = actors.superAdmin
    await refused(superAdminSettings, path, who, {
      intent: 'general',
      platformName: 'X',
      platformUrl: 'https://a.test',
    })
    await refused(superAdminSettings, path, who, {
      intent: 'general',
      platformName: 'Fine',
      platformUrl: 'javascript:alert(1)',
    })
    await refused(superAdminSettings, path, who, { intent: 'security', sessionTimeoutMinutes: '0' })
    await refused(superAdminSettings, path, who, {
      intent: 'security',
      sessionTimeoutMinutes: 'soon',
    })
    for (const other of [actors.agencyAdmin, actors.endUser, actors.superOnAgency]) {
      expect((await load(superAdminSettings, path, other)).status).toBe(403)
      expect(
        (
          await post(superAdminSettings, path, other, {
            intent: 'security',
            sessionTimeoutMinutes: '5',
          })
        ).status,
      ).toBe(403)
    }
  })
})

describe('system settings applied', () => {
  const path = '/settings/super-admin'
  const tokenOf = (who: Actor) => who.cookie.split('=')[1] ?? ''

  test('the session timeout applies to new and existing sessions', async () => {
    const saved = await post(superAdminSettings, path, actors.superAdmin, {
      intent: 'security',
      sessionTimeoutMinutes: '30',
      requireTwoFactorForAdmins: 'on',
    })
    await expect(saved).toSendToast('Security settings saved successfully')
    const limit = Date.now() + 30 * 60_000 + 1000
    const fresh = await createSession(orgId, actors.endUser.userId)
    expect(fresh.expiresAt.getTime()).toBeLessThanOrEqual(limit)
    expect(fresh.expiresAt.getTime()).toBeGreaterThan(limit - 2 * 60_000)
    // A session opened under the longer timeout is cut down on its next request.
    const existing = await validateSessionToken(orgId, tokenOf(actors.teamMember))
    expect(existing?.renewed).toBe(true)
    expect(existing?.expiresAt.getTime()).toBeLessThanOrEqual(limit)
  })

  test('maintenance mode answers 503 to everyone but sign-in, the health check, the TLS ask and the super admin', async () => {
    const gate = (host: string, at: string, cookie: string | null = null) =>
      maintenanceResponse(host, at, cookie)
    expect(await gate(agencyHost, '/dashboard/end-user', actors.endUser.cookie)).toBeNull()
    await post(superAdminSettings, path, actors.superAdmin, {
      intent: 'general',
      platformName: 'Cardly',
      platformUrl: 'https://cardly.example.test',
      maintenanceMode: 'on',
    })
    for (const [host, at, cookie] of [
      [agencyHost, '/dashboard/end-user', actors.endUser.cookie],
      [agencyHost, '/card/anything', null],
      [agencyHost, '/settings/agency', actors.agencyAdmin.cookie],
      ['localhost', '/', null],
      // A super admin's session is the platform's: on an agency host it counts for nothing.
      [agencyHost, '/', actors.superOnAgency.cookie],
    ] as const) {
      const page = await gate(host, at, cookie)
      expect(page?.status, `${host}${at}`).toBe(503)
      expect(await page?.text()).toContain('Down for maintenance')
    }
    expect(await gate(agencyHost, '/auth/login')).toBeNull()
    expect(await gate('localhost', '/api/health-check')).toBeNull()
    expect(await gate('localhost', '/api/health/live')).toBeNull()
    expect(await gate('localhost', '/api/health/ready')).toBeNull()
    // The TLS proxy's ask, on the loopback address it uses: a site keeps getting its
    // certificate (and renewals) through maintenance (ADR 025).
    expect(await gate('127.0.0.1', '/api/domains/allowed')).toBeNull()
    expect(await gate('localhost', '/dashboard/super-admin', actors.superAdmin.cookie)).toBeNull()
    await post(superAdminSettings, path, actors.superAdmin, {
      intent: 'general',
      platformName: 'Cardly',
      platformUrl: 'https://cardly.example.test',
    })
    expect(await gate(agencyHost, '/dashboard/end-user', actors.endUser.cookie)).toBeNull()
  })
})

test('/settings/role and other variants show the end-user variant to every role (spec §2.6 default)', async () => {
  const open = (who: Actor, path: string) =>
    settle(() =>
      variant.loader({
        request: requestFor(who.host, path, { headers: { Cookie: who.cookie } }),
        context: contextFor(who.host),
        params: { variant: path.split('/')[2] ?? '' },
      }),
    )
  const page = (await (await open(actors.endUser, '/settings/role')).json()) as Record<
    string,
    unknown
  >
  expect(page).toHaveProperty('appearance')
  expect((await open(actors.endUser, '/settings/anything')).status).toBe(200)
  // The default for every role, not only end users'.
  for (const who of [
    actors.agencyAdmin,
    actors.agencyMember,
    actors.teamMember,
    actors.superAdmin,
  ]) {
    const other = await open(who, '/settings/role')
    expect(other.status).toBe(200)
    expect(await other.json()).toHaveProperty('privacy')
    const appearance = await post(variant, '/settings/role', who, {
      intent: 'appearance',
      theme: 'dark',
      fontSize: 'small',
    })
    await expect(appearance).toSendToast('Appearance settings saved successfully')
  }
  const saved = await post(variant, '/settings/role', actors.endUser, {
    intent: 'appearance',
    theme: 'light',
    fontSize: 'medium',
    animations: 'on',
  })
  await expect(saved).toSendToast('Appearance settings saved successfully')
})

describe('settings audit: the changed fields, before and after', () => {
  /** The newest settings.updated event `who` wrote in `organizationId`. */
  async function lastSave(organizationId: string, who: Actor) {
    const [event] = await getDb()
      .select({ metadata: auditEvents.metadata, organizationId: auditEvents.organizationId })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, organizationId),
          eq(auditEvents.actorUserId, who.userId),
          eq(auditEvents.action, 'settings.updated'),
        ),
      )
      .orderBy(desc(auditEvents.createdAt))
      .limit(1)
    return event?.metadata
  }

  test('system settings: general and security record each changed value with from and to', async () => {
    const who = actors.superAdmin
    const platform = await getPlatformOrganization()
    const before = await data<{ platformName: string; platformUrl: string }>(
      superAdminSettings,
      '/settings/super-admin',
      who,
    )
    await post(superAdminSettings, '/settings/super-admin', who, {
      intent: 'general',
      platformName: 'Audited Cards',
      platformUrl: 'https://audited.example.test',
    })
    expect(await lastSave(platform.id, who)).toEqual({
      section: 'general',
      changes: {
        platformName: { from: before.platformName, to: 'Audited Cards' },
        platformUrl: { from: before.platformUrl, to: 'https://audited.example.test' },
      },
    })
    const security = await data<{ sessionTimeoutMinutes: number; passwordRotation: boolean }>(
      superAdminSettings,
      '/settings/super-admin',
      who,
    )
    await post(superAdminSettings, '/settings/super-admin', who, {
      intent: 'security',
      sessionTimeoutMinutes: String(security.sessionTimeoutMinutes + 5),
      requireTwoFactorForAdmins: 'on',
      passwordRotation: security.passwordRotation ? '' : 'on',
    })
    const metadata = (await lastSave(platform.id, who)) as {
      section: string
      changes: Record<string, unknown>
    }
    expect(metadata.section).toBe('security')
    expect(metadata.changes).toMatchObject({
      sessionTimeoutMinutes: {
        from: security.sessionTimeoutMinutes,
        to: security.sessionTimeoutMinutes + 5,
      },
      passwordRotation: { from: security.passwordRotation, to: !security.passwordRotation },
    })
  })

  test('agency team and billing record each changed value; unchanged fields are left out', async () => {
    const org = await makeOrganization()
    const admin = await actor(org.id, `${org.slug}.localhost`, 'agency_admin')
    await post(agencySettings, '/settings/agency', admin, {
      intent: 'team',
      defaultTeamRole: 'manager',
      autoApprove: 'on',
    })
    expect(await lastSave(org.id, admin)).toEqual({
      section: 'team',
      changes: {
        defaultTeamRole: { from: 'member', to: 'manager' },
        membersMayInvite: { from: true, to: false },
      },
    })
    await post(agencySettings, '/settings/agency', admin, {
      intent: 'billing',
      billingEmail: 'pay@agency.example.test',
    })
    expect(await lastSave(org.id, admin)).toEqual({
      section: 'billing',
      changes: { billingEmail: { from: '', to: 'pay@agency.example.test' } },
    })
  })

  test('a refused save writes no audit event', async () => {
    const before = await databaseChecksum()
    expect(
      (
        await post(superAdminSettings, '/settings/super-admin', actors.superAdmin, {
          intent: 'general',
          platformName: 'Fine',
          platformUrl: 'not a url',
        })
      ).status,
    ).toBe(400)
    expect(await databaseChecksum()).toEqual(before)
  })
})

describe('platform URL applied', () => {
  test('links built for the root domain start with the saved URL; agency links do not', async () => {
    const platform = await getPlatformOrganization()
    const owner = await makeUser(platform.id, { role: 'end_user' })
    const agencyOwner = await makeUser(orgId, { role: 'end_user' })
    const tenantOf = async (host: string) => {
      const resolution = await resolveTenant(host)
      if (resolution.status !== 'found') throw new Error(`no tenant for ${host}`)
      return resolution.tenant
    }
    /** The contacts link of the newest new-contact email sent to `email`. */
    const contactsLink = async (host: string, ownerId: string, email: string) => {
      expect(
        await sendNewContactEmail(await tenantOf(host), {
          kind: 'lead',
          ownerId,
          contact: { fullName: 'Lead Person', email: 'lead@example.test' },
          cause: { clientIp: '203.0.113.1' },
        }),
      ).toBe(true)
      const [mail] = await getDb()
        .select({ text: emailOutbox.text })
        .from(emailOutbox)
        .where(eq(emailOutbox.toAddress, email))
        .orderBy(desc(emailOutbox.createdAt))
        .limit(1)
      return /View your contacts: (\S+)/.exec(mail?.text ?? '')?.[1]
    }
    const save = (platformUrl: string) =>
      post(superAdminSettings, '/settings/super-admin', actors.superAdmin, {
        intent: 'general',
        platformName: 'Cardly',
        platformUrl,
      })

    // A path is left out: the platform's links are built from its root.
    await save('https://cards.example.test:8443/ignored')
    expect(await contactsLink('localhost', owner.id, owner.email)).toBe(
      'https://cards.example.test:8443/contacts',
    )
    await save('https://brandcard.example.test')
    expect(await contactsLink('localhost', owner.id, owner.email)).toBe(
      'https://brandcard.example.test/contacts',
    )
    // An agency's links stay on its own host.
    expect(await contactsLink(agencyHost, agencyOwner.id, agencyOwner.email)).toMatch(
      new RegExp(`^http://${agencyHost.replace('.', '\\.')}(:\\d+)?/contacts$`),
    )
  })
})

describe('activity tracking (team member privacy)', () => {
  type Profile = { activityTracking: boolean; activity: { label: string }[] }
  const profile = (who: Actor) => data<Profile>(teamMemberProfile, '/profile/team-member', who)
  const privacy = (who: Actor, activityTracking: boolean) =>
    post(teamMemberSettings, '/settings/team-member', who, {
      intent: 'privacy',
      visibility: 'public',
      ...(activityTracking ? { activityTracking: 'on' } : {}),
    })

  test('on, the Activity tab lists what the member did; off, it lists nothing', async () => {
    const who = await actor(orgId, agencyHost, 'team_admin')
    await privacy(who, true)
    const shown = await profile(who)
    expect(shown.activityTracking).toBe(true)
    expect(shown.activity.length).toBeGreaterThan(0)

    await privacy(who, false)
    expect(await profile(who)).toMatchObject({ activityTracking: false, activity: [] })
    // The audit log an administrator reads keeps the change all the same.
    const events = await getDb()
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(eq(auditEvents.actorUserId, who.userId))
    expect(events.length).toBe(2)

    await privacy(who, true)
    const again = await profile(who)
    expect(again.activityTracking).toBe(true)
    expect(again.activity).toHaveLength(3)
  })
})
