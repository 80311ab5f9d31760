// The role profiles' own tabs on real rows (roles-teams-admin.md §2.4, issue 14 point 5): the
// end user's Card Scans (time, card, device class; no visitor data), the team member's My Users
// and the agency's Teams and Agency Branding, whose links open for the role.
import { expect, test } from 'vitest'
import { setCustomDomain } from '#app/models/custom-domains.server'
import { updateOrganizationBranding } from '#app/models/organizations.server'
import { addTeamMember, createTeamWithAdmin } from '#app/models/teams.server'
import { loader as rootLoader } from '#app/root'
import { loader as cardLoader } from '#app/routes/card.$ref'
import { loader as agencyBranding } from '#app/routes/dashboard.agency.branding'
import { loader as agencyTeam } from '#app/routes/dashboard.agency.team'
import { loader as agencyUsers } from '#app/routes/dashboard.agency.users._index'
import { loader as agencyProfile } from '#app/routes/profile.agency'
import { loader as endUserProfile } from '#app/routes/profile.end-user'
import { loader as teamMemberProfile } from '#app/routes/profile.team-member'
import { withTenant } from '#drizzle/db.server'
import {
  contextFor,
  getPlatformOrganization,
  makeBrandedOrganization,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1'
const DESKTOP =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36'

type Loader = typeof endUserProfile

async function open(loader: Loader, host: string, path: string, cookie: string) {
  const response = await settle(() =>
    loader({
      request: requestFor(host, path, { headers: { Cookie: cookie } }),
      context: contextFor(host),
      params: {},
    }),
  )
  expect(response.status).toBe(200)
  return (await response.json()) as Record<string, unknown>
}

test("Card Scans: the views of the user's own cards, newest first, with the kind of device", async () => {
  const org = await makeOrganization()
  const host = `${org.slug}.localhost`
  const owner = await makeUser(org.id)
  const work = await makeCard(org.id, owner.id, { title: 'Work card' })
  const other = await makeUser(org.id)
  const otherCard = await makeCard(org.id, other.id, { title: 'Not mine' })
  const view = (cardId: string, agent: string, ip: string) =>
    settle(() =>
      cardLoader({
        request: requestFor(host, `/card/${cardId}`, { headers: { 'User-Agent': agent } }),
        context: contextFor(host, ip),
        params: { ref: cardId },
      }),
    )
  await view(work.id, DESKTOP, '198.51.100.1')
  await view(work.id, PHONE, '198.51.100.2')
  await view(otherCard.id, PHONE, '198.51.100.3')
  const data = await open(
    endUserProfile,
    host,
    '/profile/end-user',
    await sessionCookieFor(org.id, owner.id),
  )
  const scans = data.scans as { card: string; device: string; at: string }[]
  expect(scans.map((scan) => [scan.card, scan.device])).toEqual([
    ['Work card', 'mobile'],
    ['Work card', 'desktop'],
  ])
  // Nothing that identifies the visitor leaves the server.
  expect(JSON.stringify(scans)).not.toMatch(/198\.51\.100|visitor|iPhone/)
})

test('My Users: the end users assigned to the team member', async () => {
  const org = await makeOrganization()
  const host = `${org.slug}.localhost`
  const tim = await makeUser(org.id, { role: 'team_admin' })
  const mine = await makeUser(org.id, {
    firstName: 'Mia',
    lastName: 'Mine',
    assignedToUserId: tim.id,
  })
  await makeUser(org.id, { firstName: 'Nobody' })
  const data = await open(
    teamMemberProfile,
    host,
    '/profile/team-member',
    await sessionCookieFor(org.id, tim.id),
  )
  expect(data.assignedUsers).toEqual([
    { id: mine.id, name: 'Mia Mine', email: mine.email, status: 'active' },
  ])
})

test("Teams: the organization's teams with their sizes, and none of another organization", async () => {
  const org = await makeOrganization()
  const host = `${org.slug}.localhost`
  const ada = await makeUser(org.id, { role: 'agency_admin' })
  const owner = await makeUser(org.id, { plan: 'team_basic' })
  const member = await makeUser(org.id)
  await withTenant(org.id, async (tx) => {
    const team = await createTeamWithAdmin(tx, org.id, owner.id, { name: 'Sales', description: '' })
    await addTeamMember(tx, org.id, team.id, member.id, 'member')
  })
  const elsewhere = await makeOrganization()
  const stranger = await makeUser(elsewhere.id, { plan: 'team_basic' })
  await withTenant(elsewhere.id, (tx) =>
    createTeamWithAdmin(tx, elsewhere.id, stranger.id, { name: 'Elsewhere', description: '' }),
  )
  const data = await open(
    agencyProfile as Loader,
    host,
    '/profile/agency',
    await sessionCookieFor(org.id, ada.id),
  )
  const teams = data.organizationTeams as { name: string; members: number }[]
  expect(teams.map(({ name, members }) => ({ name, members }))).toEqual([
    { name: 'Sales', members: 2 },
  ])
})

// Every link the agency profile offers opens for both agency roles: no tab leads to a 403.
async function opensFor(path: string, loader: Loader, host: string, cookie: string) {
  const response = await settle(() =>
    loader({
      request: requestFor(host, path, { headers: { Cookie: cookie } }),
      context: contextFor(host),
      params: {},
    }),
  )
  return response.status
}

const AGENCY_SCREENS: Record<string, Loader> = {
  '/dashboard/agency/branding': agencyBranding as unknown as Loader,
  '/dashboard/agency/team': agencyTeam as unknown as Loader,
  '/dashboard/agency/users': agencyUsers as unknown as Loader,
}

test.each(['agency_admin', 'agency_member'] as const)(
  'Teams (%s): links to Team Members and End Users, which open for the role',
  async (role) => {
    const org = await makeOrganization()
    const host = `${org.slug}.localhost`
    const staff = await makeUser(org.id, { role })
    const cookie = await sessionCookieFor(org.id, staff.id)
    const data = await open(agencyProfile as Loader, host, '/profile/agency', cookie)
    const screens = data.agencyScreens as Record<string, string | null>
    expect(screens).toEqual({
      branding: '/dashboard/agency/branding',
      teamMembers: '/dashboard/agency/team',
      endUsers: '/dashboard/agency/users',
    })
    for (const path of Object.values(screens)) {
      if (!path) continue
      const loader = AGENCY_SCREENS[path]
      if (!loader) throw new Error(`no loader known for ${path}`)
      expect(await opensFor(path, loader, host, cookie)).toBe(200)
    }
  },
)

test("Agency Branding: the organization's stored branding, not the host's, with its domain", async () => {
  const platform = await getPlatformOrganization()
  const { organization: org, logo } = await makeBrandedOrganization({
    name: 'Stored Name',
    primaryColor: '#112233',
    secondaryColor: '#445566',
  })
  const host = `${org.slug}.localhost`
  await withTenant(org.id, async (tx) => {
    // White labeling off: the host shows the platform's name and colours, the tab still the
    // agency's own.
    await updateOrganizationBranding(tx, org.id, {
      name: 'Stored Name',
      primaryColor: '#112233',
      secondaryColor: '#445566',
      whiteLabelActive: false,
    })
    await setCustomDomain(tx, org.id, `cards-${org.slug}.example.test`, 'token')
  })
  const elsewhere = await makeOrganization({ name: 'Elsewhere Agency', primaryColor: '#abcdef' })
  expect(elsewhere.id).not.toBe(org.id)
  const ada = await makeUser(org.id, { role: 'agency_admin' })
  const data = await open(
    agencyProfile as Loader,
    host,
    '/profile/agency',
    await sessionCookieFor(org.id, ada.id),
  )
  expect(data.organizationBranding).toEqual({
    name: 'Stored Name',
    primaryColor: '#112233',
    secondaryColor: '#445566',
    whiteLabelActive: false,
    logoUrl: expect.stringContaining(`/media/${logo.hash}`),
    customDomain: `cards-${org.slug}.example.test`,
    domainStatus: 'pending',
  })
  expect((data.agencyScreens as { branding: string }).branding).toBe('/dashboard/agency/branding')
  // The host's branding (what the root loader gives the page) is the platform's here.
  const root = await settle(() =>
    rootLoader({ request: requestFor(host, '/'), context: contextFor(host), params: {} }),
  )
  const rootBranding = ((await root.json()) as { branding: { name: string } }).branding
  expect(rootBranding.name).toBe(platform.name)
})
