// Every route that can return card data, found by reading the route files, against every
// visibility and every kind of viewer (issue 26 points 1 and 10, ADR 027). The card gate
// (app/cards/card-gate.server.ts) is the only module that may look up someone else's card; a
// route reaches card data by importing, at any depth, a module that reads cards. Each such route
// needs a case below, so a new surface fails here until it says how it is reached and what it
// must show: a visitor (signed out), a signed-in stranger, a contact, a teammate and the owner
// each get exactly what the visibility allows, never a hidden email or phone unless they are the
// owner, and nobody gets anything of a deactivated owner's card (the lead form included).
// Issue 28's fields ride along: "show phone" hides the second phone and WhatsApp links too, and
// the bio, address and other links reach exactly those who see the card, on every surface that
// carries card details; the card page's link-preview tags carry the bio and nothing hidden.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { setCardArchived } from '#app/cards/card-archive.server'
import { resetEnvForTests } from '#app/env.server'
import { replaceCardLinks } from '#app/models/cards.server'
import { addContact } from '#app/models/contacts.server'
import { updateAccount } from '#app/models/people.server'
import { addTeamMember, createTeamWithAdmin } from '#app/models/teams.server'
import { setUserPreference } from '#app/models/user-settings.server'
import { handOverSeat } from '#app/people/seat-handover.server'
import { slugBaseFromName } from '#app/validation/card-slug'
import { DEFAULT_FORWARDING_MESSAGE } from '#app/validation/seat-forwarding'
import type { Visibility } from '#app/validation/settings'
import { getDb, withTenant } from '#drizzle/db.server'
import { contacts, rateLimits } from '#drizzle/schema'
import {
  configureAppleWallet,
  makeTestCertificates,
  removeTestCertificates,
  type TestCertificates,
  unconfigureAppleWallet,
} from '#tests/apple-wallet'
import {
  contextFor,
  formRequest,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  uniqueSuffix,
} from '#tests/factories'
import { makeServiceAccountKey, TEST_ISSUER_ID } from '#tests/fake-google-wallet'
import { loadRoute } from '#tests/route-modules'

// ---------------------------------------------------------------------------------------------
// Which routes can return card data, read from the source.

const GATE = 'app/cards/card-gate.server.ts'
const CARD_MODEL = 'app/models/cards.server.ts'
/** The card model's lookups that find any card of the organization: the gate's alone. */
const SHARED_LOOKUPS = ['findCardById', 'findCardByReference', 'findCardBySlug']
/** Its lookups of the signed-in owner's own cards (the owner's id is part of the query). */
const OWNER_LOOKUPS = ['getCardForOwner', 'listCardsForOwner', 'getDefaultCardForOwner']
/**
 * Its lookups of any card of the agency for the agency's REST API (ADR 092), whose answers pass
 * the gate's `cardForAgencyApi`; tests/integration/api-rest.test.ts checks what an owner hides.
 */
const AGENCY_API_LOOKUPS = ['findOrganizationCard', 'listOrganizationCards']
/** The privacy rules, which only the gate applies. */
const PRIVACY_RULES = ['mayViewCard', 'withPrivacy', 'visibleLinks']

