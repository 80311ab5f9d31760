// The team member's 'My End Users' (roles-teams-admin.md §2.13, issue 14 point 3): only the end
// users assigned to them, Add User (an end user of the organization assigned to them, who sets
// their own password through an emailed link) and Export Data (CSV).
import { and, eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { resetPassword, signIn } from '#app/auth/accounts.server'
import { hashToken } from '#app/email/link-token.server'
import { setUserPreference } from '#app/models/user-settings.server'
import { action, loader } from '#app/routes/dashboard.team-member.users'
import { loader as csvLoader } from '#app/routes/dashboard.team-member.users[.]csv'
import { resolveTenant } from '#app/tenancy/tenant.server'
import { getDb, withTenant } from '#drizzle/db.server'
import { auditEvents, emailOutbox, passwordResetTokens, users } from '#drizzle/schema'
import { databaseChecksum } from '#tests/checksum'
import {
  contextFor,
  formRequest,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  settleBackgroundWork,
  uniqueSuffix,
} from '#tests/factories'
import { asDelivered } from '#tests/inbox'

const PATH = '/dashboard/team-member/users'

async function world() {
  const org = await makeOrganization()
  const host = `${org.slug}.localhost`
  const tim = await makeUser(org.id, { role: 'team_admin', firstName: 'Tim' })
  const other = await makeUser(org.id, { role: 'team_admin', firstName: 'Tess' })
  const mine = await makeUser(org.id, {
    firstName: 'Ada',
    lastName: 'Assigned',
    email: `ada-${uniqueSuffix()}@example.test`,
    assignedToUserId: tim.id,
  })
  const formula = await makeUser(org.id, {
    firstName: '=HYPERLINK("x")',
    lastName: 'Sheet',
    assignedToUserId: tim.id,
  })
  const theirs = await makeUser(org.id, { firstName: 'Theo', assignedToUserId: other.id })
  const unassigned = await makeUser(org.id, { firstName: 'Una' })
  const card = await makeCard(org.id, mine.id, { firstName: 'Ada', lastName: 'Assigned' })
  // Another organization's end user, assigned (by a corrupted id) to nobody of ours.
  const elsewhere = await makeOrganization()
  await makeUser(elsewhere.id, { firstName: 'Far' })
  return {
    org,
    host,
    tim,
    mine,
    formula,
    theirs,
    unassigned,
    card,
    cookie: await sessionCookieFor(org.id, tim.id),
  }
}

type Listed = { users: { id: string; email: string; cardId: string | null; cardCount: number }[] }

async function list(w: Awaited<ReturnType<typeof world>>, search = '') {
  const response = await settle(() =>
    loader({
      request: requestFor(w.host, `${PATH}${search}`, { headers: { Cookie: w.cookie } }),
      context: contextFor(w.host),
      params: {},
    }),
  )
  expect(response.status).toBe(200)
  return (await response.json()) as Listed
}

function add(w: Awaited<ReturnType<typeof world>>, fields: Record<string, string>) {
  return settle(() =>
    action({
      request: formRequest(w.host, PATH, { intent: 'add-user', ...fields }, w.cookie),
      context: contextFor(w.host),
      params: {},
    }),
  )
}

test('lists only the end users assigned to the team member, with the card their QR shares', async () => {
  const w = await world()
  const { users: rows } = await list(w)
  expect(rows.map((row) => row.id).sort()).toEqual([w.mine.id, w.formula.id].sort())
  const ada = rows.find((row) => row.id === w.mine.id)
  expect(ada?.cardId).toBe(w.card.id)
  expect(ada?.cardCount).toBe(1)
  expect(rows.find((row) => row.id === w.formula.id)?.cardId).toBeNull()
  // Search by name or email; `%` is a literal, not a wildcard.
  // (Not "ada": the other users' generated emails are hex, where "ada" can occur.)
  expect((await list(w, '?q=assigned')).users.map((row) => row.id)).toEqual([w.mine.id])
  expect((await list(w, `?q=${encodeURIComponent(w.mine.email)}`)).users).toHaveLength(1)
  expect((await list(w, '?q=%25')).users).toEqual([])
})

test('Add User creates an active end user assigned to them, who sets a password from the email', async () => {
  const w = await world()
  const email = `new-${uniqueSuffix()}@example.test`
  const response = await add(w, {
    name: 'Nora  New Person',
    email: email.toUpperCase(),
    active: 'on',
  })
  expect(response).toHaveRedirect(PATH)
  await expect(response).toSendToast('User added')
  const [created] = await getDb()
    .select()
    .from(users)
    .where(and(eq(users.organizationId, w.org.id), eq(users.email, email)))
  expect(created).toMatchObject({
    firstName: 'Nora',
    lastName: 'New Person',
    role: 'end_user',
    status: 'active',
    assignedToUserId: w.tim.id,
  })
  const [audit] = await getDb()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityId, created?.id ?? ''), eq(auditEvents.action, 'user.created')))
  expect(audit?.actorUserId).toBe(w.tim.id)
  expect((await list(w)).users.map((row) => row.email)).toContain(email)

  // The emailed link is the stored token (hashed), valid 7 days, and sets the password once.
  await settleBackgroundWork()
  const [mail] = asDelivered(
    await getDb()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.organizationId, w.org.id), eq(emailOutbox.toAddress, email))),
  )
  expect(mail?.subject).toContain('account is ready')
  const token = /reset-password\?token=([a-z2-7]{52})/.exec(mail?.text ?? '')?.[1] ?? ''
  expect(token).not.toBe('')
  const [stored] = await getDb()
    .select()
    .from(passwordResetTokens)
    .where(eq(passwordResetTokens.tokenHash, hashToken(token)))
  expect(stored?.userId).toBe(created?.id)
  const days = ((stored?.expiresAt.getTime() ?? 0) - Date.now()) / 86_400_000
  expect(days).toBeGreaterThan(6.9)
  expect(days).toBeLessThanOrEqual(7)
  const resolution = await resolveTenant(w.host)
  if (resolution.status !== 'found') throw new Error('tenant not found')
  expect(await resetPassword(resolution.tenant, token, 'chosen-pass-1')).toBeTruthy()
  const signedIn = await signIn(
    resolution.tenant,
    { email, password: 'chosen-pass-1' },
    '203.0.113.40',
    requestFor(w.host, '/auth/login'),
  )
  expect(signedIn).toBeTruthy()
})

