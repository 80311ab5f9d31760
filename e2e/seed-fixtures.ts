// Seeds the accounts of e2e/role-users.ts and e2e/user-accounts-fixtures.ts on an e2e server's
// database (e2e/start-server.ts). Apart from the accounts themselves, so that the specs, which
// import those, load none of the server's modules: Playwright's runner loads every spec to list
// the tests, and each of its workers the specs it runs (the runner's listing took 8.3 s of CPU
// with them, on the run's critical path).
import { eq } from 'drizzle-orm'
import { addContact } from '#app/models/contacts.server'
import { addTeamMember, createTeamWithAdmin } from '#app/models/teams.server'
import { setUserPreference } from '#app/models/user-settings.server'
import { getDb, withTenant } from '#drizzle/db.server'
import { users } from '#drizzle/schema'
import { makeCard, makeUser } from '#tests/factories'
import {
  ALPHA_ROLE_USERS,
  CRM_USERS,
  DASHBOARD_USERS,
  PLATFORM_ROLE_USERS,
  type RoleUser,
  SETTINGS_USERS,
} from './role-users'
import { ALPHA_ROSTER_SIZE, BETA_ROSTER_EMAIL } from './user-accounts-fixtures'

/** Creates the role accounts (and their cards) in the platform and Alpha organizations. */
export async function seedRoleUsers(organizations: { platformId: string; alphaId: string }) {
  const seed = async (organizationId: string, users: readonly RoleUser[]) => {
    for (const {
      role,
      email,
      password,
      firstName,
      lastName,
      withCard,
      withContact,
      theme,
    } of users) {
      const account = await makeUser(organizationId, { role, email, password, firstName, lastName })
      if (theme) {
        await withTenant(organizationId, (tx) =>
          setUserPreference(tx, organizationId, account.id, 'appearance', {
            theme,
            fontSize: 'medium',
            animations: true,
          }),
        )
      }
      if (withCard) {
        const card = await makeCard(organizationId, account.id, {
          firstName,
          lastName,
          email,
          company: 'Accessible Co',
          jobTitle: 'Tester',
          phoneNumber: '+1 555 0100',
          website: 'https://accessible.example.test',
          title: `${firstName}'s Card`,
        })
        if (withContact) {
          await withTenant(organizationId, (tx) =>
            addContact(tx, organizationId, account.id, {
              fullName: 'Lena Lead',
              email: `lena-${account.id.slice(0, 8)}@leads.e2e.test`,
              phoneNumber: '+1 555 0199',
              company: 'Leads & Co',
              note: 'Asked about the team plan at the fair',
              source: 'lead',
              sourceCardId: card.id,
            }),
          )
        }
      }
    }
  }
  await seed(organizations.platformId, PLATFORM_ROLE_USERS)
  await seed(organizations.alphaId, ALPHA_ROLE_USERS)
  await seed(organizations.alphaId, [DASHBOARD_USERS.teamMember, DASHBOARD_USERS.endUser])
  await seed(organizations.alphaId, Object.values(SETTINGS_USERS))
  const idOf = async (email: string) => {
    const [row] = await getDb().select({ id: users.id }).from(users).where(eq(users.email, email))
    if (!row) throw new Error(`no user ${email}`)
    return row.id
  }
  const toby = await idOf(SETTINGS_USERS.teamMember.email)
  const tia = await idOf(SETTINGS_USERS.teammate.email)
  await withTenant(organizations.alphaId, async (tx) => {
    const team = await createTeamWithAdmin(tx, organizations.alphaId, toby, {
      name: 'Settings Team',
      description: '',
    })
    await addTeamMember(tx, organizations.alphaId, team.id, tia, 'member')
  })
  await seed(organizations.alphaId, Object.values(CRM_USERS))
  const [teamMember] = await getDb()
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, DASHBOARD_USERS.teamMember.email))
  await getDb()
    .update(users)
    .set({ assignedToUserId: teamMember?.id })
    .where(eq(users.email, DASHBOARD_USERS.endUser.email))
  // Alpha's accessibility end user is looked after by Alpha's accessibility team member, so
  // 'My End Users' has a row with a card (e2e/my-end-users.spec.ts).
  const alphaRole = (role: RoleUser['role']) =>
    ALPHA_ROLE_USERS.find((user) => user.role === role)?.email ?? ''
  const [alphaTeamAdmin] = await getDb()
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, alphaRole('team_admin')))
  await getDb()
    .update(users)
    .set({ assignedToUserId: alphaTeamAdmin?.id })
    .where(eq(users.email, alphaRole('end_user')))
}

/** The User Accounts tab's roster (e2e/user-accounts.spec.ts). */
export async function seedRoster(organizations: { alphaId: string; betaId: string }) {
  for (let i = 1; i <= ALPHA_ROSTER_SIZE; i++) {
    const n = String(i).padStart(2, '0')
    await makeUser(organizations.alphaId, {
      email: `roster-${n}@e2e.test`,
      firstName: i === 1 ? '' : 'Rory',
      lastName: i === 1 ? '' : `Roster ${n}`,
      // Nobody signs in as these: skipping argon2 keeps the server's start quick.
      passwordHash: 'not-a-password-hash',
    })
  }
  await makeUser(organizations.betaId, {
    email: BETA_ROSTER_EMAIL,
    firstName: 'Bianca',
    lastName: 'Roster',
    role: 'agency_member',
    passwordHash: 'not-a-password-hash',
  })
}