const RUNTIME_IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(?!type\b)(?:([^'"]*?)\s+from\s+)?['"]([^'"]+)['"]/g

function resolveImport(from: string, spec: string) {
  const bare = spec.replace(/\?.*$/, '')
  let base: string
  if (bare.startsWith('#app/')) base = join('app', bare.slice('#app/'.length))
  else if (bare.startsWith('.')) base = normalize(join(dirname(from), bare))
  else return null
  for (const file of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    if (/\.tsx?$/.test(file) && existsSync(file)) return file
  }
  return null
}

/** A module's runtime imports: the file each names, and the names it takes (type-only ones left out). */
function importsOf(file: string) {
  const found: { file: string; names: string[] }[] = []
  for (const match of readFileSync(file, 'utf8').matchAll(RUNTIME_IMPORT)) {
    const target = resolveImport(file, match[2] ?? '')
    if (!target) continue
    const names = (/\{([^}]*)\}/.exec(match[1] ?? '')?.[1] ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name && !name.startsWith('type '))
      .map((name) => name.split(/\s+as\s+/)[0] as string)
    found.push({ file: target, names })
  }
  return found
}

function appModules(dir = 'app'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return appModules(path)
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** Modules that read cards from the card model (any of its find/get/list exports). */
function cardReaders() {
  return appModules().filter((file) =>
    importsOf(file).some(
      (edge) =>
        edge.file === CARD_MODEL && edge.names.some((name) => /^(find|get|list)/.test(name)),
    ),
  )
}

function reaches(start: string, targets: Set<string>) {
  const seen = new Set<string>()
  const queue = [start]
  while (queue.length > 0) {
    const file = queue.pop() as string
    if (targets.has(file)) return true
    if (seen.has(file)) continue
    seen.add(file)
    for (const edge of importsOf(file)) queue.push(edge.file)
  }
  return false
}

/** Route files whose loader or action can reach card data. */
function cardRoutes() {
  const readers = new Set(cardReaders())
  return readdirSync('app/routes')
    .filter((file) => reaches(join('app/routes', file), readers))
    .sort()
}

// ---------------------------------------------------------------------------------------------
// How each such route is asked for the card, and who may get what.

type Viewer = 'visitor' | 'stranger' | 'contact' | 'teammate' | 'owner'
const VIEWERS: Viewer[] = ['visitor', 'stranger', 'contact', 'teammate', 'owner']
const VISIBILITIES: Visibility[] = ['public', 'contacts', 'team', 'private']

/** Who the card itself is for, per visibility (roles-teams-admin.md §2.6). */
const ALLOWED: Record<Visibility, Viewer[]> = {
  public: VIEWERS,
  contacts: ['owner', 'contact'],
  team: ['owner', 'teammate'],
  private: ['owner'],
}

type Reference = 'id' | 'link' | 'slug'
type Shared = {
  kind: 'shared'
  /** id: the card's id; link: the owner's name link (ADR 027); slug: its short link (ADR 041). */
  refs: Reference[]
  request: (ref: string) => { path: string; params: Record<string, string> }
  /**
   * viewer: whoever the card is for; crawler: anyone, but only a public card (link previews are
   * fetched signed out; Google Wallet's object is shared); signed-out: only a visitor, only a
   * public card (the sign-in page); owner: its owner alone, whatever the visibility, and as the
   * card is shown to others (the email signature goes to strangers: no hidden field, not even
   * for the owner).
   */
  audience: 'viewer' | 'crawler' | 'signed-out' | 'owner'
  /** data: a body that must carry exactly what is shown; image: only its status says. */
  body: 'data' | 'image'
  /** The status of an answer that shows the card. */
  shown?: number
  /** The statuses of an answer that shows nothing of it (per viewer: signed out, signed in). */
  hidden: { visitor: number; signedIn: number }
  /** The route's action takes leads (the public lead form). */
  leads?: boolean
  /**
   * A card page: when the owner has left (inactive), it answers the agency's forwarding (ADR
   * 049) to whoever the card was shown to, where every other surface answers the missing card.
   */
  forwards?: boolean
  /** Its body carries the card's details (bio, address, links), or these of them, not only the name. */
  details?: boolean | string[]
  /**
   * Its page has link-preview tags (title, description, Open Graph, issue 28): they carry the
   * name and the bio of a card shown, never a hidden field, even for the owner.
   */
  preview?: boolean
}
/**
 * Reached by an Apple Wallet pass's serial and token, never by a card reference: the card comes
 * through the gate for the viewer the pass was made for, checked in the file named.
 */
type PassToken = { kind: 'pass-token'; coveredBy: string }
/**
 * The agency's REST API (ADR 092): reached by an API key, never a session, so no viewer of the
 * matrix can ask it. Its cards come through the gate's `cardForAgencyApi` (what an owner hides
 * stays hidden), checked in the file named; its screens reach the readers only by making the
 * OpenAPI document from the same router.
 */
type ApiKeySurface = { kind: 'api-key'; coveredBy: string }
type Own = {
  kind: 'own'
  /** Only the owner's own cards, behind sign-in: nobody else ever gets the card's data. */
  request: (cardId: string) => { path: string; params: Record<string, string> }
}

const NOT_FOUND = { visitor: 404, signedIn: 404 }
const cardPage = (prefix: string): Shared => ({
  kind: 'shared',
  refs: ['id', 'link'],
  request: (ref) => ({ path: `${prefix}/${ref}`, params: { ref } }),
  audience: 'viewer',
  body: 'data',
  hidden: NOT_FOUND,
  leads: true,
  forwards: true,
  details: true,
  preview: true,
})
const cardFile = (suffix: string, body: Shared['body']): Shared => ({
  kind: 'shared',
  refs: ['id', 'link'],
  request: (ref) => ({ path: `/card/${ref}/${suffix}`, params: { ref } }),
  audience: 'viewer',
  body,
  hidden: NOT_FOUND,
})
const own =
  (path: string) =>
  (cardId: string): { path: string; params: Record<string, string> } => ({
    path: path.replace('$cardId', cardId),
    params: { cardId },
  })

const SURFACES: Record<string, Shared | Own | PassToken | ApiKeySurface> = {
  'api.v1.$.ts': { kind: 'api-key', coveredBy: 'tests/integration/api-rest.test.ts' },
  'dashboard.agency.api.tsx': {
    kind: 'api-key',
    coveredBy: 'tests/integration/route-matrix.test.ts',
  },
  'dashboard.agency.api_.reference.tsx': {
    kind: 'api-key',
    coveredBy: 'tests/integration/route-matrix.test.ts',
  },
  'card.$ref.tsx': cardPage('/card'),
  // The short link: the card page by its slug (ADR 041).
  'c.$slug.tsx': {
    ...cardPage('/c'),
    refs: ['slug'],
    request: (slug) => ({ path: `/c/${slug}`, params: { slug } }),
  },
  'contact.$ref.tsx': cardPage('/contact'),
  'card_.$ref.vcard.ts': { ...cardFile('vcard', 'data'), details: true },
  'card_.$ref.qr[.]png.ts': cardFile('qr.png', 'image'),
  'card_.$ref.qr[.]svg.ts': cardFile('qr.svg', 'image'),
  // Apple Wallet (ADR 042), configured with throwaway certificates in beforeAll.
  'card_.$ref.pass[.]pkpass.ts': cardFile('pass.pkpass', 'image'),
  'wallet.apple.v1.$.ts': {
    kind: 'pass-token',
    coveredBy: 'tests/integration/apple-wallet.test.ts',
  },
  // A link's tap (ADR 082): by a link id the card's page hands out, through the card gate's
  // links; its test runs the route with a hidden link and a foreign id.
  'card_.$ref.l.$linkId.ts': {
    kind: 'pass-token',
    coveredBy: 'tests/integration/card-analytics.test.ts',
  },
  // A card follower's emailed links (ADR 102): by a confirmation token or a signed stop token,
  // never a card reference; the confirmation names the card only as a signed-out visitor sees it.
  'follow.confirm.tsx': {
    kind: 'pass-token',
    coveredBy: 'tests/integration/card-followers.test.ts',
  },
  'follow.unsubscribe.tsx': {
    kind: 'pass-token',
    coveredBy: 'tests/integration/card-followers.test.ts',
  },
  // Issue 29: the virtual background, and Google Wallet's save link (a redirect to Google).
  'card_.$ref.background[.]png.ts': cardFile('background.png', 'image'),
  // The object is one per card, shared by whoever saves it and kept as a visitor sees the card
  // (ADR 043): anyone, but only for a public card.
  'card_.$ref.google-wallet.ts': {
    ...cardFile('google-wallet', 'image'),
    audience: 'crawler',
    shown: 302,
  },
  // The email signature and its plain text (ADR 044): the owner's, carrying the links.
  'card_.$ref.signature[.]html.ts': {
    ...cardFile('signature.html', 'data'),
    audience: 'owner',
    details: ['link'],
  },
  'card_.$ref.signature[.]txt.ts': {
    ...cardFile('signature.txt', 'data'),
    audience: 'owner',
    details: ['link'],
  },
  // A stale hash answers a redirect to the current preview: found, so 302.
  'card_.$ref.og.$file.ts': {
    kind: 'shared',
    refs: ['id', 'link'],
    request: (ref) => ({
      path: `/card/${ref}/og/${'0'.repeat(20)}.png`,
      params: { ref, file: `${'0'.repeat(20)}.png` },
    }),
    audience: 'crawler',
    body: 'image',
    shown: 302,
    hidden: NOT_FOUND,
  },
  // By id only (ADR 009); a signed-in viewer of a missing card goes back to their cards.
  'qrcode.$cardId.tsx': {
    kind: 'shared',
    refs: ['id'],
    request: (cardId) => ({ path: `/qrcode/${cardId}`, params: { cardId } }),
    audience: 'viewer',
    body: 'data',
    hidden: { visitor: 404, signedIn: 302 },
    details: true,
  },
  // "Sign in to connect with {first name}": for a signed-out visitor on the way to a card.
  'auth.login.tsx': {
    kind: 'shared',
    refs: ['id', 'link'],
    request: (ref) => ({
      path: `/auth/login?${new URLSearchParams({ redirectTo: `/card/${ref}?connect=1` })}`,
      params: {},
    }),
    audience: 'signed-out',
    body: 'data',
    hidden: { visitor: 200, signedIn: 302 },
  },
  'qrcode._index.tsx': { kind: 'own', request: own('/qrcode') },
  'dashboard.end-user.digital-cards._index.tsx': {
    kind: 'own',
    request: own('/dashboard/end-user/digital-cards'),
  },
  'dashboard.end-user.digital-cards.edit.$cardId.tsx': {
    kind: 'own',
    request: own('/dashboard/end-user/digital-cards/edit/$cardId'),
  },
  'dashboard.team-member.digital-cards._index.tsx': {
    kind: 'own',
    request: own('/dashboard/team-member/digital-cards'),
  },
  'dashboard.team-member.digital-cards.edit.$cardId.tsx': {
    kind: 'own',
    request: own('/dashboard/team-member/digital-cards/edit/$cardId'),
  },
  'dashboard.end-user.digital-cards.signature.$cardId.tsx': {
    kind: 'own',
    request: own('/dashboard/end-user/digital-cards/signature/$cardId'),
  },
  'dashboard.team-member.digital-cards.signature.$cardId.tsx': {
    kind: 'own',
    request: own('/dashboard/team-member/digital-cards/signature/$cardId'),
  },
  // "Download my data" (ADR 052): the export's state, and its zip (a POST: the download is
  // audited), only ever the signed-in person's own.
  'account.data-export.tsx': { kind: 'own', request: own('/account/data-export') },
  'account.data-export[.]zip.ts': { kind: 'own', request: own('/account/data-export.zip') },
  // "My cards offline" (ADR 104): the owner's own cards, and the endpoint their queued leads
  // reach (a POST only; its loader answers nothing).
  'offline.tsx': { kind: 'own', request: own('/offline') },
  'offline_.leads.ts': { kind: 'own', request: own('/offline/leads') },
  'profile._index.tsx': { kind: 'own', request: own('/profile') },
  // Any other profile path is the default profile (spec §2.4).
  'profile.$variant.tsx': { kind: 'own', request: own('/profile/role') },
  'profile.agency.tsx': { kind: 'own', request: own('/profile/agency') },
  'profile.end-user.tsx': { kind: 'own', request: own('/profile/end-user') },
  'profile.super-admin.tsx': { kind: 'own', request: own('/profile/super-admin') },
  'profile.team-member.tsx': { kind: 'own', request: own('/profile/team-member') },
}

describe('the routes that can return card data, read from the route files', () => {
  test('every one has a case here, and every case is such a route', () => {
    expect(cardRoutes()).toEqual(Object.keys(SURFACES).sort())
  })

  test("only the gate looks up someone else's card or applies the privacy rules", () => {
    const callers = appModules()
      .filter((file) => file !== GATE)
      .flatMap((file) =>
        importsOf(file)
          .filter((edge) =>
            [...SHARED_LOOKUPS, ...PRIVACY_RULES].some((n) => edge.names.includes(n)),
          )
          .map(() => file),
      )
    expect(callers).toEqual([])
  })

  test("every card lookup of the card model is either the gate's or scoped to its owner", async () => {
    const model = (await import('#app/models/cards.server')) as Record<string, unknown>
    const lookups = Object.keys(model)
      .filter((name) => typeof model[name] === 'function' && /^(find|get|list)/.test(name))
      .sort()
    expect(lookups).toEqual([...SHARED_LOOKUPS, ...OWNER_LOOKUPS, ...AGENCY_API_LOOKUPS].sort())
  })

  test('the public surfaces go through the gate (not only some other card reader)', () => {
    const gate = new Set([GATE])
    const viaGate = readdirSync('app/routes').filter((file) =>
      reaches(join('app/routes', file), gate),
    )
    const shared = Object.entries(SURFACES)
      .filter(([, surface]) => surface.kind !== 'own')
      .map(([file]) => file)
    for (const file of shared) expect(viaGate, file).toContain(file)
  })

  test('a surface reached by a pass token names the test that runs it', () => {
    for (const [file, surface] of Object.entries(SURFACES)) {
      if (surface.kind !== 'pass-token' && surface.kind !== 'api-key') continue
      // A pass-token route is imported by its test; an API screen is named in the route matrix.
      expect(readFileSync(surface.coveredBy, 'utf8'), file).toContain(
        surface.kind === 'pass-token'
          ? `#app/routes/${file.replace(/\.tsx?$/, '')}`
          : file.replace(/\.ts$/, ''),
      )
    }
  })
})

// ---------------------------------------------------------------------------------------------
// The matrix.

const load = loadRoute

const suffix = uniqueSuffix()
/** What the card shows: its name, and the email and phones its owner hides. */
const MARK = {
  name: `Quill${suffix}`,
  email: `quill-mail-${suffix}@example.test`,
  workEmail: `quill-work-${suffix}@example.test`,
  phone: '+1 555 0199',
  phone2: '+1 555 0142',
  whatsapp: 'wa.me/15550143',
  bio: `Bio of Quill ${suffix}`,
  street: `Quill Street ${suffix}`,
  link: `linkedin.com/in/quill${suffix}`,
}
const HIDDEN = ['email', 'workEmail', 'phone', 'phone2', 'whatsapp']
const DETAILS = ['bio', 'street', 'link']
/** The marks a body must carry, in MARK's order. */
const wanted = (names: string[]) => Object.keys(MARK).filter((name) => names.includes(name))

let host = ''
let orgId = ''
let ownerId = ''
let cardId = ''
let nameLink = ''
let shortSlug = ''
const cookies = {} as Record<Viewer, string | null>
let ip = 0

let walletCertificates: TestCertificates

beforeAll(() => {
  walletCertificates = makeTestCertificates()
  configureAppleWallet(walletCertificates)
})

afterAll(() => {
  unconfigureAppleWallet()
  removeTestCertificates(walletCertificates)
})

beforeAll(async () => {
  // Google Wallet on, with a throwaway key: its save link is signed without calling Google.
  process.env.GOOGLE_WALLET_ISSUER_ID = TEST_ISSUER_ID
  process.env.GOOGLE_WALLET_KEY = makeServiceAccountKey('http://127.0.0.1:9/token').keyPath
  resetEnvForTests()
  const organization = await makeOrganization()
  orgId = organization.id
  host = `${organization.slug}.localhost`
  const owner = await makeUser(orgId, { firstName: MARK.name, lastName: 'Marker' })
  ownerId = owner.id
  nameLink = `${MARK.name}-marker`.toLowerCase()
  const stranger = await makeUser(orgId)
  const contact = await makeUser(orgId)
  const teammate = await makeUser(orgId)
  await withTenant(orgId, async (tx) => {
    const team = await createTeamWithAdmin(tx, orgId, owner.id, { name: 'Quill', description: '' })
    await addTeamMember(tx, orgId, team.id, teammate.id, 'member')
    await addContact(tx, orgId, owner.id, { fullName: 'Contact', email: contact.email })
  })
  const card = await makeCard(orgId, owner.id, {
    firstName: MARK.name,
    lastName: 'Marker',
    email: MARK.email,
    workEmail: MARK.workEmail,
    phoneNumber: MARK.phone,
    company: 'Quill Co',
    phone2: MARK.phone2,
    bio: MARK.bio,
    addressStreet: MARK.street,
    addressCity: 'Quillton',
  })
  cardId = card.id
  await withTenant(orgId, (tx) =>
    replaceCardLinks(tx, orgId, owner.id, card.id, [
      { kind: 'linkedin', label: '', url: `https://www.${MARK.link}` },
      { kind: 'whatsapp', label: '', url: `https://${MARK.whatsapp}` },
    ]),
  )
  shortSlug = slugBaseFromName(MARK.name, 'Marker')
  cookies.visitor = null
  cookies.stranger = await sessionCookieFor(orgId, stranger.id)
  cookies.contact = await sessionCookieFor(orgId, contact.id)
  cookies.teammate = await sessionCookieFor(orgId, teammate.id)
  cookies.owner = await sessionCookieFor(orgId, owner.id)
})

const setVisibility = (visibility: Visibility) =>
  withTenant(orgId, (tx) =>
    setUserPreference(tx, orgId, ownerId, 'privacy', {
      visibility,
      showEmail: false,
      showPhone: false,
    }),
  )

const setOwnerStatus = (status: 'active' | 'inactive') =>
  withTenant(orgId, (tx) => updateAccount(tx, orgId, ownerId, { status }))

/** A loader's answer as the server would send it (plain data is a 200 with JSON). */
async function get(file: string, who: Viewer, path: string, params: Record<string, string>) {
  const mod = await load(file)
  const cookie = cookies[who]
  // A route that answers only a POST (the export's zip) is asked by its action.
  const answer = await Promise.resolve(
    mod.loader
      ? mod.loader({
          request: requestFor(host, path, cookie ? { headers: { Cookie: cookie } } : {}),
          context: contextFor(host),
          params,
        })
      : mod.action?.({
          request: formRequest(host, path, {}, cookie ?? ''),
          context: contextFor(host),
          params,
        }),
  ).catch((thrown: unknown) => {
    if (thrown instanceof Response) return thrown
    throw thrown
  })
  if (answer instanceof Response) {
    return {
      status: answer.status,
      body: await answer.text(),
      location: answer.headers.get('Location'),
    }
  }
  return { status: 200, body: JSON.stringify(answer), location: null }
}

/** The page's meta tags as text, built by its meta function from the loader's answer. */
async function previewTags(file: string, body: string) {
  const mod = (await load(file)) as { meta?: (args: { data: unknown }) => unknown }
  if (!mod.meta) throw new Error(`${file} has no meta function`)
  let data: unknown
  try {
    data = JSON.parse(body)
  } catch {
    data = undefined
  }
  return JSON.stringify(mod.meta({ data }))
}

/** The marks in a body; a vCard's folded lines are read unfolded (RFC 2426 §2.6). */
const marksIn = (body: string) =>
  Object.entries(MARK)
    .filter(([, mark]) => body.replaceAll('\r\n ', '').includes(mark))
    .map(([name]) => name)

type Expected = 'nothing' | 'without hidden fields' | 'everything'

function expectedFor(surface: Shared, visibility: Visibility, who: Viewer): Expected {
  if (surface.audience === 'owner') return who === 'owner' ? 'without hidden fields' : 'nothing'
  const shown =
    surface.audience === 'viewer'
      ? ALLOWED[visibility].includes(who)
      : visibility === 'public' && (surface.audience === 'crawler' || who === 'visitor')
  if (!shown) return 'nothing'
  return who === 'owner' && surface.audience === 'viewer' ? 'everything' : 'without hidden fields'
}

const refValue = (ref: Reference) => (ref === 'id' ? cardId : ref === 'slug' ? shortSlug : nameLink)

async function checkShared(
  file: string,
  surface: Shared,
  expected: (who: Viewer) => Expected,
  signedOut: Viewer[] = ['visitor'],
) {
  for (const who of VIEWERS) {
    for (const ref of surface.refs) {
      const { path, params } = surface.request(refValue(ref))
      const { status, body } = await get(file, who, path, params)
      const want = expected(who)
      const cell = `${file} by ${ref} for ${who}: ${want} (got ${status})`
      if (want === 'nothing') {
        expect(status, cell).toBe(
          signedOut.includes(who) ? surface.hidden.visitor : surface.hidden.signedIn,
        )
        expect(marksIn(body), cell).toEqual([])
        if (surface.preview) expect(marksIn(await previewTags(file, body)), cell).toEqual([])
        continue
      }
      expect(status, cell).toBe(surface.shown ?? 200)
      if (surface.body === 'image') continue
      const details = Array.isArray(surface.details)
        ? surface.details
        : surface.details
          ? DETAILS
          : []
      expect(marksIn(body), cell).toEqual(
        wanted(want === 'everything' ? ['name', ...HIDDEN, ...details] : ['name', ...details]),
      )
      // The description is the bio (issue 28); the tags are public, the owner's own too.
      if (surface.preview) {
        expect(marksIn(await previewTags(file, body)), `${cell}, its meta tags`).toEqual(
          wanted(['name', 'bio']),
        )
      }
    }
  }
}

const shared = Object.entries(SURFACES).filter(
  (entry): entry is [string, Shared] => entry[1].kind === 'shared',
)

describe.each(VISIBILITIES)('visibility %s, email and phone hidden', (visibility) => {
  test.each(shared.map(([file]) => file))('%s', async (file) => {
    await setVisibility(visibility)
    const surface = SURFACES[file] as Shared
    await checkShared(file, surface, (who) => expectedFor(surface, visibility, who))
  })

  test('the lead form takes a lead from whoever may see the card, and from nobody else', async () => {
    await setVisibility(visibility)
    // Each lead emails the owner: three card paths' worth would pass the per-recipient limit.
    await getDb().delete(rateLimits)
    for (const [file, surface] of shared.filter(([, s]) => s.leads)) {
      for (const who of VIEWERS) {
        const allowed = ALLOWED[visibility].includes(who)
        const email = `lead-${visibility}-${who}-${file.split('.')[0]}-${suffix}@example.test`
        expect(await postLead(file, surface, who, email), `${file} for ${who}`).toBe(
          allowed ? 200 : 404,
        )
        expect(await leadsFrom(email), `${file} for ${who}`).toBe(allowed ? 1 : 0)
      }
    }
  })
})

async function postLead(file: string, surface: Shared, who: Viewer, email: string) {
  const mod = await load(file)
  const { path, params } = surface.request(refValue(surface.refs[0] ?? 'id'))
  ip += 1
  const response = await settle(async () =>
    mod.action?.({
      request: formRequest(
        host,
        path,
        { intent: 'lead', fullName: 'Lena Lead', email },
        cookies[who] ?? undefined,
      ),
      context: contextFor(host, `198.51.100.${ip % 250}`),
      params,
    }),
  )
  return response.status
}

async function leadsFrom(email: string) {
  const rows = await getDb()
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.userId, ownerId), eq(contacts.email, email)))
  return rows.length
}

