// A visitor's words in the agency's emails (issue 39 point 3): the lead form's one-line fields
// (name, company, phone) refuse line breaks and control characters next to the field, the note
// keeps its lines; the owner's new-lead notification and the lead's receipt show what the
// visitor typed as quoted data, never as a link (checked with linkify-it, a linkifier like the
// ones mail clients run) nor as a line of its own that reads as the agency's words.
import { eq } from 'drizzle-orm'
import LinkifyIt from 'linkify-it'
import { describe, expect, test } from 'vitest'
import { action as cardAction } from '#app/routes/card.$ref'
import { leadReceiptEmail } from '#app/services/emails/lead-receipt-email.server'
import { newContactEmail } from '#app/services/emails/new-contact-email.server'
import { SINGLE_LINE_MESSAGE } from '#app/validation/text'
import { getDb } from '#drizzle/db.server'
import { contacts, emailOutbox } from '#drizzle/schema'
import { databaseChecksum } from '#tests/checksum'
import {
  contextFor,
  formRequest,
  makeBrandedOrganization,
  makeCard,
  makeUser,
  replyErrors,
  settle,
} from '#tests/factories'
import { asDelivered } from '#tests/inbox'

const linkify = new LinkifyIt()

async function world() {
  const { organization } = await makeBrandedOrganization({ name: 'Quote Co' })
  const host = `${organization.slug}.localhost`
  const owner = await makeUser(organization.id, {
    firstName: 'Olive',
    lastName: 'Owner',
    email: `olive-${organization.slug}@example.test`,
  })
  const card = await makeCard(organization.id, owner.id)
  return { organization, host, owner, card }
}

type World = Awaited<ReturnType<typeof world>>

let ip = 10
const lead = (w: World, fields: Record<string, string>) =>
  settle(() =>
    cardAction({
      request: formRequest(w.host, `/card/${w.card.id}`, { intent: 'lead', ...fields }),
      context: contextFor(w.host, `198.51.100.${ip++}`),
      params: { ref: w.card.id },
    }),
  )

/** The text a reader sees in an HTML part: tags dropped, entities decoded. */
const visibleText = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&')

/** Every link a mail client's linkifier would make of the email, and its real anchors. */
function linksIn(email: { html: string; text: string }) {
  const anchors = [...email.html.matchAll(/href="([^"]*)"/g)].map((match) => match[1] ?? '')
  const found = [
    ...(linkify.match(email.text) ?? []),
    ...(linkify.match(visibleText(email.html)) ?? []),
  ].map((match) => match.url)
  return [...anchors, ...found]
}

// A name and company that try to be a link and a second line in the agency's voice.
const HOSTILE_NAME = 'Lee https://evil.example.com/pay www.evil.example.com'
const HOSTILE_COMPANY = 'Acme evil.example.com'
const FORGED = 'Your account is suspended: pay at evil.example.com'

describe('the lead form', () => {
  test.each([
    ['fullName', `Lee\n${FORGED}`],
    ['fullName', 'Lee\r\nBcc: victim@example.test'],
    ['fullName', 'Lee\u2028Lead'],
    ['fullName', 'Lee\u202eLead'],
    ['company', `Acme\n${FORGED}`],
    ['company', 'Acme\tLtd'],
    ['phoneNumber', '+1 555\n0100'],
  ])(
    '%s with a line break or control character is refused next to it, nothing kept',
    async (field, value) => {
      const w = await world()
      const before = await databaseChecksum({ organizationId: w.organization.id })
      const answer = await lead(w, {
        fullName: 'Lee Lead',
        email: `lee-${w.organization.slug}@example.test`,
        [field]: value,
      })
      expect(answer.status).toBe(400)
      expect((await replyErrors(answer))[field]).toEqual([SINGLE_LINE_MESSAGE])
      expect(await databaseChecksum({ organizationId: w.organization.id })).toEqual(before)
    },
  )

  test('the note keeps its lines; one-line fields keep their spaces and accents', async () => {
    const w = await world()
    const answer = await lead(w, {
      fullName: 'Zoë  van Dijk',
      email: `zoe-${w.organization.slug}@example.test`,
      company: 'Café & Co',
      note: 'First line\nSecond line',
    })
    expect(answer.status).toBe(200)
    const [kept] = await getDb()
      .select()
      .from(contacts)
      .where(eq(contacts.organizationId, w.organization.id))
    expect(kept?.fullName).toBe('Zoë  van Dijk')
    expect(kept?.company).toBe('Café & Co')
  })
})

