// Card visibility (roles-teams-admin.md §2.6) as each kind of visitor meets it on the card page
// and its vCard: public for anyone; team for the owner and people who share a team with them;
// contacts for the owner and signed-in people whose confirmed email is in the owner's contacts;
// private for the owner only. Everyone left out gets the 404 a missing card gets, and a card
// that is not public is never offered to the page cache.
import { beforeAll, describe, expect, test } from 'vitest'
import { CACHE_TAG_HEADER } from '#app/cache/page-cache.server'
import { addContact } from '#app/models/contacts.server'
import { addTeamMember, createTeamWithAdmin } from '#app/models/teams.server'
import { setUserPreference } from '#app/models/user-settings.server'
import { loader as signInLoader } from '#app/routes/auth.login'
import { action as cardAction, loader as cardLoader } from '#app/routes/card.$ref'
import { loader as vcardLoader } from '#app/routes/card_.$ref.vcard'
import type { Visibility } from '#app/validation/settings'
import { withTenant } from '#drizzle/db.server'
import {
  contextFor,
  formRequest,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'

type Visitor =
  | 'owner'
  | 'teammate'
  | 'sameOrg'
  | 'contact'
  | 'unconfirmedContact'
  | 'anonymous'
  | 'otherTenant'

const visitors: Visitor[] = [
  'owner',
  'teammate',
  'sameOrg',
  'contact',
  'unconfirmedContact',
  'anonymous',
  'otherTenant',
]

// Who sees the card, per visibility: everyone else gets a 404.
const shownTo: Record<Visibility, Visitor[]> = {
  public: visitors,
  team: ['owner', 'teammate'],
  contacts: ['owner', 'contact'],
  private: ['owner'],
}

let host = ''
let orgId = ''
let ownerId = ''
let cardId = ''
const cookies = {} as Record<Visitor, string | null>

beforeAll(async () => {
  const organization = await makeOrganization()
  const other = await makeOrganization()
  orgId = organization.id
  host = `${organization.slug}.localhost`
  const owner = await makeUser(orgId, { role: 'team_admin', firstName: 'Vera' })
  ownerId = owner.id
  const teammate = await makeUser(orgId, { role: 'end_user' })
  const sameOrg = await makeUser(orgId, { role: 'end_user' })
  const contact = await makeUser(orgId, { role: 'end_user' })
  // Signed up with an address in the owner's contacts that they never confirmed owning.
  const unconfirmedContact = await makeUser(orgId, { role: 'end_user', emailConfirmedAt: null })
  // Same email as the contact, but an account of another tenant: its session is not valid here.
  const otherTenant = await makeUser(other.id, { role: 'end_user', email: contact.email })
  // A team without the owner: sharing the organization, or a team, with others is not enough.
  const elsewhere = await withTenant(orgId, (tx) =>
    createTeamWithAdmin(tx, orgId, sameOrg.id, { name: 'Elsewhere', description: '' }),
  )
  await withTenant(orgId, async (tx) => {
    const team = await createTeamWithAdmin(tx, orgId, owner.id, { name: 'Vera', description: '' })
    await addTeamMember(tx, orgId, team.id, teammate.id, 'member')
    await addTeamMember(tx, orgId, elsewhere.id, contact.id, 'member')
    // The same-org user is in the owner's contacts under another address than their account.
    await addContact(tx, orgId, owner.id, { fullName: 'C', email: contact.email.toUpperCase() })
    await addContact(tx, orgId, owner.id, { fullName: 'U', email: unconfirmedContact.email })
    await addContact(tx, orgId, owner.id, { fullName: 'S', email: 'someone-else@example.test' })
  })
  const card = await makeCard(orgId, owner.id, { firstName: 'Vera', email: 'vera@example.test' })
  cardId = card.id
  cookies.owner = await sessionCookieFor(orgId, owner.id)
  cookies.teammate = await sessionCookieFor(orgId, teammate.id)
  cookies.sameOrg = await sessionCookieFor(orgId, sameOrg.id)
  cookies.contact = await sessionCookieFor(orgId, contact.id)
  cookies.unconfirmedContact = await sessionCookieFor(orgId, unconfirmedContact.id)
  cookies.anonymous = null
  cookies.otherTenant = await sessionCookieFor(other.id, otherTenant.id)
})

const headersOf = (who: Visitor) => {
  const cookie = cookies[who]
  return cookie ? { headers: { Cookie: cookie } } : {}
}

// An anonymous request is one the server would answer from (or store in) the page cache.
const contextOf = (who: Visitor) => ({
  ...contextFor(host),
  pageCacheCandidate: cookies[who] === null,
})

const page = (who: Visitor) =>
  settle(() =>
    cardLoader({
      request: requestFor(host, `/card/${cardId}`, headersOf(who)),
      context: contextOf(who),
      params: { ref: cardId },
    }),
  )

const vcard = (who: Visitor) =>
  settle(() =>
    vcardLoader({
      request: requestFor(host, `/card/${cardId}/vcard`, headersOf(who)),
      context: contextOf(who),
      params: { ref: cardId },
    }),
  )

const setVisibility = (visibility: Visibility) =>
  withTenant(orgId, (tx) =>
    setUserPreference(tx, orgId, ownerId, 'privacy', {
      visibility,
      showEmail: true,
      showPhone: true,
    }),
  )

describe.each(Object.keys(shownTo) as Visibility[])('visibility %s', (visibility) => {
  test.each(visitors)('the page and vCard for %s', async (who) => {
    await setVisibility(visibility)
    const expected = shownTo[visibility].includes(who) ? 200 : 404
    const shown = await page(who)
    expect(shown.status).toBe(expected)
    const file = await vcard(who)
    expect(file.status).toBe(expected)
    if (expected === 200) {
      const body = (await shown.json()) as { card: { firstName: string } }
      expect(body.card.firstName).toBe('Vera')
      expect(await file.text()).toContain('vera@example.test')
    } else {
      // Nothing of the card leaves the server.
      expect(await shown.text()).not.toContain('Vera')
      expect(await file.text()).not.toContain('vera@example.test')
    }
    // Only a public card is offered to the shared page cache, and only for an anonymous request.
    const offered = visibility === 'public' && who === 'anonymous'
    expect(shown.headers.get(CACHE_TAG_HEADER) !== null).toBe(offered && expected === 200)
    expect(file.headers.get(CACHE_TAG_HEADER) !== null).toBe(offered && expected === 200)
    if (expected === 200 && visibility !== 'public') {
      expect(shown.headers.get('Cache-Control')).toBe('private, no-cache')
    }
  })
})

describe('actions on a card hidden from the visitor', () => {
  test('saving it as a contact is refused as for a missing card', async () => {
    await setVisibility('team')
    const save = (who: Visitor) =>
      settle(() =>
        cardAction({
          request: formRequest(host, `/card/${cardId}`, { intent: 'save' }, cookies[who] ?? ''),
          context: contextFor(host),
          params: { ref: cardId },
        }),
      )
    expect((await save('sameOrg')).status).toBe(404)
    expect((await save('teammate')).status).toBe(200)
  })

  test('the sign-in page does not name the owner of a card hidden from visitors', async () => {
    const infoFor = async () => {
      const redirectTo = `/card/${cardId}?connect=1`
      const response = await settle(() =>
        signInLoader({
          request: requestFor(host, `/auth/login?${new URLSearchParams({ redirectTo })}`),
          context: contextFor(host),
          params: {},
        }),
      )
      return JSON.stringify(await response.json())
    }
    await setVisibility('public')
    expect(await infoFor()).toContain('Sign in to connect with Vera')
    for (const hidden of ['team', 'contacts', 'private'] as const) {
      await setVisibility(hidden)
      expect(await infoFor()).not.toContain('Vera')
    }
  })
})