// ADR 009's addendum (issue 30): a cardless account's name link opens its profile once the owner
// finished the wizard or chose a visibility; the gate applies that visibility as for cards.
describe('a profile behind a name link (no card, no wizard)', () => {
  const PROFILE = {
    name: `Prof${suffix}`,
    email: `prof-mail-${suffix}@example.test`,
    workEmail: `prof-work-${suffix}@example.test`,
    phone: '+1 555 0166',
  }
  let profileLink = ''
  let profileOwnerId = ''
  const profileCookies = {} as Record<Viewer, string | null>

  beforeAll(async () => {
    const owner = await makeUser(orgId, {
      firstName: PROFILE.name,
      lastName: 'Plain',
      email: PROFILE.email,
      workEmail: PROFILE.workEmail,
      phoneNumber: PROFILE.phone,
    })
    profileOwnerId = owner.id
    profileLink = `${PROFILE.name}-plain`.toLowerCase()
    const contact = await makeUser(orgId)
    const teammate = await makeUser(orgId)
    await withTenant(orgId, async (tx) => {
      const team = await createTeamWithAdmin(tx, orgId, owner.id, { name: 'Prof', description: '' })
      await addTeamMember(tx, orgId, team.id, teammate.id, 'member')
      await addContact(tx, orgId, owner.id, { fullName: 'Contact', email: contact.email })
    })
    profileCookies.visitor = null
    profileCookies.stranger = cookies.stranger
    profileCookies.contact = await sessionCookieFor(orgId, contact.id)
    profileCookies.teammate = await sessionCookieFor(orgId, teammate.id)
    profileCookies.owner = await sessionCookieFor(orgId, owner.id)
  })

  // The wallet pass and the virtual background need a card row: a profile is not offered them.
  const profileSurfaces = shared.filter(
    ([file, surface]) =>
      surface.refs.includes('link') &&
      surface.audience === 'viewer' &&
      !/pkpass|background/.test(file),
  )

  async function check(expected: (who: Viewer) => Expected) {
    for (const [file, surface] of profileSurfaces) {
      const { path, params } = surface.request(profileLink)
      for (const who of VIEWERS) {
        const mod = await load(file)
        const cookie = profileCookies[who]
        const answer = await settle(async () =>
          mod.loader?.({
            request: requestFor(host, path, cookie ? { headers: { Cookie: cookie } } : {}),
            context: contextFor(host),
            params,
          }),
        )
        const body = await answer.text()
        const marks = Object.entries(PROFILE)
          .filter(([, mark]) => body.replaceAll('\r\n ', '').includes(mark))
          .map(([name]) => name)
        const want = expected(who)
        const cell = `${file} for ${who}: ${want} (got ${answer.status})`
        if (want === 'nothing') {
          expect(answer.status, cell).toBe(404)
          expect(marks, cell).toEqual([])
        } else {
          expect(answer.status, cell).toBe(200)
          if (surface.body === 'data') {
            expect(marks, cell).toEqual(
              want === 'everything' ? ['name', 'email', 'workEmail', 'phone'] : ['name'],
            )
          }
        }
      }
    }
  }

  test('nothing chosen: unlisted, for everyone', async () => {
    await check(() => 'nothing')
  })

  test.each(VISIBILITIES)(
    'visibility %s chosen: whoever it allows, without hidden fields',
    async (visibility) => {
      await withTenant(orgId, (tx) =>
        setUserPreference(tx, orgId, profileOwnerId, 'privacy', {
          visibility,
          showEmail: false,
          showPhone: false,
        }),
      )
      await check((who) =>
        !ALLOWED[visibility].includes(who)
          ? 'nothing'
          : who === 'owner'
            ? 'everything'
            : 'without hidden fields',
      )
    },
  )
})

