// A template that locks the agency's logo (ADR 048) follows the Branding logo: a new logo saved
// on the Branding screen reaches the cards that carry it in the same save, audited with how many
// changed; cards under a template whose logo is free keep their own.
import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { action as brandingAction } from '#app/routes/dashboard.agency.branding'
import { action as templatesAction } from '#app/routes/dashboard.agency.templates'
import { createCardUnderTemplate } from '#app/templates/template-locks.server'
import { getDb, withTenant } from '#drizzle/db.server'
import {
  auditEvents,
  cardTemplates,
  digitalCards,
  organizations,
  teamMembers,
  teams,
} from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeBrandedOrganization,
  makePng,
  makeUser,
  sessionCookieFor,
  settle,
} from '#tests/factories'

const TEMPLATE = {
  intent: 'save',
  name: 'Standard',
  teamId: '',
  background: 'color:#112233',
  useAgencyLogo: 'on',
  logoMode: 'locked',
  company: 'Brand Co',
  companyMode: 'locked',
  website: '',
  websiteMode: 'free',
  addressMode: 'free',
  linksMode: 'free',
  backgroundMode: 'free',
}

describe('the Branding logo and the templates that lock it', () => {
  test("a new logo reaches the locked cards in the save; a free logo's cards keep theirs", async () => {
    const { organization, logo: logoMedia } = await makeBrandedOrganization({ name: 'Brand Co' })
    const logo = logoMedia.id
    const host = `${organization.slug}.localhost`
    const admin = await makeUser(organization.id, { role: 'agency_admin' })
    const cookie = await sessionCookieFor(organization.id, admin.id)
    const post = (fields: Record<string, string>) =>
      settle(() =>
        templatesAction({
          request: formRequest(host, '/dashboard/agency/templates', fields, cookie),
          context: contextFor(host),
          params: {},
        }),
      )
    expect(await post(TEMPLATE)).toHaveRedirect('/dashboard/agency/templates')
    // A team's template takes the agency's logo too, but leaves it free.
    const [team] = await getDb()
      .insert(teams)
      .values({ organizationId: organization.id, name: 'Field' })
      .returning()
    if (!team) throw new Error('no team')
    expect(
      await post({ ...TEMPLATE, name: 'Field', teamId: team.id, logoMode: 'free' }),
    ).toHaveRedirect('/dashboard/agency/templates')

    const locked = await makeUser(organization.id, { firstName: 'Lou' })
    const free = await makeUser(organization.id, { firstName: 'Fay' })
    await getDb()
      .insert(teamMembers)
      .values({ organizationId: organization.id, teamId: team.id, userId: free.id })
    const [lockedCard, freeCard] = await withTenant(organization.id, async (tx) => [
      await createCardUnderTemplate(tx, organization.id, locked.id, {
        firstName: 'Lou',
        lastName: 'Locke',
        title: 'Card',
      }),
      await createCardUnderTemplate(tx, organization.id, free.id, {
        firstName: 'Fay',
        lastName: 'Free',
        title: 'Card',
      }),
    ])
    expect(lockedCard?.logoMediaId).toBe(logo)
    expect(freeCard?.logoMediaId).toBe(logo)

    const body = new FormData()
    for (const [key, value] of Object.entries({
      intent: 'save',
      companyName: 'Brand Co',
      primaryColor: '#E11D48',
      secondaryColor: '#22c55e',
      customDomain: '',
      whiteLabelActive: 'on',
    })) {
      body.set(key, value)
    }
    body.set(
      'logoFile',
      new Blob([await makePng('#0000ff', 400, 160)], { type: 'image/png' }),
      'l.png',
    )
    const saved = await settle(() =>
      brandingAction({
        request: new Request(`http://${host}/dashboard/agency/branding`, {
          method: 'POST',
          body,
          headers: { Cookie: cookie },
        }),
        context: contextFor(host),
        params: {},
      }),
    )
    expect(saved.status).toBe(302)

    const [agency] = await getDb()
      .select({ logo: organizations.logoMediaId })
      .from(organizations)
      .where(eq(organizations.id, organization.id))
    expect(agency?.logo).toBeTruthy()
    expect(agency?.logo).not.toBe(logo)
    const logoOf = async (id: string) =>
      (
        await getDb()
          .select({ logo: digitalCards.logoMediaId })
          .from(digitalCards)
          .where(eq(digitalCards.id, id))
      )[0]?.logo
    expect(await logoOf(lockedCard?.id ?? '')).toBe(agency?.logo)
    expect(await logoOf(freeCard?.id ?? '')).toBe(logo)

    const [event] = await getDb()
      .select({ metadata: auditEvents.metadata })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, organization.id),
          eq(auditEvents.action, 'branding.updated'),
        ),
      )
    expect(event?.metadata).toMatchObject({ logoChanged: true, cardsWithLogo: 1 })
    // Nothing strays from its template afterwards.
    const templates = await getDb()
      .select({ id: cardTemplates.id })
      .from(cardTemplates)
      .where(eq(cardTemplates.organizationId, organization.id))
    expect(templates).toHaveLength(2)
  })
})
