// The audit log page (issue 14 point 6): a super admin on the platform host sees every
// organization's events (platform reads only when asked for); an agency admin sees their own
// organization's; everyone else gets 403. Filters by kind of change and by who.
import { expect, test } from 'vitest'
import { recordAudit } from '#app/models/audit.server'
import { loader } from '#app/routes/dashboard.audit-log'
import { withTenant } from '#drizzle/db.server'
import {
  contextFor,
  getPlatformOrganization,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'

type Event = { action: string; actor: string; organization: string; entity: string }
type Data = { scope: string; events: Event[]; hasNext: boolean }

async function open(host: string, cookie: string, search = '') {
  const response = await settle(() =>
    loader({
      request: requestFor(host, `/dashboard/audit-log${search}`, { headers: { Cookie: cookie } }),
      context: contextFor(host),
      params: {},
    }),
  )
  return response
}

async function world() {
  const mark = uniqueSuffix()
  const acme = await makeOrganization({ name: `Acme ${mark}` })
  const globex = await makeOrganization({ name: `Globex ${mark}` })
  const ada = await makeUser(acme.id, { role: 'agency_admin', firstName: 'Ada', lastName: mark })
  const max = await makeUser(acme.id, { role: 'agency_member' })
  const gus = await makeUser(globex.id, { role: 'agency_admin', firstName: 'Gus', lastName: mark })
  await withTenant(acme.id, async (tx) => {
    await recordAudit(tx, acme.id, {
      actorUserId: ada.id,
      action: 'team.created',
      entityType: 'team',
      entityId: `t-${mark}`,
    })
    await recordAudit(tx, acme.id, {
      actorUserId: max.id,
      action: 'card.created',
      entityType: 'digital_card',
    })
  })
  await withTenant(globex.id, (tx) =>
    recordAudit(tx, globex.id, {
      actorUserId: gus.id,
      action: 'user.role_changed',
      entityType: 'user',
      metadata: { to: 'team_admin' },
    }),
  )
  return { mark, acme, globex, ada, max, gus }
}

test("an agency admin sees their organization's events only, filtered by kind and by who", async () => {
  const w = await world()
  const host = `${w.acme.slug}.localhost`
  const cookie = await sessionCookieFor(w.acme.id, w.ada.id)
  const all = (await (await open(host, cookie)).json()) as Data
  expect(all.scope).toBe('organization')
  expect(all.events.map((e) => e.action).sort()).toEqual(['card.created', 'team.created'])
  expect(JSON.stringify(all)).not.toContain(w.globex.name)
  const teams = (await (await open(host, cookie, '?category=team')).json()) as Data
  expect(teams.events.map((e) => e.action)).toEqual(['team.created'])
  expect(teams.events[0]?.actor).toBe(`Ada ${w.mark} (${w.ada.email})`)
  const byAda = (await (
    await open(host, cookie, `?actor=${encodeURIComponent(w.ada.email)}`)
  ).json()) as Data
  expect(byAda.events.map((e) => e.action)).toEqual(['team.created'])
  // Unknown filter values are ignored rather than refused.
  expect((await open(host, cookie, '?category=%27;drop&page=-4')).status).toBe(200)
})

test('members, end users and team members are refused', async () => {
  const w = await world()
  const host = `${w.acme.slug}.localhost`
  for (const role of ['agency_member', 'end_user', 'team_admin'] as const) {
    const someone = await makeUser(w.acme.id, { role })
    const response = await open(host, await sessionCookieFor(w.acme.id, someone.id))
    expect(response.status, role).toBe(403)
  }
  const signedOut = await open(host, '')
  expect(signedOut.status).toBe(302)
})

test('a super admin on the platform host sees every organization; platform reads only when asked', async () => {
  const w = await world()
  const platform = await getPlatformOrganization()
  const root = await makeUser(platform.id, { role: 'super_admin' })
  const cookie = await sessionCookieFor(platform.id, root.id)
  const first = (await (await open('localhost', cookie, `?actor=${w.mark}`)).json()) as Data
  expect(first.scope).toBe('platform')
  expect(first.events.map((e) => [e.action, e.organization]).sort()).toEqual([
    ['team.created', w.acme.name],
    ['user.role_changed', w.globex.name],
  ])
  // Reading the log through the platform scope is itself audited, and shown when asked.
  const reads = (await (await open('localhost', cookie, '?category=&reads=1')).json()) as Data
  expect(reads.events.some((e) => e.action === 'platform.read')).toBe(true)
  const noReads = (await (await open('localhost', cookie)).json()) as Data
  expect(noReads.events.some((e) => e.action === 'platform.read')).toBe(false)
})
