// The demo: a platform, two approved agencies (one on a verified custom domain), one
// inactive agency, their people and a few cards with photos, bios, links, two weeks of views and
// some contacts. Every account's password is DEMO_PASSWORD.
import { and, eq, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { createUserWithPassword, type NewAccount } from '#app/auth/accounts.server'
import { keyFromText, sealKey } from '#app/auth/two-factor.server'
import {
  type DemoContact,
  type DemoContactRow,
  type DemoViewRow,
  demoContacts,
  demoViews,
  drawDemoCover,
  drawDemoPhoto,
  insertDemoActivity,
} from '#app/demo/demo-activity.server'
import { DEMO_BRANDING_PNG } from '#app/demo/demo-assets'
import { DEMO_TOTP_KEY } from '#app/demo/demo-totp'
import { setTwoFactor } from '#app/models/authenticators.server'
import { insertTemplate, type TemplateWrite } from '#app/models/card-templates.server'
import { createCard, replaceCardLinks } from '#app/models/cards.server'
import { insertConsentText } from '#app/models/consent-texts.server'
import { storeMedia } from '#app/models/media.server'
import {
  createOrganization,
  type NewOrganization,
  setOrganizationBrandingImages,
} from '#app/models/organizations.server'
import { addTeamMember, createTeamWithAdmin } from '#app/models/teams.server'
import { CardExtrasSchema } from '#app/validation/card-details'
import { parseVideoUrl } from '#app/validation/card-video'
import type { TeamRole } from '#app/validation/teams'
import type { Database, Transaction } from '#drizzle/db.server'
import { platformSettings, users as usersTable } from '#drizzle/schema'

export const DEMO_PASSWORD = 'demo1234'

/** Acme's office: on Alice's card and in her team's card template. */
const ACME_ADDRESS = {
  addressStreet: '1 Acme Plaza, Suite 400',
  addressCity: 'Phoenix',
  addressRegion: 'AZ',
  addressPostalCode: '85004',
  addressCountry: 'United States',
}

type DemoUser = Omit<NewAccount, 'password' | 'assignedToUserId'> & {
  /**
   * The team member (role team_admin, by email, seeded before) who looks after this end user:
   * their dashboard and My End Users show the person (issue 41 point 15).
   */
  assignedTo?: string
  card?: {
    company: string
    jobTitle: string
    phoneNumber: string
    website: string
    backgroundValue: string
    /** Bio, pronouns, second phone, address and links, checked by the card editor's own schema. */
    details: z.input<typeof CardExtrasSchema>
    /** The drawn photo's gradient, from and to (the main card's cover is drawn from it too). */
    photo: [string, string]
    /** A YouTube or Vimeo address the main card shows as a video (ADR 083). */
    video?: string
    /** People who reached the owner, dated back from the seed. */
    contacts: DemoContact[]
  }
}
type DemoTeam = {
  name: string
  description: string
  /** Its creator and admin, whose plan the team uses. */
  admin: string
  members: { email: string; role: TeamRole }[]
  /** The team's card template (ADR 048), so the agency's Card Templates screen is not empty. */
  cardTemplate?: Omit<TemplateWrite, 'teamId'>
}
type DemoOrganization = NewOrganization & {
  users: DemoUser[]
  teams?: DemoTeam[]
  /** The lead forms' consent text (ADR 050): the demo shows the box on Acme's cards. */
  consentText?: string
}

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
        // The platform's staff hand out cards too (ADR 007): Olive meets agencies that might
        // resell Brandcard, and her dashboard (the end-user area her role shares) shows that
        // work: her cards, their views and the people who reached her (ADR 085).
        email: 'ops@brandcard.test',
        role: 'super_admin_team',
        firstName: 'Olive',
        lastName: 'Ops',
        card: {
          company: 'Brandcard',
          jobTitle: 'Partner Operations',
          phoneNumber: '+1 555 0150',
          website: 'https://brandcard.example.test',
          backgroundValue: '#eef2ff',
          details: {
            bio: 'I help agencies launch Brandcard under their own name: domains, branding, templates and the first hundred cards.',
            pronouns: 'she/her',
            department: 'Partnerships',
            phoneType: 'work',
            phone2: '+1 555 0151',
            phone2Type: 'mobile',
            addressStreet: '200 Market Street, Floor 3',
            addressCity: 'San Francisco',
            addressRegion: 'CA',
            addressPostalCode: '94105',
            addressCountry: 'United States',
            links: [
              { kind: 'linkedin', url: 'https://www.linkedin.com/in/olive-ops-brandcard' },
              { kind: 'booking', url: 'https://calendly.com/olive-ops/partner-call' },
              {
                kind: 'custom',
                label: 'Become a partner',
                url: 'https://brandcard.example.test/partners',
              },
            ],
          },
          photo: ['#4f46e5', '#06b6d4'],
          contacts: [
            {
              fullName: 'Hugo Reyes',
              email: 'hugo.reyes@example.test',
              company: 'Reyes Print & Promo',
              jobTitle: 'Owner',
              note: 'Runs a print shop; wants to resell cards to his business customers.',
              source: 'lead',
              daysAgo: 0.03,
            },
            {
              fullName: 'Mina Sato',
              email: 'mina.sato@example.test',
              company: 'Sato Events',
              source: 'connect',
              daysAgo: 3.1,
            },
            {
              fullName: 'Greta Lind',
              email: 'greta.lind@example.test',
              company: 'Lind Agency',
              note: 'Asked for the agency pricing sheet.',
              source: 'saved',
              daysAgo: 8.7,
            },
          ],
        },
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
          details: {
            bio: 'Independent consultant helping small teams ship calmer software. Ask me about process, hiring and the first 90 days.',
            pronouns: 'they/them',
            phoneType: 'mobile',
            phone2: '+1 555 0190',
            phone2Type: 'work',
            addressStreet: '12 Harbor Street',
            addressCity: 'Portland',
            addressRegion: 'OR',
            addressPostalCode: '97201',
            addressCountry: 'United States',
            links: [
              { kind: 'linkedin', url: 'https://www.linkedin.com/in/pat-platform' },
              { kind: 'github', url: 'https://github.com/pat-platform' },
              { kind: 'booking', url: 'https://calendly.com/pat-platform/intro' },
              { kind: 'custom', label: 'Newsletter', url: 'https://pat.example.test/newsletter' },
            ],
          },
          photo: ['#6366f1', '#06b6d4'],
          contacts: [
            {
              fullName: 'Nora Quinn',
              email: 'nora.quinn@example.test',
              company: 'Quinn & Co',
              note: 'Would like a workshop for her team in spring.',
              source: 'lead',
              daysAgo: 0.02,
            },
            {
              fullName: 'Leo Park',
              email: 'leo.park@example.test',
              company: 'Parkside Labs',
              jobTitle: 'CTO',
              source: 'connect',
              daysAgo: 2.6,
            },
            {
              fullName: 'Ivy Chen',
              email: 'ivy.chen@example.test',
              phoneNumber: '+1 555 0141',
              source: 'lead',
              note: 'Met at the meetup; asked about rates.',
              daysAgo: 6.2,
            },
            {
              fullName: 'Owen Hart',
              email: 'owen.hart@example.test',
              company: 'Hart Studio',
              source: 'manual',
              daysAgo: 10.4,
            },
          ],
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
    // Under .localhost, which resolves to this machine without editing /etc/hosts; two labels
    // under the root are never an agency's subdomain, so it is looked up as a custom domain.
    customDomain: 'cards.acme.localhost',
    // Stored as a verification finds it (issue 30): a claim with its token, verified and
    // checked. A name under .localhost needs no TXT record (isLocalDemoDomain), so 'Verify
    // domain' and the background re-check keep it verified; the token proves nothing here.
    customDomainVerificationToken: 'de30acme0000000000000000000000de',
    customDomainClaimedAt: new Date('2026-01-01T00:00:00Z'),
    customDomainVerifiedAt: new Date('2026-01-01T00:00:00Z'),
    customDomainCheckedAt: new Date('2026-01-01T00:00:00Z'),
    consentText:
      'I agree that Acme Cards stores the details I share here and that the card owner contacts me about them. I can see or delete them at any time with the link in my receipt email.',
    users: [
      { email: 'admin@acme.test', role: 'agency_admin', firstName: 'Ada', lastName: 'Acme' },
      { email: 'member@acme.test', role: 'agency_member', firstName: 'Max', lastName: 'Member' },
      { email: 'team@acme.test', role: 'team_admin', firstName: 'Tia', lastName: 'Team' },
      {
        email: 'alice@acme.test',
        role: 'end_user',
        // Tia (team_admin) looks after Acme's end users: her dashboard shows their cards,
        // views and contacts, and My End Users lists them.
        assignedTo: 'team@acme.test',
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
          details: {
            bio: 'I lead sales at Acme: anvils, rockets and the occasional giant magnet. Happy to talk volume pricing or just trade stories from the road.',
            pronouns: 'she/her',
            phoneType: 'mobile',
            phone2: '+1 555 0111',
            phone2Type: 'work',
            ...ACME_ADDRESS,
            links: [
              { kind: 'linkedin', url: 'https://www.linkedin.com/in/alice-anderson-acme' },
              { kind: 'x', url: 'https://x.com/alice_acme' },
              { kind: 'booking', url: 'https://cal.com/alice-anderson/30min' },
              { kind: 'whatsapp', url: '+1 555 0101' },
              {
                kind: 'custom',
                label: 'Product catalogue',
                url: 'https://acme.example.test/catalogue',
              },
            ],
          },
          photo: ['#e11d48', '#f59e0b'],
          video: 'https://vimeo.com/76979871',
          contacts: [
            {
              fullName: 'Wile Coyote',
              email: 'wile.coyote@example.test',
              company: 'Desert Supplies',
              note: 'Needs 40 rocket skates by next month. Call back about the bulk discount.',
              source: 'lead',
              daysAgo: 0.01,
            },
            {
              fullName: 'Maya Singh',
              email: 'maya.singh@example.test',
              phoneNumber: '+1 555 0122',
              company: 'Roadrunner Logistics',
              jobTitle: 'Procurement Lead',
              source: 'lead',
              note: 'Asked for the catalogue and a demo.',
              daysAgo: 0.05,
            },
            {
              fullName: 'Tom Becker',
              email: 'tom.becker@example.test',
              company: 'Becker Builders',
              jobTitle: 'Owner',
              source: 'connect',
              daysAgo: 3.2,
            },
            {
              fullName: 'Rosa Diaz',
              email: 'rosa.diaz@example.test',
              company: 'Mesa Hardware',
              source: 'saved',
              daysAgo: 5.5,
            },
            {
              fullName: 'Ken Ito',
              email: 'ken.ito@example.test',
              company: 'Ito Trading',
              note: 'Trade show lead: anvils for a film set.',
              source: 'lead',
              daysAgo: 8.7,
            },
            {
              fullName: 'Elena Petrova',
              email: 'elena.petrova@example.test',
              company: 'Petrova Imports',
              jobTitle: 'Buyer',
              source: 'manual',
              daysAgo: 12.1,
            },
          ],
        },
      },
      {
        email: 'carl@acme.test',
        role: 'end_user',
        firstName: 'Carl',
        lastName: 'Cooper',
        assignedTo: 'team@acme.test',
      },
    ],
    teams: [
      {
        name: 'Acme Sales',
        description: 'The field sales team and their cards.',
        admin: 'alice@acme.test',
        members: [{ email: 'carl@acme.test', role: 'member' }],
        // A team template rather than the agency default: new cards of the demo's other end
        // users (and the e2e accounts made in Acme) stay free-form. Alice's cards follow no
        // template until the admin applies it.
        cardTemplate: {
          name: 'Acme Sales standard',
          backgroundKind: 'color',
          backgroundValue: '#1f2937',
          useAgencyLogo: true,
          company: 'Acme Corp',
          website: 'https://acme.example.test',
          ...ACME_ADDRESS,
          links: [
            { kind: 'linkedin', label: '', url: 'https://www.linkedin.com/company/acme-demo' },
          ],
          modes: {
            background: 'free',
            logo: 'locked',
            company: 'locked',
            website: 'required',
            address: 'free',
            links: 'free',
          },
        },
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
          details: {
            bio: 'Backend engineer at Globex. Networks, databases and anything that should not go down at 3 a.m.',
            pronouns: 'he/him',
            phoneType: 'work',
            addressStreet: '500 Cypress Creek Road',
            addressCity: 'Austin',
            addressRegion: 'TX',
            addressPostalCode: '78701',
            addressCountry: 'United States',
            links: [
              { kind: 'linkedin', url: 'https://www.linkedin.com/in/bob-brown-globex' },
              { kind: 'github', url: 'https://github.com/bob-globex' },
              {
                kind: 'custom',
                label: 'Engineering blog',
                url: 'https://globex.example.test/blog',
              },
            ],
          },
          photo: ['#7c3aed', '#22c55e'],
          contacts: [
            {
              fullName: 'Hank Scorpio',
              email: 'hank.scorpio@example.test',
              company: 'Scorpio Ventures',
              note: 'Hiring: wants to chat about the platform team.',
              source: 'lead',
              daysAgo: 0.03,
            },
            {
              fullName: 'Lisa Moreno',
              email: 'lisa.moreno@example.test',
              company: 'Cypress Cloud',
              jobTitle: 'SRE',
              source: 'connect',
              daysAgo: 4.3,
            },
            {
              fullName: 'Frank Grimes',
              email: 'frank.grimes@example.test',
              phoneNumber: '+1 555 0177',
              source: 'lead',
              daysAgo: 9.8,
            },
          ],
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

async function seedOrganization(
  tx: Transaction,
  demo: DemoOrganization,
  now: Date,
  photos: Map<string, Promise<Awaited<ReturnType<typeof drawDemoPhoto>>>>,
) {
  const { users, teams = [], consentText, ...fields } = demo
  const organization = await createOrganization(tx, fields)
  await tx.execute(sql`select set_config('app.organization_id', ${organization.id}, true)`)
  if (consentText) await insertConsentText(tx, organization.id, consentText)
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
  const activity = { views: [] as DemoViewRow[], contacts: [] as DemoContactRow[] }
  for (const { card, assignedTo, ...account } of users) {
    const assignedToUserId = assignedTo ? created.get(assignedTo) : undefined
    if (assignedTo && !assignedToUserId) throw new Error(`no demo team member ${assignedTo}`)
    // Demo accounts are confirmed: the demo shows no "confirm your email" banner.
    const user = await createUserWithPassword(tx, organization.id, {
      ...account,
      assignedToUserId,
      password: DEMO_PASSWORD,
      emailConfirmedAt: new Date(),
    })
    created.set(user.email, user.id)
    // Admins must sign in with two factors while the platform's default holds: enrolled with the
    // README's demo key, so the demo stays easy to try (`npm run demo:totp` prints the code).
    if (user.role === 'super_admin' || user.role === 'agency_admin') {
      await setTwoFactor(tx, organization.id, user.id, {
        totpKeySealed: sealKey(keyFromText(DEMO_TOTP_KEY)),
        recoveryCodeHashes: [],
      })
    }
    if (!card) continue
    const { details, photo: gradient, video: videoUrl, contacts: people, ...fields } = card
    // The editor's own schema: a demo card holds only what a user could have saved.
    const { links, ...extras } = CardExtrasSchema.parse(details)
    const drawn = photos.get(user.email)
    if (!drawn) throw new Error(`no demo photo for ${user.email}`)
    const photo = await storeMedia(tx, organization.id, {
      ...(await drawn),
      purpose: 'profilePicture',
    })
    await tx
      .update(usersTable)
      // A card owner has been through the profile wizard: the profile matches the card and the
      // dashboard offers no onboarding.
      .set({
        profilePictureMediaId: photo.id,
        company: fields.company,
        jobTitle: fields.jobTitle,
        phoneNumber: fields.phoneNumber,
        website: fields.website,
        onboardingCompletedAt: now,
      })
      .where(and(eq(usersTable.organizationId, organization.id), eq(usersTable.id, user.id)))
    const owner = {
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      profilePictureMediaId: photo.id,
      ...fields,
      ...extras,
    }
    // The main card has a cover drawn in the photo's colours, and Alice's a video (ADR 083).
    const cover = await storeMedia(tx, organization.id, {
      ...(await drawDemoCover(...gradient)),
      purpose: 'cover',
    })
    const video = videoUrl ? parseVideoUrl(videoUrl) : null
    const main = await createCard(tx, organization.id, user.id, {
      ...owner,
      coverMediaId: cover.id,
      ...(video ? { videoProvider: video.provider, videoId: video.id } : {}),
    })
    const conference = await createCard(tx, organization.id, user.id, {
      ...owner,
      title: 'Conference card',
      backgroundKind: 'gradient',
      backgroundValue: 'blue-ocean',
    })
    await replaceCardLinks(tx, organization.id, user.id, main.id, links)
    // The conference card keeps it short: the first two links.
    await replaceCardLinks(tx, organization.id, user.id, conference.id, links.slice(0, 2))
    activity.views.push(
      ...demoViews(organization.id, main.id, `${user.email}:main`, 1, now),
      ...demoViews(organization.id, conference.id, `${user.email}:conference`, 0.45, now),
    )
    activity.contacts.push(...demoContacts(organization.id, user.id, main.id, people, now))
  }
  await insertDemoActivity(tx, activity.views, activity.contacts)
  for (const team of teams) {
    const adminId = created.get(team.admin)
    if (!adminId) throw new Error(`no demo user ${team.admin}`)
    const row = await createTeamWithAdmin(tx, organization.id, adminId, team)
    for (const member of team.members) {
      const userId = created.get(member.email)
      if (!userId) throw new Error(`no demo user ${member.email}`)
      await addTeamMember(tx, organization.id, row.id, userId, member.role)
    }
    if (team.cardTemplate) {
      await insertTemplate(tx, organization.id, { ...team.cardTemplate, teamId: row.id })
    }
  }
  return organization
}

/** Seeds the demo; its views and contacts end at `now`. */
export async function seedDemo(db: Database, now = new Date()) {
  // Encoded on sharp's threads while the accounts are created.
  const photos = new Map(
    DEMO_ORGANIZATIONS.flatMap((org) => org.users).flatMap((user) =>
      user.card ? [[user.email, drawDemoPhoto(...user.card.photo)] as const] : [],
    ),
  )
  // A failed drawing surfaces where it is awaited, not as an unhandled rejection first.
  for (const photo of photos.values()) photo.catch(() => {})
  await db.transaction(async (tx) => {
    await tx.insert(platformSettings).values({ id: 1 }).onConflictDoNothing()
    for (const demo of DEMO_ORGANIZATIONS) await seedOrganization(tx, demo, now, photos)
  })
}
