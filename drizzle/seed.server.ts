// The demo: a platform, two approved agencies (one on a verified custom domain), one
// inactive agency, their people and a few cards. Every account's password is DEMO_PASSWORD.
import { sql } from 'drizzle-orm'
import { createUserWithPassword, type NewAccount } from '#app/auth/accounts.server'
import { createCard } from '#app/models/cards.server'
import { storeMedia } from '#app/models/media.server'
import {
  createOrganization,
  type NewOrganization,
  setOrganizationBrandingImages,
} from '#app/models/organizations.server'
import { addTeamMember, createTeamWithAdmin } from '#app/models/teams.server'
import type { TeamRole } from '#app/validation/teams'
import type { Database, Transaction } from './db.server'
import { DEMO_BRANDING_PNG } from './demo-assets'
import { platformSettings } from './schema'

export const DEMO_PASSWORD = 'demo1234'

type DemoUser = Omit<NewAccount, 'password'> & {
  card?: {
    company: string
    jobTitle: string
    phoneNumber: string
    website: string
    backgroundValue: string
  }
}
type DemoTeam = {
  name: string
  description: string
  /** Its creator and admin, whose plan the team uses. */
  admin: string
  members: { email: string; role: TeamRole }[]
}
type DemoOrganization = NewOrganization & { users: DemoUser[]; teams?: DemoTeam[] }

export const DEMO_ORGANIZATIONS: DemoOrganization[] = [
  {
    slug: 'platform',
    name: 'Brandcard',
    kind: 'platform',
    primaryColor: '#4f46e5',
    secondaryColor: '#06b6d4',
    users: [
      { email: 'super@brandcard.test', role: 'super_admin', firstName: 'Sam', lastName: 'Super' },
      {
        email: 'ops@brandcard.test',
        role: 'super_admin_team',
        firstName: 'Olive',
        lastName: 'Ops',
      },
      {
        email: 'pat@example.test',
        role: 'end_user',
        firstName: 'Pat',
        lastName: 'Platform',
        card: {
          company: 'Independent',
          jobTitle: 'Consultant',
          phoneNumber: '+1 555 0100',
          website: 'https://pat.example.test',
          backgroundValue: '#f3f4f6',
        },
      },
    ],
  },
  {
    slug: 'acme',
    name: 'Acme Cards',
    kind: 'agency',
    primaryColor: '#e11d48',
    secondaryColor: '#f59e0b',
    subscriptionTier: 'professional',
    ownerName: 'Ada Acme',
    contactEmail: 'admin@acme.test',
    customDomain: 'cards.acme.test',
    customDomainVerifiedAt: new Date('2026-01-01T00:00:00Z'),
    users: [
      { email: 'admin@acme.test', role: 'agency_admin', firstName: 'Ada', lastName: 'Acme' },
      { email: 'member@acme.test', role: 'agency_member', firstName: 'Max', lastName: 'Member' },
      { email: 'team@acme.test', role: 'team_admin', firstName: 'Tia', lastName: 'Team' },
      {
        email: 'alice@acme.test',
        role: 'end_user',
        // Alice shows the Team page with a team; the other end users show the upgrade page.
        plan: 'team_basic',
        firstName: 'Alice',
        lastName: 'Anderson',
        card: {
          company: 'Acme Corp',
          jobTitle: 'Head of Sales',
          phoneNumber: '+1 555 0101',
          website: 'https://acme.example.test',
          backgroundValue: '#1f2937',
        },
      },
      { email: 'carl@acme.test', role: 'end_user', firstName: 'Carl', lastName: 'Cooper' },
    ],
    teams: [
      {
        name: 'Acme Sales',
        description: 'The field sales team and their cards.',
        admin: 'alice@acme.test',
        members: [{ email: 'carl@acme.test', role: 'member' }],
      },
    ],
  },
  {
    slug: 'globex',
    name: 'Globex Networking',
    kind: 'agency',
    primaryColor: '#7c3aed',
    secondaryColor: '#22c55e',
    subscriptionTier: 'starter',
    ownerName: 'Gus Globex',
    contactEmail: 'admin@globex.test',
    users: [
      { email: 'admin@globex.test', role: 'agency_admin', firstName: 'Gus', lastName: 'Globex' },
      {
        email: 'bob@globex.test',
        role: 'end_user',
        firstName: 'Bob',
        lastName: 'Brown',
        card: {
          company: 'Globex',
          jobTitle: 'Engineer',
          phoneNumber: '+1 555 0102',
          website: 'https://globex.example.test',
          backgroundValue: '#ffffff',
        },
      },
    ],
  },
  {
    slug: 'initech',
    name: 'Initech',
    kind: 'agency',
    status: 'inactive',
    primaryColor: '#0f766e',
    secondaryColor: '#eab308',
    users: [
      { email: 'admin@initech.test', role: 'agency_admin', firstName: 'Ian', lastName: 'Tech' },
    ],
  },
]

async function seedOrganization(tx: Transaction, demo: DemoOrganization) {
  const { users, teams = [], ...fields } = demo
  const organization = await createOrganization(tx, fields)
  await tx.execute(sql`select set_config('app.organization_id', ${organization.id}, true)`)
  const branding = DEMO_BRANDING_PNG[organization.slug]
  if (!branding) throw new Error(`no demo branding for ${organization.slug}`)
  const logo = await storeMedia(tx, organization.id, {
    bytes: Buffer.from(branding.logo, 'base64'),
    width: 400,
    height: 160,
    contentType: 'image/png',
    purpose: 'organization-logo',
  })
  const favicon = await storeMedia(tx, organization.id, {
    bytes: Buffer.from(branding.favicon, 'base64'),
    width: 32,
    height: 32,
    contentType: 'image/png',
    purpose: 'organization-favicon',
  })
  await setOrganizationBrandingImages(tx, organization.id, {
    logoMediaId: logo.id,
    faviconMediaId: favicon.id,
  })
  const created = new Map<string, string>()
  for (const { card, ...account } of users) {
    // Demo accounts are confirmed: the demo shows no "confirm your email" banner.
    const user = await createUserWithPassword(tx, organization.id, {
      ...account,
      password: DEMO_PASSWORD,
      emailConfirmedAt: new Date(),
    })
    created.set(user.email, user.id)
    if (!card) continue
    await createCard(tx, organization.id, user.id, {
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      ...card,
    })
    await createCard(tx, organization.id, user.id, {
      title: 'Conference card',
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      ...card,
      backgroundKind: 'gradient',
      backgroundValue: 'blue-ocean',
    })
  }
  for (const team of teams) {
    const adminId = created.get(team.admin)
    if (!adminId) throw new Error(`no demo user ${team.admin}`)
    const row = await createTeamWithAdmin(tx, organization.id, adminId, team)
    for (const member of team.members) {
      const userId = created.get(member.email)
      if (!userId) throw new Error(`no demo user ${member.email}`)
      await addTeamMember(tx, organization.id, row.id, userId, member.role)
    }
  }
  return organization
}

export async function seedDemo(db: Database) {
  await db.transaction(async (tx) => {
    await tx.insert(platformSettings).values({ id: 1 }).onConflictDoNothing()
    for (const demo of DEMO_ORGANIZATIONS) await seedOrganization(tx, demo)
  })
}
