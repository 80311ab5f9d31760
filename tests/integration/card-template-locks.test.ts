// Card templates with locked fields (issue 31 point 1, ADR 048). The locks hold in every action
// that writes a card: the first test reads app/ and finds every module that writes a card, so a
// new writer without a case here (or one that skips the rule module) fails it. The rest send a
// locked field through each writer and find the template's value kept; a template's change
// reaches its cards in place, audited, with the wallet refresh queued by the same triggers.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { and, eq, isNotNull, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { createApiKey } from '#app/api/manage-api-keys.server'
import { hashToken, newLinkToken } from '#app/email/link-token.server'
import { saveOrganizationPreferences } from '#app/models/organization-settings.server'
import { updateAccount } from '#app/models/people.server'
import { insertInvitation } from '#app/models/team-invitations.server'
import { setUserPlan } from '#app/models/users.server'
import { action as apiAction } from '#app/routes/api.v1.$'
import {
  action as templatesAction,
  loader as templatesLoader,
} from '#app/routes/dashboard.agency.templates'
import { action as listAction } from '#app/routes/dashboard.end-user.digital-cards._index'
import {
  action as editAction,
  loader as editLoader,
} from '#app/routes/dashboard.end-user.digital-cards.edit.$cardId'
import { action as teamAction } from '#app/routes/dashboard.end-user.team'
import { action as acceptAction } from '#app/routes/invitations.$token'
import { action as onboardingAction } from '#app/routes/onboarding'
import { action as scimAction } from '#app/routes/scim.v2.$'
import { setMappedCardFields } from '#app/scim/directory-cards.server'
import { createScimToken } from '#app/scim/scim-tokens.server'
import { createCardUnderTemplate } from '#app/templates/template-locks.server'
import { TEMPLATE_TAKEN_MEANWHILE } from '#app/templates/templates-route.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { keptMessage, lockedMessage, requiredMessage } from '#app/validation/card-templates'
import { DIRECTORY_HELD_MESSAGE } from '#app/validation/scim'
import { getDatabaseHandle, getDb, withTenant } from '#drizzle/db.server'
import {
  auditEvents,
  cardLinks,
  cardTemplates,
  digitalCards,
  jobs,
  teamMembers,
  teams,
  walletPasses,
} from '#drizzle/schema'
import { rowsOf } from '#tests/checksum'
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
} from '#tests/factories'

const APP = join(process.cwd(), 'app')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** The card model's writers: only the rule module may call them. */
const CARD_WRITERS = /\b(createCard|updateCard|replaceCardLinks|setCardBackground)\b/
/** The rule module's writers: each module that calls one writes cards, and needs its cases. */
const RULE_WRITERS =
  /\b(createCardUnderTemplate|writeCardUnderTemplate|bringCardsToTemplate|followTemplateOnJoining)\b/

/**
 * Every module of app/ that writes a card through the rule module, with the cases below that
 * send a locked field through it. A new one fails the first test until it has its cases.
 */
const WRITING_MODULES: Record<string, string[]> = {
  'cards/cards-route.server.ts': [
    'the card editor keeps locked fields and refuses an emptied required one',
    'the card editor refuses a locked background and keeps a locked logo',
    "a duplicated card starts from the owner's template with its locks",
    // Once the profile's card details form's case (issue 41 point 11 left them to the editor).
    "the card editor's details keep the locked address and links",
    // Directory fields on cards (issue 42 point 3, ADR 089).
    'the card editor keeps the fields the directory holds for a person it manages',
  ],
  // The REST API's card writes (issue 43, ADR 092).
  'api/api-cards.server.ts': ['the REST API keeps locked fields on create and update'],
  'cards/wizard.server.ts': ["the wizard's new card takes the template's locked values"],
  'teams/manage-teams.server.ts': [
    "a team's creator takes the default; someone added by email keeps their cards until they accept",
  ],
  'teams/invitations.server.ts': [
    "an accepted invitation brings the new member's cards under the team's template",
  ],
  'scim/directory-cards.server.ts': [
    "a directory change reaches the person's cards, a locked company stays the template's",
    'a mapping saved reaches the cards at once; the editor and a new card hold the directory',
  ],
  'templates/templates-route.server.ts': [
    'a template change reaches its cards in place, audited, with the wallet refresh queued',
    'deviating cards are listed with their count and reset to the template',
  ],
}

