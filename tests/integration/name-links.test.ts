// Name links (issue 26 point 4, ADR 027): `/card/{first}-{last}` belongs to one account, the
// first of the organization to carry that name. No card's title or name fields take it, so a
// colleague cannot receive someone else's leads by renaming a card or an account; a rename gives
// the old link up, and the next account to save that name takes it.
import { and, eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { deleteAccount } from '#app/models/people.server'
import { updateProfile } from '#app/models/users.server'
import { action as cardAction, loader as cardLoader } from '#app/routes/card.$ref'
import { getDb, withTenant } from '#drizzle/db.server'
import { contacts, users } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'

async function tenant() {
  const organization = await makeOrganization()
  return { orgId: organization.id, host: `${organization.slug}.localhost` }
}

/** The card id a link opens on `host`, or null for the missing-card 404. */
async function opens(host: string, ref: string) {
  const response = await settle(() =>
    cardLoader({
      request: requestFor(host, `/card/${ref}`),
      context: contextFor(host),
      params: { ref },
    }),
  )
  if (response.status === 404) return null
  expect(response.status).toBe(200)
  return ((await response.json()) as { card: { id: string } }).card.id
}

const linkOf = async (userId: string) =>
  (await getDb().select({ slug: users.linkSlug }).from(users).where(eq(users.id, userId)))[0]?.slug

const rename = (orgId: string, userId: string, firstName: string, lastName: string) =>
  withTenant(orgId, (tx) => updateProfile(tx, orgId, userId, { firstName, lastName }))

describe('a name link belongs to one account', () => {
  test("a colleague's card renamed (names and title) to someone's name does not take their link or leads", async () => {
    const { orgId, host } = await tenant()
    const last = `Name${uniqueSuffix()}`
    const slug = `nina-${last.toLowerCase()}`
    const nina = await makeUser(orgId, { firstName: 'Nina', lastName: last })
    const carl = await makeUser(orgId, { firstName: 'Carl', lastName: 'Colleague' })
    // Carl's card carries Nina's name, and is older than hers.
    const carlsCard = await makeCard(orgId, carl.id, {
      firstName: 'Nina',
      lastName: last,
      title: `Nina ${last}`,
    })
    const ninasCard = await makeCard(orgId, nina.id, { firstName: 'Nina', lastName: last })
    expect(await opens(host, slug)).toBe(ninasCard.id)

    // A lead through the name link reaches Nina, not Carl.
    const lead = await settle(() =>
      cardAction({
        request: formRequest(host, `/card/${slug}`, {
          intent: 'lead',
          fullName: 'Lena Lead',
          email: `lena-${slug}@example.test`,
        }),
        context: contextFor(host, '198.51.100.90'),
        params: { ref: slug },
      }),
    )
    expect(lead.status).toBe(200)
    const owners = await getDb()
      .select({ userId: contacts.userId })
      .from(contacts)
      .where(
        and(eq(contacts.organizationId, orgId), eq(contacts.email, `lena-${slug}@example.test`)),
      )
    expect(owners).toEqual([{ userId: nina.id }])

    // Renaming his account to hers does not take it either: the first account keeps it.
    await rename(orgId, carl.id, 'Nina', last)
    expect(await opens(host, slug)).toBe(ninasCard.id)
    expect(await linkOf(carl.id)).toBeNull()
    // Id links open each card as before.
    expect(await opens(host, carlsCard.id)).toBe(carlsCard.id)
    expect(await opens(host, ninasCard.id)).toBe(ninasCard.id)
  })

  test('two people with one name: the first account holds it; a rename gives it up; the next to save the name takes it', async () => {
    const { orgId, host } = await tenant()
    const last = `Same${uniqueSuffix()}`
    const slug = `sam-${last.toLowerCase()}`
    const first = await makeUser(orgId, { firstName: 'Sam', lastName: last })
    const second = await makeUser(orgId, { firstName: ' SAM ', lastName: last.toUpperCase() })
    const firstCard = await makeCard(orgId, first.id, { firstName: 'Sam', lastName: last })
    const secondCard = await makeCard(orgId, second.id, { firstName: 'Sam', lastName: last })
    expect(await linkOf(first.id)).toBe(slug)
    expect(await linkOf(second.id)).toBeNull()
    // Either case and either spacing of the name: the same link, the first account's.
    expect(await opens(host, slug)).toBe(firstCard.id)
    expect(await opens(host, slug.toUpperCase())).toBe(firstCard.id)

    // The holder renames: the old link opens nothing (it is not handed on by itself) ...
    await rename(orgId, first.id, 'Sam', `Other${last}`)
    expect(await opens(host, slug)).toBeNull()
    expect(await opens(host, `sam-other${last.toLowerCase()}`)).toBe(firstCard.id)
    // ... until the namesake saves the name again.
    await rename(orgId, second.id, 'Sam', last)
    expect(await opens(host, slug)).toBe(secondCard.id)

    // A deleted account's link goes with it.
    await withTenant(orgId, (tx) => deleteAccount(tx, orgId, second.id))
    expect(await opens(host, slug)).toBeNull()
  })

  test('only the claim sets a link: a write of someone else’s link is recomputed', async () => {
    const { orgId } = await tenant()
    const holder = await makeUser(orgId, { firstName: 'Hal', lastName: `Holder${uniqueSuffix()}` })
    const other = await makeUser(orgId, { firstName: 'Olly', lastName: `Other${uniqueSuffix()}` })
    const held = await linkOf(holder.id)
    expect(held).toBeTruthy()
    await getDb().execute(sql`update users set link_slug = ${held} where id = ${other.id}`)
    expect(await linkOf(other.id)).toBe(`olly-${other.lastName.toLowerCase()}`)
    expect(await linkOf(holder.id)).toBe(held)
  })

  test('an account without a first or last name has no name link', async () => {
    const { orgId } = await tenant()
    const single = await makeUser(orgId, { firstName: 'Mononym', lastName: ' ' })
    expect(await linkOf(single.id)).toBeNull()
  })
})
