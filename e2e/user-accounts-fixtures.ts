// Accounts for the User Accounts tab (e2e/user-accounts.spec.ts): enough in Alpha for two pages
// of one search, and one in Beta that only the platform's super admin may see.
import { makeUser } from '#tests/factories'

export const ROSTER_SEARCH = 'roster'
export const ALPHA_ROSTER_SIZE = 22
export const BETA_ROSTER_EMAIL = 'beta-roster@e2e.test'
/** Alpha's first roster account has no name: the list says 'Unnamed User'. */
export const UNNAMED_ROSTER_EMAIL = 'roster-01@e2e.test'

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
