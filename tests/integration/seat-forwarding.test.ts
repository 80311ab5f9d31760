// Cards that outlive a seat (issue 31 point 2, ADR 049): the hand-over of a departing person's
// seat (successor, company contacts, personal ones kept, one transaction, audited), the agency's
// default forwarding as its End Users screen sets it and as a departed person's card page
// answers it, and the end user's Personal switch. Which card surfaces forward and which refuse,
// for every viewer and visibility, is card-surfaces.test.ts's matrix.
import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { addContact, listContacts } from '#app/models/contacts.server'
import { updateAccount } from '#app/models/people.server'
import { handOverSeat } from '#app/people/seat-handover.server'
import { action as contactsAction, loader as contactsLoader } from '#app/routes/contacts._index'
import {
  action as usersAction,
  loader as usersLoader,
} from '#app/routes/dashboard.agency.users._index'
import { LEGAL_URL_MESSAGE } from '#app/validation/legal'
import {
  FORWARDING_MESSAGE_REQUIRED,
  NO_SUCCESSOR_TO_CLEAR,
  SUCCESSOR_IS_SELF,
  SUCCESSOR_NOT_ACTIVE,
} from '#app/validation/seat-forwarding'
import { getDb, withTenant } from '#drizzle/db.server'
import { auditEvents, contacts } from '#drizzle/schema'
import { databaseChecksum } from '#tests/checksum'
import {
  contextFor,
  formRequest,
  makeCard,
  makeOrganization,
  makeUser,
  replyErrors,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'
import { loadRoute } from '#tests/route-modules'

type Org = Awaited<ReturnType<typeof makeOrganization>>
type Handler = (args: {
  request: Request
  context: ReturnType<typeof contextFor>
  params: Record<string, string>
}) => Promise<unknown>

const USERS = '/dashboard/agency/users?index'
const NO_HASH = { passwordHash: 'not-a-password-hash' }

let agency: Org
let other: Org
let adminId: string
let adminCookie: string
const host = () => `${agency.slug}.localhost`

beforeAll(async () => {
  agency = await makeOrganization({ name: 'Seat Agency' })
  other = await makeOrganization({ name: 'Other Agency' })
  const admin = await makeUser(agency.id, { role: 'agency_admin', ...NO_HASH })
  adminId = admin.id
  adminCookie = await sessionCookieFor(agency.id, admin.id)
})

const post = (action: Handler, path: string, fields: Record<string, string>, cookie: string) =>
  settle(async () =>
    action({
      request: formRequest(host(), path, fields, cookie),
      context: contextFor(host()),
      params: {},
    }),
  )

const get = (loader: Handler, path: string, cookie?: string) =>
  settle(async () =>
    loader({
      request: requestFor(host(), path, cookie ? { headers: { Cookie: cookie } } : {}),
      context: contextFor(host()),
      params: {},
    }),
  )

async function departingWithContacts() {
  const departing = await makeUser(agency.id, {
    firstName: 'Dora',
    lastName: 'Departing',
    ...NO_HASH,
  })
  const successor = await makeUser(agency.id, {
    firstName: 'Sam',
    lastName: 'Successor',
    ...NO_HASH,
  })
  await withTenant(agency.id, async (tx) => {
    await addContact(tx, agency.id, departing.id, { fullName: 'Client One', email: 'one@c.test' })
    await addContact(tx, agency.id, departing.id, { fullName: 'Client Two', email: 'two@c.test' })
    await addContact(tx, agency.id, departing.id, { fullName: 'No Email' })
    await addContact(tx, agency.id, departing.id, { fullName: 'Mum', email: 'mum@home.test' })
    // The successor already knows client two: that row stays with the departing person.
    await addContact(tx, agency.id, successor.id, { fullName: 'Client 2', email: 'TWO@c.test' })
  })
  const cookie = await sessionCookieFor(agency.id, departing.id)
  return { departing, successor, cookie }
}

const namesOf = async (userId: string) =>
  (await withTenant(agency.id, (tx) => listContacts(tx, agency.id, userId)))
    .map((contact) => contact.fullName)
    .sort()

describe('the Personal switch', () => {
  test('the owner marks a contact personal and back; the page shows it', async () => {
    const { departing, cookie } = await departingWithContacts()
    const [mum] = await getDb()
      .select()
      .from(contacts)
      .where(and(eq(contacts.userId, departing.id), eq(contacts.fullName, 'Mum')))
    if (!mum) throw new Error('no contact')
    const marked = await post(
      contactsAction,
      '/contacts?index',
      { intent: 'set-personal', contactId: mum.id, personal: 'true' },
      cookie,
    )
    await expect(marked).toSendToast('Marked as personal')
    const page = await get(contactsLoader, '/contacts', cookie)
    const listed = ((await page.json()) as { contacts: { id: string; personal: boolean }[] })
      .contacts
    expect(listed.find((contact) => contact.id === mum.id)?.personal).toBe(true)
    // Someone else's contact, even in the same agency, is not found and stays as it was.
    const stranger = await sessionCookieFor(agency.id, adminId)
    const refused = await post(
      contactsAction,
      '/contacts?index',
      { intent: 'set-personal', contactId: mum.id, personal: 'false' },
      stranger,
    )
    expect(refused.status).toBe(404)
    const [after] = await getDb().select().from(contacts).where(eq(contacts.id, mum.id))
    expect(after?.personal).toBe(true)
  })
})

describe('handOverSeat', () => {
  test('names the successor, moves the company contacts, keeps personal ones and known emails, audits', async () => {
    const { departing, successor } = await departingWithContacts()
    await getDb()
      .update(contacts)
      .set({ personal: true })
      .where(and(eq(contacts.userId, departing.id), eq(contacts.fullName, 'Mum')))
    const done = await withTenant(agency.id, (tx) =>
      handOverSeat(tx, {
        organizationId: agency.id,
        userId: departing.id,
        successorId: successor.id,
        actorUserId: adminId,
      }),
    )
    expect(done.contactsMoved).toBe(2)
    expect(await namesOf(successor.id)).toEqual(['Client 2', 'Client One', 'No Email'])
    expect(await namesOf(departing.id)).toEqual(['Client Two', 'Mum'])
    const [event] = await getDb()
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.entityId, departing.id),
          eq(auditEvents.action, 'user.seat_handed_over'),
        ),
      )
    expect(event?.metadata).toMatchObject({ successorId: successor.id, contactsMoved: 2 })
  })

  test('refuses the person themselves, an inactive successor and one of another agency, changing nothing', async () => {
    const { departing, successor } = await departingWithContacts()
    const stranger = await makeUser(other.id, NO_HASH)
    await withTenant(agency.id, (tx) =>
      updateAccount(tx, agency.id, successor.id, { status: 'inactive' }),
    )
    const before = await databaseChecksum({ organizationId: agency.id })
    for (const [successorId, message] of [
      [departing.id, SUCCESSOR_IS_SELF],
      [successor.id, SUCCESSOR_NOT_ACTIVE],
      [stranger.id, SUCCESSOR_NOT_ACTIVE],
    ] as const) {
      await expect(
        withTenant(agency.id, (tx) =>
          handOverSeat(tx, {
            organizationId: agency.id,
            userId: departing.id,
            successorId,
            actorUserId: adminId,
          }),
        ),
      ).rejects.toThrow(message)
    }
    expect(await databaseChecksum({ organizationId: agency.id })).toEqual(before)
  })
})

