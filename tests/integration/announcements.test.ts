// An agency's announcements (issue 30 point 2, ADR 046): only the agency's own end users and team
// members with Email Notifications and Marketing Communications on are queued, through a job;
// each email carries a one-click unsubscribe of Marketing Communications that works without a
// session; at most ANNOUNCEMENTS_PER_DAY a day. And the team member's Team Updates.
import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { FAN_OUT_BATCH } from '#app/announcements/send-announcements.server'
import { createUnsubscribeToken } from '#app/email/unsubscribe-token.server'
import { findJobByKey } from '#app/models/jobs.server'
import {
  getNotificationPreferences,
  saveNotificationPreferences,
} from '#app/notifications/preferences.server'
import {
  action as announcementsAction,
  loader as announcementsLoader,
} from '#app/routes/dashboard.agency.announcements'
import { action as teamAction } from '#app/routes/dashboard.agency.team'
import { action as usersAction } from '#app/routes/dashboard.agency.users._index'
import {
  action as unsubscribeAction,
  loader as unsubscribeLoader,
} from '#app/routes/email.unsubscribe'
import {
  ANNOUNCEMENTS_PER_DAY,
  BODY_MAX,
  NO_RECIPIENTS_MESSAGE,
  SUBJECT_MAX,
  SUBJECT_REQUIRED,
} from '#app/validation/announcements'
import { getDb, withTenant } from '#drizzle/db.server'
import { announcements, auditEvents, emailOutbox } from '#drizzle/schema'
import { databaseChecksum } from '#tests/checksum'
import {
  contextFor,
  formRequest,
  makeBrandedOrganization,
  makeUser,
  replyErrors,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'
import { asDelivered } from '#tests/inbox'

const PATH = '/dashboard/agency/announcements'

type Prefs = { notifications?: boolean; marketingEmails?: boolean; teamUpdates?: boolean }

async function person(
  organizationId: string,
  role: 'end_user' | 'team_admin' | 'agency_member' | 'agency_admin',
  prefs: Prefs,
  extra: { status?: 'active' | 'inactive'; firstName?: string } = {},
) {
  const user = await makeUser(organizationId, { role, passwordHash: 'x', ...extra })
  if (Object.keys(prefs).length > 0) {
    await withTenant(organizationId, (tx) =>
      saveNotificationPreferences(tx, organizationId, user.id, prefs),
    )
  }
  return user
}

async function agency(name: string) {
  const { organization } = await makeBrandedOrganization({ name, primaryColor: '#7c3aed' })
  const host = `${organization.slug}.localhost`
  const admin = await makeUser(organization.id, {
    role: 'agency_admin',
    firstName: 'Ada',
    lastName: 'Admin',
  })
  const cookie = await sessionCookieFor(organization.id, admin.id)
  return { organization, host, admin, cookie }
}

type Agency = Awaited<ReturnType<typeof agency>>

const send = (a: Agency, fields: Record<string, string>, cookie = a.cookie) =>
  settle(() =>
    announcementsAction({
      request: formRequest(a.host, PATH, fields, cookie),
      context: contextFor(a.host),
      params: {},
    }),
  )

const load = async (a: Agency, cookie = a.cookie) =>
  settle(() =>
    announcementsLoader({
      request: requestFor(a.host, PATH, { headers: { Cookie: cookie } }),
      context: contextFor(a.host),
      params: {},
    }),
  )

const outboxOf = async (organizationId: string) =>
  asDelivered(
    await getDb().select().from(emailOutbox).where(eq(emailOutbox.organizationId, organizationId)),
  )

const announcementMails = async (organizationId: string, subject: string) =>
  (await outboxOf(organizationId)).filter((row) => row.subject === subject)

const preferencesOf = (organizationId: string, userId: string) =>
  withTenant(organizationId, (tx) => getNotificationPreferences(tx, organizationId, userId))

/** A POST as a mailbox provider sends it: no cookies, no Origin, the RFC 8058 body. */
const oneClick = (host: string, url: string, body = 'List-Unsubscribe=One-Click') => {
  const { pathname, search } = new URL(url)
  return settle(() =>
    unsubscribeAction({
      request: new Request(`http://${host}${pathname}${search}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
      }),
      context: contextFor(host),
      params: {},
    }),
  )
}

describe('sending an announcement', () => {
  test("reaches only the agency's opted-in end users and team members, through a job", async () => {
    const a = await agency('Announce A')
    const b = await agency('Announce B')
    const optedIn = await person(a.organization.id, 'end_user', { marketingEmails: true })
    const teamMember = await person(a.organization.id, 'team_admin', { marketingEmails: true })
    const byDefault = await person(a.organization.id, 'end_user', {})
    const masterOff = await person(a.organization.id, 'end_user', {
      marketingEmails: true,
      notifications: false,
    })
    const inactive = await person(
      a.organization.id,
      'end_user',
      { marketingEmails: true },
      { status: 'inactive' },
    )
    const staff = await person(a.organization.id, 'agency_member', { marketingEmails: true })
    const otherTenant = await person(b.organization.id, 'end_user', { marketingEmails: true })

    const page = await (await load(a)).json()
    expect(page.recipients).toBe(2)
    expect(page.leftToday).toBe(ANNOUNCEMENTS_PER_DAY)
    expect(page.canSend).toBe(true)

    const subject = 'Spring update from A'
    const response = await send(a, { subject, body: 'Line one\n\nLine <two> & more' })
    expect(response).toHaveRedirect(PATH)
    await expect(response).toSendToast()

    const mails = await announcementMails(a.organization.id, subject)
    expect(mails.map((row) => row.toAddress).sort()).toEqual(
      [optedIn.email, teamMember.email].sort(),
    )
    for (const user of [byDefault, masterOff, inactive, staff]) {
      expect(mails.some((row) => row.toAddress === user.email)).toBe(false)
    }
    expect(
      (await outboxOf(b.organization.id)).some((row) => row.toAddress === otherTenant.email),
    ).toBe(false)

    const [mail] = mails
    if (!mail) throw new Error('no email')
    // The agency's brand, the plain text escaped, the one-click headers and the link in the body.
    expect(mail.fromName).toBe('Announce A')
    expect(mail.html).toContain('Line &lt;two&gt; &amp; more')
    expect(mail.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
    const url = /^<([^>]+)>$/.exec(mail.headers['List-Unsubscribe'] ?? '')?.[1] ?? ''
    expect(url).toMatch(new RegExp(`^http://${a.host}(:\\d+)?/email/unsubscribe\\?token=`))
    expect(mail.text).toContain(url)
    expect(mail.html).toContain(url.replaceAll('&', '&amp;'))
    // The stored row holds no usable token (ADR 028).
    const [stored] = await getDb()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.id, mail.id)))
    expect(stored?.headers['List-Unsubscribe']).not.toContain('token=ey')
    expect(stored?.text).not.toContain(url)

    // The history, from the row the job finished, and the audit event of the send.
    const after = await (await load(a)).json()
    expect(after.history).toEqual([
      expect.objectContaining({ subject, status: 'sent', recipientCount: 2 }),
    ])
    expect(after.leftToday).toBe(ANNOUNCEMENTS_PER_DAY - 1)
    const audit = await getDb()
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, a.organization.id),
          eq(auditEvents.action, 'announcement.sent'),
        ),
      )
    expect(audit).toHaveLength(1)
    expect(audit[0]?.actorUserId).toBe(a.admin.id)
    // B's screen knows nothing of it.
    expect((await (await load(b)).json()).history).toEqual([])
  })

  test('the request only queues the job; the job queues the emails', async () => {
    const a = await agency('Announce Job')
    await person(a.organization.id, 'end_user', { marketingEmails: true })
    const response = await announcementsAction({
      request: formRequest(a.host, PATH, { subject: 'Queued', body: 'Hello' }, a.cookie),
      context: contextFor(a.host),
      params: {},
    }).catch((thrown: unknown) => thrown)
    expect(response).toBeInstanceOf(Response)
    const [row] = await getDb()
      .select()
      .from(announcements)
      .where(eq(announcements.organizationId, a.organization.id))
    expect(row?.status).toBe('queued')
    expect(await announcementMails(a.organization.id, 'Queued')).toEqual([])
    const job = await withTenant(a.organization.id, (tx) =>
      findJobByKey(tx, `announcement.send:${row?.id}`),
    )
    expect(job?.name).toBe('announcement.send')
    // The worker's run (settle runs the due jobs) sends it.
    await settle(() => load(a))
    expect(await announcementMails(a.organization.id, 'Queued')).toHaveLength(1)
  })

  test('a list longer than one batch is sent whole, each recipient once', async () => {
    const a = await agency('Announce Batch')
    const count = FAN_OUT_BATCH + 3
    for (let i = 0; i < count; i++) {
      await person(a.organization.id, 'end_user', { marketingEmails: true })
    }
    await send(a, { subject: 'To everyone', body: 'Hi' })
    const mails = await announcementMails(a.organization.id, 'To everyone')
    expect(mails).toHaveLength(count)
    expect(new Set(mails.map((row) => row.toAddress)).size).toBe(count)
    const [row] = await getDb()
      .select()
      .from(announcements)
      .where(eq(announcements.organizationId, a.organization.id))
    expect(row).toMatchObject({ status: 'sent', recipientCount: count })
  }, 60_000)

  test(`at most ${ANNOUNCEMENTS_PER_DAY} a day: the next is refused with a clear message and changes nothing`, async () => {
    const a = await agency('Announce Limit')
    await person(a.organization.id, 'end_user', { marketingEmails: true })
    for (let i = 1; i <= ANNOUNCEMENTS_PER_DAY; i++) {
      expect(await send(a, { subject: `News ${i}`, body: 'Hi' })).toHaveRedirect(PATH)
    }
    const before = await databaseChecksum({ organizationId: a.organization.id })
    const refused = await send(a, { subject: 'One too many', body: 'Hi' })
    expect(refused.status).toBe(429)
    const errors = await replyErrors(refused)
    expect(errors['']?.[0]).toMatch(
      new RegExp(`sent ${ANNOUNCEMENTS_PER_DAY} announcements today, the most allowed per day`),
    )
    expect(errors['']?.[0]).toMatch(/Nothing was sent/)
    expect(await databaseChecksum({ organizationId: a.organization.id })).toEqual(before)
    expect((await (await load(a)).json()).leftToday).toBe(0)
  })

  test('nobody opted in: refused, nothing written and the day not counted', async () => {
    const a = await agency('Announce Nobody')
    await person(a.organization.id, 'end_user', {})
    const before = await databaseChecksum({ organizationId: a.organization.id })
    const refused = await send(a, { subject: 'Anyone?', body: 'Hi' })
    expect(refused.status).toBe(409)
    expect((await replyErrors(refused))['']).toEqual([NO_RECIPIENTS_MESSAGE])
    expect(await databaseChecksum({ organizationId: a.organization.id })).toEqual(before)
    expect((await (await load(a)).json()).leftToday).toBe(ANNOUNCEMENTS_PER_DAY)
  })

  test("the form's messages stand next to their fields; nothing is written", async () => {
    const a = await agency('Announce Form')
    await person(a.organization.id, 'end_user', { marketingEmails: true })
    const before = await databaseChecksum({ organizationId: a.organization.id })
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ body: 'Hi' }, 'subject', new RegExp(SUBJECT_REQUIRED)],
      [{ subject: '   ', body: 'Hi' }, 'subject', new RegExp(SUBJECT_REQUIRED)],
      [{ subject: 'x'.repeat(SUBJECT_MAX + 1), body: 'Hi' }, 'subject', /at most/],
      [{ subject: 'Two\nlines', body: 'Hi' }, 'subject', /one line/],
      [{ subject: 'Hi' }, 'body', /Message is required/],
      [{ subject: 'Hi', body: 'x'.repeat(BODY_MAX + 1) }, 'body', /at most/],
      [{ subject: 'Hi', body: 'nul \u0000 here' }, 'body', /unsupported characters/],
    ]
    for (const [fields, field, message] of cases) {
      const response = await send(a, fields)
      expect(response.status, JSON.stringify(fields)).toBe(400)
      expect((await replyErrors(response))[field]?.[0]).toMatch(message)
    }
    expect(await databaseChecksum({ organizationId: a.organization.id })).toEqual(before)
  })

  test('an agency member reads the screen but cannot send (403)', async () => {
    const a = await agency('Announce Member')
    await person(a.organization.id, 'end_user', { marketingEmails: true })
    const member = await makeUser(a.organization.id, { role: 'agency_member' })
    const cookie = await sessionCookieFor(a.organization.id, member.id)
    const page = await (await load(a, cookie)).json()
    expect(page.canSend).toBe(false)
    expect(page.recipients).toBe(1)
    const before = await databaseChecksum({ organizationId: a.organization.id })
    const refused = await send(a, { subject: 'Sneaky', body: 'Hi' }, cookie)
    expect(refused.status).toBe(403)
    expect(await databaseChecksum({ organizationId: a.organization.id })).toEqual(before)
  })
})