/** Modules that import the rule module's writers or the card model's, found in the code. */
function writersInCode() {
  const viaRules: string[] = []
  const viaModel: string[] = []
  const rawTable: string[] = []
  for (const path of sourceFiles(APP)) {
    const name = relative(APP, path)
    const code = readFileSync(path, 'utf8')
    const imports = [...code.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)]
    for (const [, names = '', from] of imports) {
      const values = names
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part && !part.startsWith('type '))
        .join(',')
      // By alias or relative path alike.
      if (/(^|\/)template-locks\.server$/.test(from ?? '') && RULE_WRITERS.test(values)) {
        viaRules.push(name)
      }
      if (/(^|\/)cards\.server$/.test(from ?? '') && CARD_WRITERS.test(values)) viaModel.push(name)
    }
    // A card row written with the table itself, past the model's writers.
    if (/\.(insert|update)\(\s*(digitalCards|cardLinks)\s*\)/.test(code)) rawTable.push(name)
  }
  return { viaRules: viaRules.sort(), viaModel: viaModel.sort(), rawTable: rawTable.sort() }
}

describe('the lock covers every card writer', () => {
  test('every module that writes a card does it through the rule module, and has cases here', () => {
    const found = writersInCode()
    // The demo seed (app/demo/, in drizzle/ before ADR 064) lays out the demo's cards and
    // templates together outside any request, through the model.
    expect(found.viaModel).toEqual(['demo/seed.server.ts', 'templates/template-locks.server.ts'])
    expect(found.rawTable).toEqual(['models/card-templates.server.ts', 'models/cards.server.ts'])
    expect(found.viaRules).toEqual(Object.keys(WRITING_MODULES).sort())
  })

  test('each writing module names cases that exist in this file', () => {
    const file = readFileSync(
      join(process.cwd(), 'tests/integration/card-template-locks.test.ts'),
      'utf8',
    )
    for (const names of Object.values(WRITING_MODULES)) {
      for (const name of names) {
        const quoted = [`test('${name}'`, `test(${JSON.stringify(name)}`]
        expect(
          quoted.some((text) => file.includes(text)),
          name,
        ).toBe(true)
      }
    }
  })
})

type Agency = Awaited<ReturnType<typeof agency>>

async function agency() {
  const { organization, logo } = await makeBrandedOrganization()
  const host = `${organization.slug}.localhost`
  const admin = await makeUser(organization.id, { role: 'agency_admin' })
  const member = await makeUser(organization.id, { role: 'agency_member' })
  const cookieOf = (userId: string) => sessionCookieFor(organization.id, userId)
  return {
    organization,
    logo,
    host,
    admin,
    member,
    adminCookie: await cookieOf(admin.id),
    memberCookie: await cookieOf(member.id),
    cookieOf,
  }
}

/** The default template: company, links, background and logo locked; website required. */
const TEMPLATE = {
  intent: 'save',
  name: 'Acme standard',
  teamId: '',
  background: 'color:#112233',
  useAgencyLogo: 'on',
  logoMode: 'locked',
  company: 'Acme Corp',
  companyMode: 'locked',
  website: 'https://acme.example',
  websiteMode: 'required',
  addressStreet: '1 Main St',
  addressCity: 'Springfield',
  addressCountry: 'USA',
  addressMode: 'free',
  'links[0].kind': 'linkedin',
  'links[0].url': 'https://www.linkedin.com/company/acme',
  linksMode: 'locked',
  backgroundMode: 'locked',
}

function postTemplates(who: Agency, cookie: string, fields: Record<string, string>) {
  return settle(() =>
    templatesAction({
      request: formRequest(who.host, '/dashboard/agency/templates', fields, cookie),
      context: contextFor(who.host),
      params: {},
    }),
  )
}

async function templatesPage(who: Agency, cookie: string) {
  const response = await settle(() =>
    templatesLoader({
      request: requestFor(who.host, '/dashboard/agency/templates', { headers: { Cookie: cookie } }),
      context: contextFor(who.host),
      params: {},
    }),
  )
  return (await response.json()) as {
    canManage: boolean
    templates: {
      id: string
      name: string
      following: number
      toApply: number
      deviating: { cardId: string; fields: string[] }[]
    }[]
  }
}

async function createDefaultTemplate(who: Agency, extra: Record<string, string> = {}) {
  const response = await postTemplates(who, who.adminCookie, { ...TEMPLATE, ...extra })
  expect(response).toHaveRedirect('/dashboard/agency/templates')
  const [row] = await getDb()
    .select()
    .from(cardTemplates)
    .where(eq(cardTemplates.organizationId, who.organization.id))
  if (!row) throw new Error('no template')
  return row
}

const cardRow = async (id: string) =>
  (await getDb().select().from(digitalCards).where(eq(digitalCards.id, id)))[0]
const linksOf = async (cardId: string) =>
  (
    await getDb()
      .select({ kind: cardLinks.kind, url: cardLinks.url })
      .from(cardLinks)
      .where(eq(cardLinks.cardId, cardId))
      .orderBy(cardLinks.position)
  ).map((link) => `${link.kind} ${link.url}`)