describe("the agency's End Users screen", () => {
  test('Hand Over: the successor owns the company contacts, and the toast says how many moved', async () => {
    const { departing, successor } = await departingWithContacts()
    const loaded = await get(usersLoader, '/dashboard/agency/users', adminCookie)
    const page = (await loaded.json()) as { successors: { id: string }[] }
    expect(page.successors.map((choice) => choice.id)).toContain(successor.id)
    const response = await post(
      usersAction,
      USERS,
      { intent: 'hand-over', userId: departing.id, successorId: successor.id },
      adminCookie,
    )
    await expect(response).toSendToast(
      "Dora Departing's seat handed over to Sam Successor (3 contacts moved)",
    )
    expect(await namesOf(departing.id)).toEqual(['Client Two'])
  })

  test('Hand Over refuses a missing successor next to the field', async () => {
    const { departing } = await departingWithContacts()
    const response = await post(
      usersAction,
      USERS,
      { intent: 'hand-over', userId: departing.id, successorId: '' },
      adminCookie,
    )
    expect(response.status).toBe(400)
    expect((await replyErrors(response)).successorId).toEqual(['Please choose who takes over'])
  })

  test('When Someone Leaves: refused without its message or with an unsafe URL; saved otherwise', async () => {
    for (const [fields, field, message] of [
      [{ kind: 'message', message: '' }, 'message', FORWARDING_MESSAGE_REQUIRED],
      [{ kind: 'contact_page', contactPageUrl: '' }, 'contactPageUrl', LEGAL_URL_MESSAGE],
      [
        { kind: 'contact_page', contactPageUrl: 'javascript:alert(1)' },
        'contactPageUrl',
        LEGAL_URL_MESSAGE,
      ],
    ] as const) {
      const refused = await post(
        usersAction,
        USERS,
        { intent: 'set-forwarding', ...fields },
        adminCookie,
      )
      expect(refused.status, JSON.stringify(fields)).toBe(400)
      expect((await replyErrors(refused))[field]).toEqual([message])
    }
    const saved = await post(
      usersAction,
      USERS,
      { intent: 'set-forwarding', kind: 'message', message: 'Ask for Sam at the front desk.' },
      adminCookie,
    )
    await expect(saved).toSendToast('Forwarding saved')
  })
})