describe("the owner's own pages", () => {
  test.each(Object.keys(SURFACES).filter((file) => SURFACES[file]?.kind === 'own'))(
    '%s shows the card to nobody but its owner',
    async (file) => {
      await setVisibility('public')
      const surface = SURFACES[file] as Own
      const { path, params } = surface.request(cardId)
      for (const who of VIEWERS.filter((viewer) => viewer !== 'owner')) {
        const { status, body } = await get(file, who, path, params)
        expect(status, `${file} for ${who}`).toBeLessThan(500)
        expect(marksIn(body), `${file} for ${who}`).toEqual([])
      }
      expect((await get(file, 'owner', path, params)).status).toBeLessThan(500)
    },
  )

  test('the QR screen shows its owner everything, hidden fields included', async () => {
    await setVisibility('private')
    for (const [file, path, params] of [
      ['qrcode._index.tsx', '/qrcode', {}],
      ['qrcode.$cardId.tsx', `/qrcode/${cardId}`, { cardId }],
    ] as const) {
      const { status, body } = await get(file, 'owner', path, params)
      expect(status, file).toBe(200)
      expect(marksIn(body), file).toEqual(wanted(['name', ...HIDDEN, ...DETAILS]))
    }
  })
})

describe('a deactivated owner', () => {
  async function expectNoLeads(file: string, surface: Shared, tag: string) {
    for (const who of VIEWERS) {
      const email = `lead-${tag}-${who}-${file.split('.')[0]}-${suffix}@example.test`
      expect(await postLead(file, surface, who, email), `${file} for ${who}`).toBe(404)
      expect(await leadsFrom(email)).toBe(0)
    }
  }

  test("every card page answers the agency's forwarding, every other surface the missing card; the lead form takes nothing", async () => {
    await setVisibility('public')
    await setOwnerStatus('inactive')
    try {
      for (const [file, surface] of shared) {
        if (surface.forwards) {
          // Nobody took the seat over and the agency chose nothing: the default message.
          for (const who of VIEWERS) {
            for (const ref of surface.refs) {
              const { path, params } = surface.request(refValue(ref))
              const { status, body } = await get(file, who, path, params)
              const cell = `${file} by ${ref} for ${who}`
              expect(status, cell).toBe(410)
              expect(body, cell).toContain(DEFAULT_FORWARDING_MESSAGE)
              expect(marksIn(body), cell).toEqual([])
              expect(marksIn(await previewTags(file, body)), cell).toEqual([])
            }
          }
        } else {
          // An inactive account's session is refused, so its owner asks as a visitor does.
          await checkShared(file, surface, () => 'nothing', ['visitor', 'owner'])
        }
        if (surface.leads) await expectNoLeads(file, surface, 'inactive')
      }
    } finally {
      await setOwnerStatus('active')
    }
    // Active again: the card is back.
    expect((await get('card.$ref.tsx', 'visitor', `/card/${cardId}`, { ref: cardId })).status).toBe(
      200,
    )
  })

  test("a seat handed over: every card page redirects to the successor's card, for whoever the card was shown to", async () => {
    const successor = await makeUser(orgId, { firstName: `Heir${suffix}`, lastName: 'Apparent' })
    await makeCard(orgId, successor.id, { firstName: `Heir${suffix}`, lastName: 'Apparent' })
    const successorLink = `/c/${slugBaseFromName(`Heir${suffix}`, 'Apparent')}`
    await withTenant(orgId, (tx) =>
      handOverSeat(tx, {
        organizationId: orgId,
        userId: ownerId,
        successorId: successor.id,
        actorUserId: successor.id,
      }),
    )
    await setOwnerStatus('inactive')
    try {
      for (const visibility of ['public', 'private'] as const) {
        await setVisibility(visibility)
        for (const [file, surface] of shared.filter(([, s]) => s.forwards)) {
          for (const who of VIEWERS) {
            for (const ref of surface.refs) {
              const { path, params } = surface.request(refValue(ref))
              const { status, location } = await get(file, who, path, params)
              const cell = `${file} by ${ref} for ${who}, ${visibility}`
              // A private card was shown to its owner alone, who can no longer sign in.
              if (visibility === 'private') {
                expect(status, cell).toBe(404)
                continue
              }
              expect(status, cell).toBe(302)
              expect(location, cell).toBe(successorLink)
            }
          }
          if (surface.leads) await expectNoLeads(file, surface, `handed-${visibility}`)
        }
      }
    } finally {
      await setOwnerStatus('active')
      await setVisibility('public')
    }
    expect(
      (await get('c.$slug.tsx', 'visitor', `/c/${shortSlug}`, { slug: shortSlug })).status,
    ).toBe(200)
  })
})