describe('one-click unsubscribe from announcements', () => {
  test('works without a session, with the token only, and turns Marketing Communications off (nothing else)', async () => {
    const a = await agency('Unsub A')
    const user = await person(a.organization.id, 'end_user', { marketingEmails: true })
    await send(a, { subject: 'First', body: 'Hi' })
    const [mail] = await announcementMails(a.organization.id, 'First')
    const url = /^<([^>]+)>$/.exec(mail?.headers['List-Unsubscribe'] ?? '')?.[1] ?? ''
    expect(url).not.toBe('')

    // Opening the link (a scanner, a click) changes nothing; the page says what it does.
    const { pathname, search } = new URL(url)
    const opened = await settle(() =>
      unsubscribeLoader({
        request: requestFor(a.host, `${pathname}${search}`),
        context: contextFor(a.host),
        params: {},
      }),
    )
    expect(await opened.json()).toMatchObject({ status: 'valid', purpose: 'marketing' })
    expect((await preferencesOf(a.organization.id, user.id)).marketingEmails).toBe(true)

    const done = await oneClick(a.host, url)
    expect(done.status).toBe(200)
    expect(await done.json()).toEqual({ status: 'unsubscribed', purpose: 'marketing' })
    expect(await preferencesOf(a.organization.id, user.id)).toMatchObject({
      marketingEmails: false,
      notifications: true,
    })
    const audit = await getDb()
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, a.organization.id),
          eq(auditEvents.action, 'marketing.unsubscribed'),
        ),
      )
    expect(audit).toHaveLength(1)

    // The next announcement does not reach them (and, with nobody left, is refused).
    const next = await send(a, { subject: 'Second', body: 'Hi' })
    expect(next.status).toBe(409)
    expect(await announcementMails(a.organization.id, 'Second')).toEqual([])
  })

  test('a bad or foreign token is refused and changes nothing', async () => {
    const a = await agency('Unsub Bad')
    const b = await agency('Unsub Other')
    const user = await person(a.organization.id, 'end_user', { marketingEmails: true })
    const good = createUnsubscribeToken({
      organizationId: a.organization.id,
      userId: user.id,
      purpose: 'marketing',
    })
    const before = await databaseChecksum({ organizationId: a.organization.id })
    const forged = `${good.slice(0, -2)}${good.endsWith('AA') ? 'BB' : 'AA'}`
    for (const [host, token] of [
      [a.host, forged],
      [a.host, 'not-a-token'],
      [a.host, ''],
      // A genuine token of A's, posted on B's host.
      [b.host, good],
    ] as const) {
      const response = await oneClick(host, `http://${host}/email/unsubscribe?token=${token}`)
      expect(response.status).toBe(400)
    }
    // Without the RFC 8058 body, the genuine token changes nothing either.
    const stray = await oneClick(a.host, `http://${a.host}/email/unsubscribe?token=${good}`, 'x=1')
    expect(stray.status).toBe(400)
    expect(await databaseChecksum({ organizationId: a.organization.id })).toEqual(before)
    expect((await preferencesOf(a.organization.id, user.id)).marketingEmails).toBe(true)
  })
})

