// A departed person's links stay with the agency (issue 39 point 3, ADR 058): once an account is
// deleted (ADR 053), its short link slug and name link keep forwarding to the successor (or the
// agency's default) for DEPARTED_LINK_QUARANTINE_DAYS, 90 by default. Until then a new card steps
// over the slug, the short-link form refuses it next to the field, and an account of the same
// name (new or renamed) gets no name link; afterwards each may take it. The clock is moved in the
// database (the rows' `held_until`), never on the wall.
import { execFileSync } from 'node:child_process'
import { and, eq, sql } from 'drizzle-orm'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { resetEnvForTests } from '#app/env.server'
import { scheduleAccountDeletion } from '#app/models/account-deletions.server'
import { setSeatSuccessor } from '#app/models/seat-successors.server'
import { findUserById, updateProfile } from '#app/models/users.server'
import { deleteAccountWhenDue } from '#app/people/account-deletion.server'
import { loader as shortLinkLoader } from '#app/routes/c.$slug'
import { loader as cardLoader } from '#app/routes/card.$ref'
import { action as agencyTeamAction } from '#app/routes/dashboard.agency.team'
import { action as agencyUsersAction } from '#app/routes/dashboard.agency.users._index'
import { action as editAction } from '#app/routes/dashboard.end-user.digital-cards.edit.$cardId'
import { SLUG_MESSAGES } from '#app/validation/card-slug'
import { getDb, withTenant } from '#drizzle/db.server'
import { cardSlugs, departedAddresses } from '#drizzle/schema'
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
  uniqueSuffix,
} from '#tests/factories'

const DAY_MS = 86_400_000

let orgId: string
let host: string
let keeperId: string

beforeAll(async () => {
  const { organization } = await makeBrandedOrganization()
  orgId = organization.id
  host = `${organization.slug}.localhost`
  keeperId = (
    await makeUser(orgId, { role: 'agency_admin', email: `keeper-${uniqueSuffix()}@a.test` })
  ).id
})

afterEach(() => {
  delete process.env.DEPARTED_LINK_QUARANTINE_DAYS
  resetEnvForTests()
})

const currentSlug = async (cardId: string) =>
  (
    await getDb()
      .select({ slug: cardSlugs.slug })
      .from(cardSlugs)
      .where(and(eq(cardSlugs.cardId, cardId), sql`${cardSlugs.retiredAt} is null`))
  )[0]?.slug ?? ''

const linkSlugOf = async (userId: string) =>
  (await withTenant(orgId, (tx) => findUserById(tx, orgId, userId)))?.linkSlug ?? null

/** The card editor's short-link form, posted by the card's owner. */
const setSlug = (cardId: string, cookie: string, slug: string) =>
  settle(() =>
    editAction({
      request: formRequest(
        host,
        `/dashboard/end-user/digital-cards/edit/${cardId}`,
        { intent: 'short-link', slug },
        cookie,
      ),
      context: contextFor(host),
      params: { cardId },
    }),
  )

const openSlug = (slug: string) =>
  settle(() =>
    shortLinkLoader({
      request: requestFor(host, `/c/${slug}`),
      context: contextFor(host),
      params: { slug },
    }),
  )

const openName = (ref: string) =>
  settle(() =>
    cardLoader({
      request: requestFor(host, `/card/${ref}`),
      context: contextFor(host),
      params: { ref },
    }),
  )

/** Someone with a public card and a name link, whose deletion has run, handing over to Sam. */
async function departed() {
  const lastName = `Gone${uniqueSuffix().slice(0, 5)}`
  const dora = await makeUser(orgId, { firstName: 'Dora', lastName })
  const card = await makeCard(orgId, dora.id, { firstName: 'Dora', lastName })
  const sam = await makeUser(orgId, { firstName: 'Sam', lastName: `Next${uniqueSuffix()}` })
  const samCard = await makeCard(orgId, sam.id, { firstName: 'Sam', lastName: 'Next' })
  await withTenant(orgId, (tx) => setSeatSuccessor(tx, orgId, dora.id, sam.id, null))
  const slug = await currentSlug(card.id)
  const nameLink = await linkSlugOf(dora.id)
  if (!slug || !nameLink) throw new Error('no links to depart')
  await withTenant(orgId, (tx) =>
    scheduleAccountDeletion(tx, orgId, dora.id, new Date(Date.now() - 60_000)),
  )
  const before = Date.now()
  expect(await deleteAccountWhenDue(orgId, dora.id)).toBe(true)
  return { lastName, slug, nameLink, samSlug: await currentSlug(samCard.id), before }
}