test('an inactive new user gets no email; a taken email or bad input changes nothing', async () => {
  const w = await world()
  const email = `quiet-${uniqueSuffix()}@example.test`
  expect((await add(w, { name: 'Quiet One', email })).status).toBe(302)
  await settleBackgroundWork()
  const [created] = await getDb().select().from(users).where(eq(users.email, email))
  expect(created?.status).toBe('inactive')
  expect(await getDb().select().from(emailOutbox).where(eq(emailOutbox.toAddress, email))).toEqual(
    [],
  )

  const before = await databaseChecksum()
  const taken = await add(w, { name: 'Ada Again', email: w.unassigned.email, active: 'on' })
  expect(taken.status).toBe(409)
  expect(((await taken.json()) as { error: string }).error).toBe(
    `An account with the email ${w.unassigned.email} already exists`,
  )
  for (const [fields, message] of [
    [
      { name: 'A', email: `x-${uniqueSuffix()}@example.test` },
      'Name must be at least 2 characters',
    ],
    [{ name: 'Ann Other', email: 'not-an-email' }, 'Please enter a valid email address'],
  ] as const) {
    const refused = await add(w, fields)
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { error: string }).error).toBe(message)
  }
  expect(await databaseChecksum()).toEqual(before)
})

test('Export Data: a CSV of the assigned end users, safe to open in a spreadsheet', async () => {
  const w = await world()
  const response = await settle(() =>
    csvLoader({
      request: requestFor(w.host, '/dashboard/team-member/users.csv', {
        headers: { Cookie: w.cookie },
      }),
      context: contextFor(w.host),
      params: {},
    }),
  )
  expect(response.status).toBe(200)
  expect(response.headers.get('Content-Type')).toContain('text/csv')
  expect(response.headers.get('Content-Disposition')).toContain('attachment')
  const body = await response.text()
  const lines = body
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n')
  expect(lines[0]).toBe(
    '"First name","Last name","Email","Status","Last active","Cards","Card link","Added"',
  )
  expect(lines).toHaveLength(3)
  expect(body).toContain(`"${w.mine.email}"`)
  // The card's short link (ADR 041).
  expect(body).toContain(`/c/ada-assigned"`)
  // A cell that would start a formula is defused.
  expect(body).toContain(`"'=HYPERLINK(""x"")"`)
  expect(body).not.toContain(w.theirs.email)
  expect(body).not.toContain(w.unassigned.email)
})

test('Export Data lists no link of a card its owner keeps private (issue 39 point 3)', async () => {
  const w = await world()
  const csv = async () => {
    const response = await settle(() =>
      csvLoader({
        request: requestFor(w.host, '/dashboard/team-member/users.csv', {
          headers: { Cookie: w.cookie },
        }),
        context: contextFor(w.host),
        params: {},
      }),
    )
    expect(response.status).toBe(200)
    return response.text()
  }
  expect(await csv()).toContain('/c/ada-assigned"')
  for (const visibility of ['private', 'team', 'contacts'] as const) {
    await withTenant(w.org.id, (tx) =>
      setUserPreference(tx, w.org.id, w.mine.id, 'privacy', { visibility }),
    )
    const body = await csv()
    expect(body, visibility).toContain(`"${w.mine.email}"`)
    expect(body, visibility).not.toContain('/c/ada-assigned')
    expect(body, visibility).not.toContain(w.card.id)
  }
  // The page's data carries no owner's preferences.
  expect(JSON.stringify(await list(w))).not.toContain('privacy')
})

test('other roles are refused, and a team member of another organization sees none of these', async () => {
  const w = await world()
  for (const role of ['end_user', 'agency_admin', 'agency_member', 'super_admin_team'] as const) {
    const someone = await makeUser(w.org.id, { role })
    const cookie = await sessionCookieFor(w.org.id, someone.id)
    const response = await settle(() =>
      loader({
        request: requestFor(w.host, PATH, { headers: { Cookie: cookie } }),
        context: contextFor(w.host),
        params: {},
      }),
    )
    expect(response.status, role).toBe(403)
  }
  const stranger = await makeOrganization()
  const strangerAdmin = await makeUser(stranger.id, { role: 'team_admin' })
  const strangerHost = `${stranger.slug}.localhost`
  const strangerCookie = await sessionCookieFor(stranger.id, strangerAdmin.id)
  const response = await settle(() =>
    loader({
      request: requestFor(strangerHost, PATH, { headers: { Cookie: strangerCookie } }),
      context: contextFor(strangerHost),
      params: {},
    }),
  )
  expect(((await response.json()) as Listed).users).toEqual([])
})