const ACME_LINKS = ['linkedin https://www.linkedin.com/company/acme']

/** An end user with a card made before the template, and a session. */
async function endUser(who: Agency) {
  const user = await makeUser(who.organization.id, { firstName: 'Eve', lastName: 'User' })
  const card = await makeCard(who.organization.id, user.id, {
    firstName: 'Eve',
    lastName: 'User',
    company: 'Eve Ltd',
    website: 'https://eve.example',
  })
  return { user, card, cookie: await who.cookieOf(user.id) }
}

function edit(who: Agency, cookie: string, cardId: string, fields: Record<string, string>) {
  return settle(() =>
    editAction({
      request: formRequest(
        who.host,
        `/dashboard/end-user/digital-cards/edit/${cardId}`,
        fields,
        cookie,
      ),
      context: contextFor(who.host),
      params: { cardId },
    }),
  )
}

const DETAILS = {
  intent: 'details',
  title: 'Work',
  firstName: 'Eve',
  lastName: 'User',
  company: 'Evil Inc',
  jobTitle: 'Engineer',
  website: 'https://eve.example',
  'links[0].kind': 'github',
  'links[0].url': 'https://github.com/eve',
}

describe('card templates', () => {
  let who: Agency
  beforeAll(async () => {
    who = await agency()
  })

  test('only the agency admin writes templates; members read them; a locked field needs a value', async () => {
    const other = await agency()
    const refused = await postTemplates(other, other.memberCookie, TEMPLATE)
    expect(refused.status).toBe(403)
    const empty = await postTemplates(other, other.adminCookie, { ...TEMPLATE, company: '' })
    expect(empty.status).toBe(400)
    expect((await replyErrors(empty)).companyMode).toEqual(['Company needs a value to be locked'])
    await createDefaultTemplate(other)
    const second = await postTemplates(other, other.adminCookie, { ...TEMPLATE, name: 'Another' })
    expect(second.status).toBe(409)
    const page = await templatesPage(other, other.memberCookie)
    expect(page.canManage).toBe(false)
    expect(page.templates.map((t) => t.name)).toEqual(['Acme standard'])
  })

  test('a template change reaches its cards in place, audited, with the wallet refresh queued', async () => {
    const eve = await endUser(who)
    const template = await createDefaultTemplate(who)
    let page = await templatesPage(who, who.adminCookie)
    expect(page.templates[0]?.toApply).toBe(1)
    // Applying it puts Eve's card under it, with its locked values.
    expect(
      await postTemplates(who, who.adminCookie, { intent: 'apply', templateId: template.id }),
    ).toHaveRedirect('/dashboard/agency/templates')
    let card = await cardRow(eve.card.id)
    expect(card).toMatchObject({
      templateId: template.id,
      company: 'Acme Corp',
      website: 'https://eve.example',
      backgroundKind: 'color',
      backgroundValue: '#112233',
      logoMediaId: who.logo.id,
    })
    expect(await linksOf(eve.card.id)).toEqual(ACME_LINKS)
    // A wallet pass of the card: the template's next change queues its refresh, as an edit does.
    await withTenant(who.organization.id, (tx) =>
      tx.insert(walletPasses).values({
        organizationId: who.organization.id,
        cardId: eve.card.id,
        contentHash: 'before',
      }),
    )
    const changed = await postTemplates(who, who.adminCookie, {
      ...TEMPLATE,
      templateId: template.id,
      company: 'Acme Group',
    })
    await expect(changed).toSendToast({
      title: 'Template saved',
      description: '1 card updated to follow it.',
    })
    card = await cardRow(eve.card.id)
    expect(card?.company).toBe('Acme Group')
    const refresh = await getDb()
      .select({ name: jobs.name })
      .from(jobs)
      .where(and(eq(jobs.organizationId, who.organization.id), eq(jobs.name, 'wallet.refresh')))
    expect(refresh.length).toBeGreaterThan(0)
    const audits = await getDb()
      .select({ action: auditEvents.action, metadata: auditEvents.metadata })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, who.organization.id),
          eq(auditEvents.entityId, template.id),
        ),
      )
    expect(audits.map((a) => a.action).sort()).toEqual([
      'card_template.applied',
      'card_template.created',
      'card_template.updated',
    ])
    expect(audits.find((a) => a.action === 'card_template.updated')?.metadata).toMatchObject({
      cardsUpdated: 1,
    })
    page = await templatesPage(who, who.adminCookie)
    expect(page.templates[0]).toMatchObject({ following: 1, toApply: 0, deviating: [] })
  })

  test("a directory change reaches the person's cards, a locked company stays the template's", async () => {
    // An agency of its own: its default template locks the company; the address is free.
    const other = await agency()
    const template = await createDefaultTemplate(other)
    const eve = await endUser(other)
    await postTemplates(other, other.adminCookie, { intent: 'apply', templateId: template.id })
    const org = other.organization.id
    await withTenant(org, (tx) =>
      saveOrganizationPreferences(tx, org, {
        scimCardFields: ['jobTitle', 'phoneNumber', 'company', 'address'],
      }),
    )
    await withTenant(org, (tx) =>
      tx
        .insert(walletPasses)
        .values({ organizationId: org, cardId: eve.card.id, contentHash: 'x' }),
    )
    const { token } = await createScimToken(
      { tenant: { id: org } as Tenant, user: other.admin, session: { sessionId: 'test' } },
      'Entra',
    )
    const patched = (await scimAction({
      request: new Request(`http://${other.host}/scim/v2/Users/${eve.user.id}`, {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/scim+json' },
        body: JSON.stringify({
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [
            {
              op: 'replace',
              value: {
                title: 'Head of Sales',
                'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:organization': 'HR Co',
              },
            },
            { op: 'add', path: 'phoneNumbers[type eq "work"].value', value: '+1 555 0100' },
            { op: 'add', path: 'addresses[type eq "work"].streetAddress', value: '5 Office Rd' },
            { op: 'add', path: 'addresses[type eq "work"].locality', value: 'Shelbyville' },
          ],
        }),
      }),
      context: contextFor(other.host),
      params: {},
    })) as Response
    expect(patched.status).toBe(200)
    const card = await cardRow(eve.card.id)
    expect(card).toMatchObject({
      jobTitle: 'Head of Sales',
      phoneNumber: '+1 555 0100',
      addressStreet: '5 Office Rd',
      addressCity: 'Shelbyville',
      // Locked by the template: the directory's organization does not replace it.
      company: 'Acme Corp',
    })
    // The same triggers as an owner's edit: the pass's refresh is queued.
    const refresh = await getDb()
      .select({ name: jobs.name })
      .from(jobs)
      .where(and(eq(jobs.organizationId, org), eq(jobs.name, 'wallet.refresh')))
    expect(refresh.length).toBeGreaterThan(0)
  })

  test('the card editor keeps the fields the directory holds for a person it manages', async () => {
    const other = await agency()
    const org = other.organization.id
    await withTenant(org, (tx) =>
      saveOrganizationPreferences(tx, org, { scimCardFields: ['jobTitle'] }),
    )
    const eve = await endUser(other)
    const details = { ...DETAILS, title: 'Work', website: 'https://eve.example' }
    // Not managed by the directory (no external id): her own job title is saved.
    await edit(other, eve.cookie, eve.card.id, { ...details, jobTitle: 'Engineer' })
    expect((await cardRow(eve.card.id))?.jobTitle).toBe('Engineer')
    // Managed: the directory's title stands whatever the form sends; other fields are hers.
    await withTenant(org, (tx) =>
      updateAccount(tx, org, eve.user.id, {
        externalId: 'entra-eve',
        directory: { title: 'Head of Sales' },
      }),
    )
    const kept = await edit(other, eve.cookie, eve.card.id, {
      ...details,
      jobTitle: 'CEO',
      company: 'Eve Holdings',
    })
    await expect(kept).toSendToast({
      title: 'Locked fields kept',
      description: DIRECTORY_HELD_MESSAGE,
    })
    expect(await cardRow(eve.card.id)).toMatchObject({
      jobTitle: 'Head of Sales',
      company: 'Eve Holdings',
    })
  })

  test('a mapping saved reaches the cards at once; the editor and a new card hold the directory', async () => {
    const other = await agency()
    const org = other.organization.id
    const eve = await endUser(other)
    await withTenant(org, (tx) =>
      updateAccount(tx, org, eve.user.id, {
        externalId: 'entra-eve-2',
        directory: {
          title: 'Head of Sales',
          department: 'Sales EMEA',
          phoneNumbers: [{ value: '+1 555 0199', type: 'work' }],
        },
      }),
    )
    const admin = { tenant: { id: org } as Tenant, user: other.admin, session: { sessionId: 't' } }
    // Saved: her card follows at once, not at the directory's next change.
    expect(await setMappedCardFields(admin, ['jobTitle', 'department', 'phoneNumber'])).toBe(
      'Saved: 1 card follows the directory now',
    )
    expect(await cardRow(eve.card.id)).toMatchObject({
      jobTitle: 'Head of Sales',
      department: 'Sales EMEA',
      phoneNumber: '+1 555 0199',
    })
    expect(await setMappedCardFields(admin, ['jobTitle', 'department', 'phoneNumber'])).toBe(
      'Saved: every card already matches the directory',
    )
    // The editor shows the held fields read only.
    const loaded = await settle(() =>
      editLoader({
        request: requestFor(other.host, `/dashboard/end-user/digital-cards/edit/${eve.card.id}`, {
          headers: { Cookie: eve.cookie },
        }),
        context: contextFor(other.host),
        params: { cardId: eve.card.id },
      }),
    )
    expect(((await loaded.json()) as { directory: string[] }).directory).toEqual([
      'jobTitle',
      'department',
      'phoneNumber',
    ])
    // A new card of hers starts with what the directory holds, whatever was typed.
    const second = await withTenant(org, (tx) =>
      createCardUnderTemplate(tx, org, eve.user.id, {
        title: 'Second',
        firstName: 'Eve',
        lastName: 'Adams',
        jobTitle: 'Intern',
      }),
    )
    expect(await cardRow(second.id)).toMatchObject({
      jobTitle: 'Head of Sales',
      department: 'Sales EMEA',
      phoneNumber: '+1 555 0199',
    })
  })

  test('the card editor keeps locked fields and refuses an emptied required one', async () => {
    const eve = await endUser(who)
    await postTemplates(who, who.adminCookie, {
      intent: 'apply',
      templateId: (await templatesPage(who, who.adminCookie)).templates[0]?.id ?? '',
    })
    // The editor shows the locked fields read only.
    const loaded = await settle(() =>
      editLoader({
        request: requestFor(who.host, `/dashboard/end-user/digital-cards/edit/${eve.card.id}`, {
          headers: { Cookie: eve.cookie },
        }),
        context: contextFor(who.host),
        params: { cardId: eve.card.id },
      }),
    )
    expect(((await loaded.json()) as { locked: string[] }).locked).toEqual([
      'background',
      'logo',
      'company',
      'links',
    ])
    const response = await edit(who, eve.cookie, eve.card.id, DETAILS)
    await expect(response).toSendToast({
      title: 'Locked fields kept',
      description: keptMessage(['company', 'links']),
    })
    const card = await cardRow(eve.card.id)
    expect(card).toMatchObject({ company: 'Acme Group', jobTitle: 'Engineer', title: 'Work' })
    expect(await linksOf(eve.card.id)).toEqual(ACME_LINKS)
    // The required website may change, never to empty.
    const emptied = await edit(who, eve.cookie, eve.card.id, { ...DETAILS, website: '' })
    expect(emptied.status).toBe(400)
    expect((await replyErrors(emptied)).website).toEqual([requiredMessage('website')])
    expect((await cardRow(eve.card.id))?.website).toBe('https://eve.example')
  })

  test('the card editor refuses a locked background and keeps a locked logo', async () => {
    const [card] = await getDb()
      .select()
      .from(digitalCards)
      .where(
        and(
          eq(digitalCards.organizationId, who.organization.id),
          isNotNull(digitalCards.templateId),
        ),
      )
      .limit(1)
    if (!card) throw new Error('no card')
    const cookie = await who.cookieOf(card.userId)
    const background = await edit(who, cookie, card.id, {
      intent: 'background',
      kind: 'color',
      value: '#ff0000',
    })
    expect(background.status).toBe(409)
    expect((await replyErrors(background)).background).toEqual([lockedMessage('background')])
    const visuals = await edit(who, cookie, card.id, { intent: 'visuals', logoMediaId: 'none' })
    await expect(visuals).toSendToast({ description: keptMessage(['logo']) })
    expect(await cardRow(card.id)).toMatchObject({
      backgroundValue: '#112233',
      logoMediaId: who.logo.id,
    })
  })

  test("a duplicated card starts from the owner's template with its locks", async () => {
    const user = await makeUser(who.organization.id, {
      firstName: 'Dan',
      lastName: 'Dup',
      company: 'Dan Co',
    })
    const cookie = await who.cookieOf(user.id)
    await settle(() =>
      listAction({
        request: formRequest(
          who.host,
          '/dashboard/end-user/digital-cards',
          { intent: 'create', method: 'duplicate', title: 'Dup' },
          cookie,
        ),
        context: contextFor(who.host),
        params: {},
      }),
    )
    const [card] = await getDb().select().from(digitalCards).where(eq(digitalCards.userId, user.id))
    expect(card).toMatchObject({
      company: 'Acme Group',
      backgroundValue: '#112233',
      logoMediaId: who.logo.id,
    })
    expect(card?.templateId).not.toBeNull()
    expect(await linksOf(card?.id ?? '')).toEqual(ACME_LINKS)
  })

  test("the wizard's new card takes the template's locked values", async () => {
    const user = await makeUser(who.organization.id, { firstName: 'Wes', lastName: 'Wiz' })
    const cookie = await who.cookieOf(user.id)
    const post = (path: string, fields: Record<string, string>) =>
      settle(() =>
        onboardingAction({
          request: formRequest(who.host, path, fields, cookie),
          context: contextFor(who.host),
          params: {},
        }),
      )
    await post('/onboarding?step=1&mode=card', { firstName: 'Wes', lastName: 'Wiz' })
    await post('/onboarding?step=3&mode=card', { company: 'Wes Widgets', jobTitle: 'Boss' })
    await post('/onboarding?step=4&mode=card', { backgroundChoice: 'color:#ffffff' })
    await post('/onboarding?step=5&mode=card', {})
    const [card] = await getDb().select().from(digitalCards).where(eq(digitalCards.userId, user.id))
    expect(card).toMatchObject({
      company: 'Acme Group',
      jobTitle: 'Boss',
      backgroundValue: '#112233',
      website: 'https://acme.example',
    })
  })

  test('the REST API keeps locked fields on create and update', async () => {
    const other = await agency()
    await createDefaultTemplate(other)
    const owner = await makeUser(other.organization.id, { firstName: 'Api', lastName: 'Owner' })
    const { key } = await createApiKey(
      {
        tenant: { id: other.organization.id, kind: 'agency' } as Tenant,
        user: other.admin,
        session: { sessionId: 'test' },
      },
      { name: 'Sync', scopes: ['cards:read', 'cards:write'] },
    )
    const call = async (method: string, path: string, body: unknown) => {
      const request = new Request(`http://${other.host}/api/v1${path}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      })
      const response = (await apiAction({
        request,
        context: contextFor(other.host),
        params: {},
      })) as Response
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    }
    const made = await call('POST', '/cards', {
      owner_id: owner.id,
      first_name: 'Api',
      last_name: 'Owner',
      company: 'Not Acme',
      website: 'https://mine.example',
    })
    expect(made.status).toBe(201)
    const card = made.body.card as { id: string; company: string; website: string }
    expect(card.company).toBe('Acme Corp')
    const changed = await call('PATCH', `/cards/${card.id}`, {
      company: 'Rogue',
      job_title: 'Chief',
    })
    expect(changed.status).toBe(200)
    expect(changed.body.card).toMatchObject({ company: 'Acme Corp', job_title: 'Chief' })
    expect(changed.body.locked_fields_kept).toEqual(['company'])
    // A required field emptied is refused as a problem, and nothing is written.
    const emptied = await call('PATCH', `/cards/${card.id}`, { website: '' })
    expect(emptied.status).toBe(422)
  })

  test("the card editor's details keep the locked address and links", async () => {
    const other = await agency()
    await createDefaultTemplate(other, {
      addressMode: 'locked',
      logoMode: 'free',
      useAgencyLogo: '',
      backgroundMode: 'free',
    })
    const user = await makeUser(other.organization.id, { firstName: 'Pat', lastName: 'Pro' })
    const cookie = await other.cookieOf(user.id)
    // A card made now follows the default template.
    await settle(() =>
      listAction({
        request: formRequest(
          other.host,
          '/dashboard/end-user/digital-cards',
          { intent: 'create', method: 'duplicate', title: '' },
          cookie,
        ),
        context: contextFor(other.host),
        params: {},
      }),
    )
    const [card] = await getDb().select().from(digitalCards).where(eq(digitalCards.userId, user.id))
    if (!card) throw new Error('no card')
    const response = await edit(other, cookie, card.id, {
      intent: 'details',
      title: card.title,
      firstName: 'Pat',
      lastName: 'Pro',
      email: card.email ?? '',
      company: card.company ?? '',
      website: card.website ?? '',
      bio: 'Hello',
      addressStreet: '9 Elsewhere Rd',
      addressCity: 'Nowhere',
      'links[0].kind': 'github',
      'links[0].url': 'https://github.com/pat',
    })
    expect(response).toHaveRedirect(
      `/dashboard/end-user/digital-cards/edit/${card.id}?step=details`,
    )
    expect(await cardRow(card.id)).toMatchObject({
      bio: 'Hello',
      addressStreet: '1 Main St',
      addressCity: 'Springfield',
    })
    expect(await linksOf(card.id)).toEqual(ACME_LINKS)
  })

  test('deviating cards are listed with their count and reset to the template', async () => {
    const page = await templatesPage(who, who.adminCookie)
    const template = page.templates[0]
    if (!template) throw new Error('no template')
    // A card strays (written past the app, as a restore or an old import could leave it).
    const [card] = await getDb()
      .select()
      .from(digitalCards)
      .where(eq(digitalCards.templateId, template.id))
      .limit(1)
    if (!card) throw new Error('no card')
    await withTenant(who.organization.id, (tx) =>
      tx.update(digitalCards).set({ company: 'Stray' }).where(eq(digitalCards.id, card.id)),
    )
    const before = await templatesPage(who, who.memberCookie)
    expect(before.templates[0]?.deviating).toEqual([
      expect.objectContaining({ cardId: card.id, fields: ['company'] }),
    ])
    // A member reads the list but may not reset.
    const refused = await postTemplates(who, who.memberCookie, {
      intent: 'reset',
      templateId: template.id,
      cardId: card.id,
    })
    expect(refused.status).toBe(403)
    const reset = await postTemplates(who, who.adminCookie, {
      intent: 'reset',
      templateId: template.id,
      cardId: card.id,
    })
    await expect(reset).toSendToast({ title: 'Reset to template' })
    expect((await cardRow(card.id))?.company).toBe('Acme Group')
    expect((await templatesPage(who, who.adminCookie)).templates[0]?.deviating).toEqual([])
  })

  test("a team's template wins over the default, and deleting it frees the cards", async () => {
    const [team] = await getDb()
      .insert(teams)
      .values({ organizationId: who.organization.id, name: 'Sales' })
      .returning()
    if (!team) throw new Error('no team')
    const user = await makeUser(who.organization.id, { firstName: 'Tia', lastName: 'Team' })
    await getDb()
      .insert(teamMembers)
      .values({ organizationId: who.organization.id, teamId: team.id, userId: user.id })
    const saved = await postTemplates(who, who.adminCookie, {
      ...TEMPLATE,
      name: 'Sales',
      teamId: team.id,
      company: 'Acme Sales',
    })
    expect(saved).toHaveRedirect('/dashboard/agency/templates')
    const card = await withTenant(who.organization.id, (tx) =>
      createCardUnderTemplate(tx, who.organization.id, user.id, {
        firstName: 'Tia',
        lastName: 'Team',
      }),
    )
    expect(card.company).toBe('Acme Sales')
    const deleted = await postTemplates(who, who.adminCookie, {
      intent: 'delete',
      templateId: card.templateId ?? '',
    })
    await expect(deleted).toSendToast({ title: 'Template deleted' })
    expect(await cardRow(card.id)).toMatchObject({ templateId: null, company: 'Acme Sales' })
  })

  test("two admins creating a team's template at the same instant: one is created, the other told, never a 500", async () => {
    const [team] = await getDb()
      .insert(teams)
      .values({ organizationId: who.organization.id, name: 'Race' })
      .returning()
    if (!team) throw new Error('no team')
    const second = await makeUser(who.organization.id, { role: 'agency_admin' })
    const secondCookie = await who.cookieOf(second.id)
    const fields = { ...TEMPLATE, name: 'Race', teamId: team.id }
    const answers = await Promise.all([
      postTemplates(who, who.adminCookie, fields),
      postTemplates(who, secondCookie, { ...fields, name: 'Race too' }),
    ])
    expect(answers.map((answer) => answer.status).sort()).toEqual([302, 409])
    const refused = answers.find((answer) => answer.status === 409)
    if (!refused) throw new Error('none refused')
    // Whichever came second: the check's message, or (it passed the check) the index's.
    expect((await replyErrors(refused)).teamId?.[0]).toMatch(
      /^This team already has a template|^This team got a template from someone else just now/,
    )
    const rows = await getDb()
      .select({ id: cardTemplates.id })
      .from(cardTemplates)
      .where(eq(cardTemplates.teamId, team.id))
    expect(rows).toHaveLength(1)
  })

  // The interleaving made certain (a real server runs transactions side by side; PGlite runs
  // them one after the other): another admin's template is written but not yet committed when
  // this save checks, so the check finds nothing and the insert waits on the unique index.
  test("a save that passed the check meets the unique index: the form's message, nothing written", async (context) => {
    // The handle is known once the file's database is up, not when the file is collected.
    if (getDatabaseHandle().driver !== 'postgres') context.skip()
    for (const teamName of ['Race 2', null] as const) {
      const spare = teamName ? undefined : await agency()
      const owner = spare ?? who
      const [team] = teamName
        ? await getDb()
            .insert(teams)
            .values({ organizationId: owner.organization.id, name: teamName })
            .returning()
        : [undefined]
      let answer: Promise<Response> | undefined
      await getDb().transaction(async (tx) => {
        await tx.insert(cardTemplates).values({
          organizationId: owner.organization.id,
          teamId: team?.id ?? null,
          name: 'First',
        })
        answer = postTemplates(owner, owner.adminCookie, {
          ...TEMPLATE,
          name: 'Second',
          teamId: team?.id ?? '',
        })
        // Until the save waits on the index (the row above holds it).
        for (let tries = 0; tries < 200; tries++) {
          const [waiting] = rowsOf<{ n: number }>(
            await getDb().execute(
              sql`select count(*)::int as n from pg_stat_activity
                    where datname = current_database() and wait_event_type = 'Lock'`,
            ),
          )
          if ((waiting?.n ?? 0) > 0) break
          await new Promise((resolve) => setTimeout(resolve, 25))
        }
      })
      const refused = await answer
      if (!refused) throw new Error('no answer')
      expect(refused.status).toBe(409)
      expect((await replyErrors(refused)).teamId).toEqual([
        team ? TEMPLATE_TAKEN_MEANWHILE.team : TEMPLATE_TAKEN_MEANWHILE.default,
      ])
      const names = await getDb()
        .select({ name: cardTemplates.name })
        .from(cardTemplates)
        .where(eq(cardTemplates.organizationId, owner.organization.id))
      expect(names.map((row) => row.name)).not.toContain('Second')
    }
  })
})

describe('joining a team', () => {
  let who: Agency
  let defaultTemplateId: string
  beforeAll(async () => {
    who = await agency()
    defaultTemplateId = (await createDefaultTemplate(who)).id
  })

  /** An end user on a team plan (teams need one), with a card made before any template. */
  async function person(company: string) {
    const user = await makeUser(who.organization.id, { firstName: company, lastName: 'Person' })
    await withTenant(who.organization.id, (tx) =>
      setUserPlan(tx, who.organization.id, user.id, 'free', 'team_pro'),
    )
    const card = await makeCard(who.organization.id, user.id, { firstName: company, company })
    return { user, card, cookie: await who.cookieOf(user.id) }
  }

  const teamPost = (cookie: string, fields: Record<string, string>) =>
    settle(() =>
      teamAction({
        request: formRequest(who.host, '/dashboard/end-user/team', fields, cookie),
        context: contextFor(who.host),
        params: {},
      }),
    )

  async function teamWithTemplate(owner: Awaited<ReturnType<typeof person>>) {
    const created = await teamPost(owner.cookie, {
      intent: 'create-team',
      name: `Team of ${owner.user.firstName}`,
      description: '',
    })
    const teamId = new URL(created.headers.get('Location') ?? '', 'http://x').searchParams.get(
      'team',
    )
    if (!teamId) throw new Error('no team')
    const saved = await postTemplates(who, who.adminCookie, {
      ...TEMPLATE,
      name: `Sales ${teamId}`,
      teamId,
      company: 'Acme Sales',
    })
    expect(saved).toHaveRedirect('/dashboard/agency/templates')
    const [template] = await getDb()
      .select({ id: cardTemplates.id })
      .from(cardTemplates)
      .where(eq(cardTemplates.teamId, teamId))
    if (!template) throw new Error('no team template')
    return { teamId, templateId: template.id }
  }

  test("a team's creator takes the default; someone added by email keeps their cards until they accept", async () => {
    const owner = await person('Own Ltd')
    const { teamId, templateId } = await teamWithTemplate(owner)
    // Creating the team (no template of its own yet): the owner's card follows the default.
    expect(await cardRow(owner.card.id)).toMatchObject({
      templateId: defaultTemplateId,
      company: 'Acme Corp',
    })
    const member = await person('Mia Ltd')
    const before = await cardRow(member.card.id)
    const added = await teamPost(owner.cookie, {
      intent: 'add-member',
      teamId,
      email: member.user.email,
      role: 'member',
    })
    // An invitation, never a forced membership (issue 39 point 3, ADR 058): nothing of their
    // cards moves until they accept it (the next test).
    await expect(added).toSendToast({ title: `Invitation sent to ${member.user.email}` })
    expect(await cardRow(member.card.id)).toEqual(before)
    expect(before?.templateId).not.toBe(templateId)
  })

  test("an accepted invitation brings the new member's cards under the team's template", async () => {
    const owner = await person('Boss Ltd')
    const { teamId, templateId } = await teamWithTemplate(owner)
    const invitee = await person('Ivy Ltd')
    const token = newLinkToken()
    await withTenant(who.organization.id, (tx) =>
      insertInvitation(tx, who.organization.id, {
        teamId,
        email: invitee.user.email,
        role: 'member',
        tokenHash: hashToken(token),
        invitedByUserId: owner.user.id,
      }),
    )
    const accepted = await settle(() =>
      acceptAction({
        request: formRequest(
          who.host,
          `/invitations/${token}`,
          { intent: 'accept' },
          invitee.cookie,
        ),
        context: contextFor(who.host),
        params: { token },
      }),
    )
    await expect(accepted).toSendToast({ title: 'You have joined the team' })
    expect(await cardRow(invitee.card.id)).toMatchObject({ templateId, company: 'Acme Sales' })
    // A card already following it is left as it is: joining again changes nothing.
    expect(await cardRow(owner.card.id)).toMatchObject({ templateId: defaultTemplateId })
  })
})