describe('the forwarding overview', () => {
  type Overview = {
    handOvers: {
      userId: string
      name: string
      status: string
      successorName: string
      successorActive: boolean
    }[]
  }
  const overview = async () =>
    ((await (await get(usersLoader, '/dashboard/agency/users', adminCookie)).json()) as Overview)
      .handOvers

  test('lists who forwards to whom; Clear (audited) sends the links back to the default', async () => {
    const { departing, successor } = await departingWithContacts()
    await makeCard(agency.id, successor.id, { firstName: 'Sam', lastName: 'Successor' })
    const card = await makeCard(agency.id, departing.id, { firstName: 'Dora' })
    await post(
      usersAction,
      USERS,
      { intent: 'hand-over', userId: departing.id, successorId: successor.id },
      adminCookie,
    )
    await post(
      usersAction,
      USERS,
      { intent: 'set-forwarding', kind: 'message', message: 'Dora moved on.' },
      adminCookie,
    )
    await withTenant(agency.id, (tx) =>
      updateAccount(tx, agency.id, departing.id, { status: 'inactive' }),
    )
    expect((await overview()).find((row) => row.userId === departing.id)).toMatchObject({
      name: 'Dora Departing',
      status: 'inactive',
      successorName: 'Sam Successor',
      successorActive: true,
    })
    const page = await loadRoute('card.$ref.tsx')
    const open = () =>
      settle(async () =>
        page.loader?.({
          request: requestFor(host(), `/card/${card.id}`),
          context: contextFor(host()),
          params: { ref: card.id },
        }),
      )
    expect((await open()).status).toBe(302)

    // Another agency's person, or one without a successor: 404, nothing changed.
    const stranger = await makeUser(other.id, NO_HASH)
    const before = await databaseChecksum()
    for (const userId of [stranger.id, successor.id]) {
      const refused = await post(
        usersAction,
        USERS,
        { intent: 'clear-successor', userId },
        adminCookie,
      )
      expect(refused.status, userId).toBe(404)
    }
    expect(await databaseChecksum()).toEqual(before)

    const cleared = await post(
      usersAction,
      USERS,
      { intent: 'clear-successor', userId: departing.id },
      adminCookie,
    )
    await expect(cleared).toSendToast("Dora Departing's links now answer your agency's default")
    expect((await overview()).map((row) => row.userId)).not.toContain(departing.id)
    const gone = await open()
    expect(gone.status).toBe(410)
    expect(await gone.text()).toContain('Dora moved on.')
    // The contacts handed over stay with the successor.
    expect(await namesOf(successor.id)).toContain('Client One')
    const audit = await getDb()
      .select({ actor: auditEvents.actorUserId, metadata: auditEvents.metadata })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, agency.id),
          eq(auditEvents.action, 'user.seat_successor_cleared'),
          eq(auditEvents.entityId, departing.id),
        ),
      )
    expect(audit).toEqual([
      { actor: adminId, metadata: expect.objectContaining({ successorId: successor.id }) },
    ])

    // Cleared meanwhile (another tab): said plainly, nothing written.
    const again = await post(
      usersAction,
      USERS,
      { intent: 'clear-successor', userId: departing.id },
      adminCookie,
    )
    expect(again.status).toBe(404)
    await expect(again).not.toSendToast()
    expect(JSON.stringify(await again.json())).toContain(NO_SUCCESSOR_TO_CLEAR)
  })
})

describe("a departed person's card page", () => {
  test("answers the agency's message, then its contact page, and the card again once reactivated", async () => {
    const person = await makeUser(agency.id, { firstName: 'Petra', lastName: 'Past', ...NO_HASH })
    const card = await makeCard(agency.id, person.id, { firstName: 'Petra', lastName: 'Past' })
    const page = await loadRoute('card.$ref.tsx')
    const open = () =>
      settle(async () =>
        page.loader?.({
          request: requestFor(host(), `/card/${card.id}`),
          context: contextFor(host()),
          params: { ref: card.id },
        }),
      )
    const setStatus = (status: 'active' | 'inactive') =>
      withTenant(agency.id, (tx) => updateAccount(tx, agency.id, person.id, { status }))
    await setStatus('inactive')
    await post(
      usersAction,
      USERS,
      { intent: 'set-forwarding', kind: 'message', message: 'Petra moved on; call us.' },
      adminCookie,
    )
    const gone = await open()
    expect(gone.status).toBe(410)
    expect(gone.headers.get('Cache-Control')).toBe('no-cache')
    const body = await gone.text()
    expect(body).toContain('Petra moved on; call us.')
    expect(body).not.toContain('Past')
    await post(
      usersAction,
      USERS,
      {
        intent: 'set-forwarding',
        kind: 'contact_page',
        contactPageUrl: 'https://seat-agency.example.test/contact',
      },
      adminCookie,
    )
    const moved = await open()
    expect(moved).toHaveRedirect('https://seat-agency.example.test/contact')
    await setStatus('active')
    expect((await open()).status).toBe(200)
  })
})