const heldRows = () =>
  getDb().select().from(departedAddresses).where(eq(departedAddresses.organizationId, orgId))

/** The quarantine is over: the clock moved in the database. */
const endQuarantine = () =>
  getDb()
    .update(departedAddresses)
    .set({ heldUntil: new Date(Date.now() - 60_000) })
    .where(eq(departedAddresses.organizationId, orgId))

describe('during the quarantine', () => {
  test('the links keep forwarding to the successor; no card or account may claim them', async () => {
    const gone = await departed()
    // 90 days by default, from the departure.
    const rows = (await heldRows()).filter((row) =>
      [gone.slug, gone.nameLink].includes(row.address),
    )
    expect(rows).toHaveLength(2)
    for (const row of rows) {
      const ahead = row.heldUntil.getTime() - gone.before
      expect(ahead).toBeGreaterThanOrEqual(90 * DAY_MS - 1000)
      expect(ahead).toBeLessThan(90 * DAY_MS + 60_000)
    }

    // A namesake joins: their account gets no name link, their card steps over the slug.
    const namesake = await makeUser(orgId, { firstName: 'Dora', lastName: gone.lastName })
    expect(await linkSlugOf(namesake.id)).toBeNull()
    const namesakeCard = await makeCard(orgId, namesake.id, {
      firstName: 'Dora',
      lastName: gone.lastName,
    })
    expect(await currentSlug(namesakeCard.id)).not.toBe(gone.slug)

    // Someone renamed to that name gets no name link either.
    const renamed = await makeUser(orgId, { firstName: 'Rita', lastName: `R${uniqueSuffix()}` })
    await withTenant(orgId, (tx) =>
      updateProfile(tx, orgId, renamed.id, { firstName: 'Dora', lastName: gone.lastName }),
    )
    expect(await linkSlugOf(renamed.id)).toBeNull()

    // The short-link form refuses the slug, with the reason next to the field, and changes nothing.
    const cookie = await sessionCookieFor(orgId, namesake.id)
    const before = await currentSlug(namesakeCard.id)
    const refused = await setSlug(namesakeCard.id, cookie, gone.slug)
    expect(refused.status).toBe(409)
    expect((await replyErrors(refused)).slug).toEqual([SLUG_MESSAGES.held])
    expect(await currentSlug(namesakeCard.id)).toBe(before)
    // In any case of letters too.
    const upper = await setSlug(namesakeCard.id, cookie, gone.slug.toUpperCase())
    expect(upper.status).toBeGreaterThanOrEqual(400)
    expect(await currentSlug(namesakeCard.id)).toBe(before)

    // The successor keeps the traffic: both links still lead to Sam's card.
    const bySlug = await openSlug(gone.slug)
    expect(bySlug).toHaveRedirect(new RegExp(`^/c/${gone.samSlug}(\\?s=q)?$`))
    const byName = await openName(gone.nameLink)
    expect(byName).toHaveRedirect(new RegExp(`^/c/${gone.samSlug}(\\?s=q)?$`))
  })
})