describe("the owner's new-lead email", () => {
  test('shows the visitor’s text quoted, one line each, and makes no link of it', async () => {
    const w = await world()
    const answer = await lead(w, {
      fullName: HOSTILE_NAME,
      email: `lee-${w.organization.slug}@example.com`,
      company: HOSTILE_COMPANY,
    })
    expect(answer.status).toBe(200)
    const [email] = asDelivered(
      await getDb().select().from(emailOutbox).where(eq(emailOutbox.toAddress, w.owner.email)),
    )
    if (!email) throw new Error('no new-lead email')
    const rendered = { html: email.html ?? '', text: email.text ?? '' }
    // Only the agency's own links: its origin (contacts, unsubscribe), nothing of the visitor's.
    const links = linksIn(rendered)
    expect(links.length).toBeGreaterThan(0)
    for (const url of links) expect(url).not.toMatch(/evil|example\.com/)
    // Each value is on a quoted line under its label, in quotation marks.
    const quotedLines = rendered.text.split('\n').filter((line) => line.includes('evil'))
    expect(quotedLines).toHaveLength(2)
    for (const line of quotedLines) expect(line).toMatch(/^> (Name|Company): “.*”$/)
    expect(rendered.text.replaceAll('\u200c', '')).toContain(`> Name: “${HOSTILE_NAME}”`)
    expect(email.subject?.replaceAll('\u200c', '')).toBe(
      `New lead: “${HOSTILE_NAME}” left their details on Quote Co`,
    )
    expect(linkify.match(email.subject ?? '')).toBeNull()
  })

  test('a value stored with line breaks (an older row) still renders as one quoted line', () => {
    const email = newContactEmail({
      branding: {
        name: 'Quote Co',
        primaryColor: '#0f766e',
        logoUrl: null,
        origin: 'https://quote.example.test',
        legal: {
          supportEmail: '',
          privacyPolicyUrl: '',
          termsOfServiceUrl: '',
          accessibilityEmail: '',
        },
      },
      kind: 'lead',
      to: 'owner@example.test',
      ownerFirstName: 'Olive',
      contact: {
        fullName: `Lee\r\n${FORGED}`,
        email: 'lee@example.com',
        company: `A\u2028${FORGED}`,
      },
      contactsUrl: 'https://quote.example.test/contacts',
      unsubscribeUrl: 'https://quote.example.test/email/unsubscribe?token=t',
    })
    // No line starts with the forged words: they only appear inside quoted values.
    for (const line of email.text.split('\n')) {
      if (line.replaceAll('\u200c', '').includes('Your account is suspended')) {
        expect(line).toMatch(/^> (Name|Company): “.*”$/)
      }
    }
    expect(email.subject).not.toMatch(/[\r\n\u2028]/)
    for (const url of linksIn(email)) expect(url).toMatch(/^https:\/\/quote\.example\.test\//)
  })
})

describe("the lead's receipt", () => {
  test('greets nobody by the typed name; the name is quoted data and never a link', () => {
    const email = leadReceiptEmail({
      branding: {
        name: 'Quote Co',
        primaryColor: '#0f766e',
        logoUrl: null,
        origin: 'https://quote.example.test',
        legal: {
          supportEmail: '',
          privacyPolicyUrl: '',
          termsOfServiceUrl: '',
          accessibilityEmail: '',
        },
      },
      to: 'someone@example.test',
      leadName: `${FORGED} https://evil.example.com/login`,
      ownerName: 'Olive Owner',
      consentText: 'You may contact me about offers.',
      consentVersion: 1,
      givenAt: new Date('2026-01-05T10:00:00Z'),
      dataUrl: 'https://quote.example.test/lead-data?token=abc',
    })
    const lines = email.text.split('\n')
    expect(lines).toContain('Hello,')
    for (const line of lines) {
      if (line.replaceAll('\u200c', '').includes('Your account is suspended')) {
        expect(line).toMatch(/^> Name: “.*”$/)
      }
    }
    expect(email.text.replaceAll('\u200c', '')).toContain(
      `> Name: “${FORGED} https://evil.example.com/login”`,
    )
    for (const url of linksIn(email)) expect(url).toMatch(/^https:\/\/quote\.example\.test\//)
  })
})
