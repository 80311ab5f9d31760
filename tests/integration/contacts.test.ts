// Contacts on a phone (issue 41 point 12): the list's filters as GET params (source, personal or
// company) with the search, bad values ignored rather than refused; a contact's page with the
// card it was met on, not found for anyone but its owner; its Personal switch answering back to
// the page; and the exports taking the list's filters. Another tenant's contacts are the route
// and model matrices' (route-matrix.test.ts, model-isolation.test.ts).
import { beforeAll, describe, expect, test } from 'vitest'
import { addContact, setContactPersonal } from '#app/models/contacts.server'
import { loader as contactsLoader } from '#app/routes/contacts._index'
import { action as contactAction, loader as contactLoader } from '#app/routes/contacts.$contactId'
import { loader as exportLoader } from '#app/routes/contacts.export[.]csv'
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

type Handler = (args: {
  request: Request
  context: ReturnType<typeof contextFor>
  params: Record<string, string>
}) => Promise<unknown>

let host: string
let ownerCookie: string
let strangerCookie: string
const ids: Record<string, string> = {}
let ownCardId: string
let theirCardId: string

beforeAll(async () => {
  const agency = await makeOrganization({ name: 'Contacts Agency' })
  host = `${agency.slug}.localhost`
  const owner = await makeUser(agency.id, { firstName: 'Olga', lastName: 'Owner' })
  const other = await makeUser(agency.id, { firstName: 'Theo', lastName: 'Their' })
  ownerCookie = await sessionCookieFor(agency.id, owner.id)
  strangerCookie = await sessionCookieFor(agency.id, other.id)
  ownCardId = (await makeCard(agency.id, owner.id, { title: 'Trade fair card' })).id
  theirCardId = (await makeCard(agency.id, other.id, { title: "Theo's work card" })).id
  await withTenant(agency.id, async (tx) => {
    const add = async (
      key: string,
      input: Parameters<typeof addContact>[3],
      personal = false,
    ): Promise<void> => {
      const added = await addContact(tx, agency.id, owner.id, input)
      if (added.status !== 'created') throw new Error(`${key} not added`)
      ids[key] = added.contact.id
      if (personal) await setContactPersonal(tx, agency.id, owner.id, added.contact.id, true)
    }
    await add('lead', {
      fullName: 'Lee Lead',
      email: 'lee@prospects.test',
      phoneNumber: '+44 20 7946 0000',
      company: 'Prospects Ltd',
      note: 'Met at the fair',
      source: 'lead',
      sourceCardId: ownCardId,
    })
    await add('saved', {
      fullName: 'Theo Their',
      email: 'theo@their.test',
      company: 'Their Co',
      source: 'saved',
      sourceCardId: theirCardId,
    })
    await add('mum', { fullName: 'Mum', email: 'mum@home.test' }, true)
  })
})

const get = (loader: Handler, path: string, cookie: string, params: Record<string, string> = {}) =>
  settle(async () =>
    loader({
      request: requestFor(host, path, { headers: { Cookie: cookie } }),
      context: contextFor(host),
      params,
    }),
  )

async function listed(query: string) {
  const page = await get(contactsLoader, `/contacts${query}`, ownerCookie)
  expect(page.status).toBe(200)
  const body = (await page.json()) as { contacts: { fullName: string }[]; filters: unknown }
  return { names: body.contacts.map((contact) => contact.fullName).sort(), filters: body.filters }
}