describe("the team member's Team Updates", () => {
  const USERS = '/dashboard/agency/users'
  const TEAM = '/dashboard/agency/team'

  async function world(prefs: Prefs) {
    const a = await agency('Team Updates Co')
    const teamMember = await person(a.organization.id, 'team_admin', prefs, {
      firstName: 'Toby',
    })
    const endUser = await makeUser(a.organization.id, {
      role: 'end_user',
      firstName: 'Erin',
      lastName: 'Enduser',
      passwordHash: 'x',
    })
    return { a, teamMember, endUser }
  }

  const post = (
    a: Agency,
    action: typeof usersAction,
    path: string,
    fields: Record<string, string>,
  ) =>
    settle(() =>
      action({
        request: formRequest(a.host, path, fields, a.cookie),
        context: contextFor(a.host),
        params: {},
      }),
    )

  const mailsTo = async (organizationId: string, email: string) =>
    (await outboxOf(organizationId)).filter((row) => row.toAddress === email)

  test('an end user assigned and taken off, a role change: each emailed when both switches are on', async () => {
    const { a, teamMember, endUser } = await world({})
    await post(a, usersAction, USERS, {
      intent: 'assign-user',
      userId: endUser.id,
      assignedToUserId: teamMember.id,
    })
    await post(a, usersAction, USERS, { intent: 'assign-user', userId: endUser.id })
    await post(a, teamAction, TEAM, {
      intent: 'change-role',
      userId: teamMember.id,
      role: 'agency_member',
    })
    const mails = await mailsTo(a.organization.id, teamMember.email)
    expect(mails.map((row) => row.subject)).toEqual(
      expect.arrayContaining([
        'Erin Enduser is now assigned to you',
        'Erin Enduser is no longer assigned to you',
        'Your role is now Agency Member',
      ]),
    )
    expect(mails).toHaveLength(3)
    for (const mail of mails) {
      expect(mail.fromName).toBe('Team Updates Co')
      expect(mail.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
      expect(mail.text).toContain('Ada Admin')
    }
  })

  for (const prefs of [{ teamUpdates: false }, { notifications: false }] as Prefs[]) {
    test(`nothing is sent with ${JSON.stringify(prefs)}`, async () => {
      const { a, teamMember, endUser } = await world(prefs)
      const assigned = await post(a, usersAction, USERS, {
        intent: 'assign-user',
        userId: endUser.id,
        assignedToUserId: teamMember.id,
      })
      // The change itself happens all the same.
      expect(assigned).toHaveRedirect(USERS)
      await post(a, teamAction, TEAM, {
        intent: 'change-role',
        userId: teamMember.id,
        role: 'agency_member',
      })
      expect(await mailsTo(a.organization.id, teamMember.email)).toEqual([])
    })
  }

  test('an assigned end user deleted is told to their team member; an end user is not sent team-member notices', async () => {
    const { a, teamMember, endUser } = await world({})
    await post(a, usersAction, USERS, {
      intent: 'assign-user',
      userId: endUser.id,
      assignedToUserId: teamMember.id,
    })
    await post(a, usersAction, USERS, { intent: 'delete-user', userId: endUser.id })
    const subjects = (await mailsTo(a.organization.id, teamMember.email)).map((row) => row.subject)
    expect(subjects).toContain('Erin Enduser was removed')
    expect(await mailsTo(a.organization.id, endUser.email)).toEqual([])
  })
})