// ADR 095: an archived card shows nothing on any surface, to anyone, its owner included, and
// takes no lead, until it is restored. Its name link is the person's, not the card's: without a
// live card it follows the profile rule (ADR 009), so nothing of the card itself is on it.
describe('an archived card', () => {
  const setArchived = (archived: boolean) =>
    withTenant(orgId, (tx) => setCardArchived(tx, orgId, ownerId, cardId, archived))
  /** What only the card carries, never the owner's profile. */
  const CARD_ONLY = ['bio', 'street', 'link', 'phone2', 'whatsapp']

  test('every surface answers the missing card by the card and its short link; the lead form takes nothing', async () => {
    await setVisibility('public')
    // The seat hand-over above ended the owner's sessions: the owner signs in again.
    cookies.owner = await sessionCookieFor(orgId, ownerId)
    await setArchived(true)
    try {
      for (const [file, surface] of shared) {
        const byCard = surface.refs.filter((ref) => ref !== 'link')
        if (byCard.length) {
          await checkShared(file, { ...surface, refs: byCard }, () => 'nothing', ['visitor'])
        }
        if (surface.refs.includes('link')) {
          for (const who of VIEWERS) {
            const { path, params } = surface.request(nameLink)
            const { body } = await get(file, who, path, params)
            const cell = `${file} by its name link for ${who}`
            expect(
              marksIn(body).filter((mark) => CARD_ONLY.includes(mark)),
              cell,
            ).toEqual([])
          }
        }
        if (surface.leads) {
          for (const who of VIEWERS) {
            const email = `lead-archived-${who}-${file.split('.')[0]}-${suffix}@example.test`
            const status = await postLead(
              file,
              { ...surface, refs: byCard.length ? byCard : surface.refs },
              who,
              email,
            )
            expect(status, `${file} for ${who}`).toBe(404)
            expect(await leadsFrom(email)).toBe(0)
          }
        }
      }
      // The owner's own pages still list it, to restore.
      const list = await get(
        'dashboard.end-user.digital-cards._index.tsx',
        'owner',
        '/dashboard/end-user/digital-cards',
        {},
      )
      expect(list.status).toBe(200)
      expect(list.body).toContain(cardId)
      expect(list.body).toContain('"archivedAt":"')
    } finally {
      await setArchived(false)
    }
    // Restored: the card is back, by its id and its short link.
    expect((await get('card.$ref.tsx', 'visitor', `/card/${cardId}`, { ref: cardId })).status).toBe(
      200,
    )
    expect(
      (await get('c.$slug.tsx', 'visitor', `/c/${shortSlug}`, { slug: shortSlug })).status,
    ).toBe(200)
  })
})