describe('the list', () => {
  test('filters by source and by personal or company, with the search, as GET params', async () => {
    expect((await listed('')).names).toEqual(['Lee Lead', 'Mum', 'Theo Their'])
    expect((await listed('?source=lead')).names).toEqual(['Lee Lead'])
    expect((await listed('?source=saved')).names).toEqual(['Theo Their'])
    expect((await listed('?source=connect')).names).toEqual([])
    expect((await listed('?kind=personal')).names).toEqual(['Mum'])
    expect((await listed('?kind=company')).names).toEqual(['Lee Lead', 'Theo Their'])
    expect((await listed('?kind=company&source=manual')).names).toEqual([])
    expect((await listed('?q=prospects&kind=company')).names).toEqual(['Lee Lead'])
    expect((await listed('?source=lead')).filters).toEqual({ source: 'lead' })
  })

  test('a filter value that is not a choice is ignored (all for that filter), never an error', async () => {
    for (const query of ['?source=spam', '?kind=both', '?source=&kind=', '?source=lead&source=x']) {
      const { names, filters } = await listed(query)
      expect(filters, query).toEqual(query === '?source=lead&source=x' ? { source: 'lead' } : {})
      expect(names.length, query).toBeGreaterThan(0)
    }
  })

  test('the CSV export takes the same filters', async () => {
    const csv = await get(exportLoader, '/contacts/export.csv?kind=personal', ownerCookie)
    const text = await csv.text()
    expect(text).toContain('Mum')
    expect(text).not.toContain('Lee Lead')
    const bySource = await (
      await get(exportLoader, '/contacts/export.csv?source=lead&kind=nonsense', ownerCookie)
    ).text()
    expect(bySource).toContain('Lee Lead')
    expect(bySource).not.toContain('Theo Their')
  })
})

describe("a contact's page", () => {
  const open = (contactId: string, cookie = ownerCookie) =>
    get(contactLoader, `/contacts/${contactId}`, cookie, { contactId })

  test('shows the contact with the card it was met on: one of yours, or theirs', async () => {
    const lead = (await (await open(ids.lead as string)).json()) as {
      contact: Record<string, unknown>
    }
    expect(lead.contact).toMatchObject({
      fullName: 'Lee Lead',
      phoneNumber: '+44 20 7946 0000',
      email: 'lee@prospects.test',
      note: 'Met at the fair',
      source: 'lead',
      personal: false,
      card: { id: ownCardId, title: 'Trade fair card', yours: true },
    })
    // The lead's receipt-link hash never reaches the page (ADR 050).
    expect(lead.contact).not.toHaveProperty('dataTokenHash')
    const saved = (await (await open(ids.saved as string)).json()) as {
      contact: { card: unknown }
    }
    expect(saved.contact.card).toMatchObject({
      id: theirCardId,
      title: "Theo's work card",
      firstName: 'Test',
      yours: false,
    })
    const mum = (await (await open(ids.mum as string)).json()) as { contact: { card: unknown } }
    expect(mum.contact.card).toBeNull()
  })

  test("another user's contact, an unknown id and a malformed one are the same 404", async () => {
    for (const [contactId, cookie] of [
      [ids.lead as string, strangerCookie],
      ['00000000-0000-4000-8000-000000000000', ownerCookie],
      ['not-a-uuid', ownerCookie],
      ["'; drop table contacts; --", ownerCookie],
    ] as const) {
      const page = await open(contactId, cookie)
      expect(page.status, contactId).toBe(404)
      expect(await page.text(), contactId).toBe('Contact not found')
    }
  })

  test('its Personal switch answers back to the page, list filters kept', async () => {
    const contactId = ids.saved as string
    const path = `/contacts/${contactId}?kind=company`
    const switched = await settle(async () =>
      contactAction({
        request: formRequest(
          host,
          path,
          { intent: 'set-personal', contactId, personal: 'true' },
          ownerCookie,
        ),
        context: contextFor(host),
        params: { contactId },
      }),
    )
    expect(switched).toHaveRedirect(path)
    await expect(switched).toSendToast('Marked as personal')
    expect((await listed('?kind=personal')).names).toContain('Theo Their')
    // Someone else cannot switch it, from its page either.
    const refused = await settle(async () =>
      contactAction({
        request: formRequest(
          host,
          `/contacts/${contactId}`,
          { intent: 'set-personal', contactId, personal: 'false' },
          strangerCookie,
        ),
        context: contextFor(host),
        params: { contactId },
      }),
    )
    expect(refused.status).toBe(404)
    expect((await listed('?kind=personal')).names).toContain('Theo Their')
  })
})