describe('whoever deletes the account', () => {
  // One way an account goes (removeAccount): an admin's deletion holds the links as the
  // person's own does, forwarding to the agency's default when nobody succeeds.
  test.each([
    [
      'an end user, from the users page',
      'end_user',
      '/dashboard/agency/users?index',
      'delete-user',
    ],
    [
      'a team member, from the team page',
      'agency_member',
      '/dashboard/agency/team',
      'delete-member',
    ],
  ] as const)('%s', async (_, role, path, intent) => {
    const lastName = `Left${uniqueSuffix().slice(0, 5)}`
    const leaver = await makeUser(orgId, { firstName: 'Lee', lastName, role })
    const card = await makeCard(orgId, leaver.id, { firstName: 'Lee', lastName })
    const slug = await currentSlug(card.id)
    const nameLink = await linkSlugOf(leaver.id)
    if (!slug || !nameLink) throw new Error('no links to depart')
    const cookie = await sessionCookieFor(orgId, keeperId)
    const action = intent === 'delete-user' ? agencyUsersAction : agencyTeamAction
    const answer = await settle(() =>
      action({
        request: formRequest(
          host,
          path,
          { intent, userId: leaver.id, organizationId: orgId },
          cookie,
        ),
        context: contextFor(host),
        params: {},
      }),
    )
    expect(answer.status).toBeLessThan(400)
    expect(await withTenant(orgId, (tx) => findUserById(tx, orgId, leaver.id))).toBeUndefined()
    const held = (await heldRows()).filter((row) => [slug, nameLink].includes(row.address))
    expect(held.map((row) => [row.address, row.successorId])).toEqual(
      expect.arrayContaining([
        [slug, null],
        [nameLink, null],
      ]),
    )
    const namesake = await makeUser(orgId, { firstName: 'Lee', lastName })
    expect(await linkSlugOf(namesake.id)).toBeNull()
    // The link still answers: the agency's forwarding, not a 404 for a printed QR code.
    expect((await openSlug(slug)).status).not.toBe(404)
  })
})

test('every deletion of an account goes through removeAccount: the model is called nowhere else', () => {
  const callers = execFileSync('git', ['grep', '-n', 'deleteAccount(', '--', 'app'], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .filter((line) => !line.startsWith('app/models/'))
  expect(callers).toHaveLength(1)
  expect(callers[0]).toMatch(
    /^app\/people\/account-deletion\.server\.ts:\d+:\s+await deleteAccount\(tx/,
  )
})

describe('after the quarantine', () => {
  test('the slug and the name link may be claimed, and the new holder answers', async () => {
    const gone = await departed()
    await endQuarantine()

    const claimer = await makeUser(orgId, { firstName: 'Cleo', lastName: `C${uniqueSuffix()}` })
    const claimerCard = await makeCard(orgId, claimer.id)
    const cookie = await sessionCookieFor(orgId, claimer.id)
    const claimed = await setSlug(claimerCard.id, cookie, gone.slug)
    expect(claimed.status).toBe(200)
    expect(await currentSlug(claimerCard.id)).toBe(gone.slug)
    expect((await openSlug(gone.slug)).status).toBe(200)

    const namesake = await makeUser(orgId, { firstName: 'Dora', lastName: gone.lastName })
    expect(await linkSlugOf(namesake.id)).toBe(gone.nameLink)
  })

  test('a new card of a namesake takes the default slug again', async () => {
    const gone = await departed()
    await endQuarantine()
    const namesake = await makeUser(orgId, { firstName: 'Dora', lastName: gone.lastName })
    const card = await makeCard(orgId, namesake.id, { firstName: 'Dora', lastName: gone.lastName })
    expect(await currentSlug(card.id)).toBe(gone.slug)
  })
})

describe('DEPARTED_LINK_QUARANTINE_DAYS', () => {
  test('sets the period from the departure; 0 frees the links at once', async () => {
    process.env.DEPARTED_LINK_QUARANTINE_DAYS = '7'
    resetEnvForTests()
    const week = await departed()
    const [row] = (await heldRows()).filter((r) => r.address === week.slug)
    const ahead = (row?.heldUntil.getTime() ?? 0) - week.before
    expect(ahead).toBeGreaterThanOrEqual(7 * DAY_MS - 1000)
    expect(ahead).toBeLessThan(7 * DAY_MS + 60_000)

    process.env.DEPARTED_LINK_QUARANTINE_DAYS = '0'
    resetEnvForTests()
    const gone = await departed()
    const namesake = await makeUser(orgId, { firstName: 'Dora', lastName: gone.lastName })
    expect(await linkSlugOf(namesake.id)).toBe(gone.nameLink)
  })
})
