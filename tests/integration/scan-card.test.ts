// "Scan a card" (issue 45 point 3, ADR 101): a photo of a card drawn here is read by tesseract.js
// on this process (no network) into a proposal; what is not an image is refused next to the
// field; more readings than the queue holds are told to try again; the corrected contact is saved
// with the source "scan" and its website in the note, once per email.
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  CARD_READ_QUEUE,
  CardReadError,
  readCardPhoto,
  stopCardReader,
} from '#app/cards/card-ocr.server'
import { listContacts } from '#app/models/contacts.server'
import { action } from '#app/routes/contacts.scan'
import { withTenant } from '#drizzle/db.server'
import {
  contextFor,
  formRequest,
  makeOrganization,
  makeUser,
  replyErrors,
  sessionCookieFor,
  settle,
} from '#tests/factories'

let host: string
let cookie: string
let organizationId: string
let userId: string

async function cardImage() {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1050" height="600">
  <rect width="100%" height="100%" fill="#ffffff"/>
  <g font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" fill="#111111">
    <text x="60" y="120" font-size="56" font-weight="bold">Paula Paper</text>
    <text x="60" y="180" font-size="34">Marketing Director</text>
    <text x="60" y="230" font-size="34">Printworks GmbH</text>
    <text x="60" y="400" font-size="30">paula@printworks.de</text>
    <text x="60" y="450" font-size="30">+49 30 1234 5678</text>
  </g>
</svg>`
  // The app lets sharp decode only the four upload formats; the test draws its card from SVG.
  sharp.unblock({ operation: ['VipsForeignLoadSvgBuffer'] })
  try {
    return await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer()
  } finally {
    sharp.block({ operation: ['VipsForeignLoadSvgBuffer'] })
  }
}

function photoRequest(photo: Blob) {
  const form = new FormData()
  form.set('intent', 'read')
  form.set('photo', photo, 'card.jpg')
  return new Request(`http://${host}/contacts/scan`, {
    method: 'POST',
    headers: { Cookie: cookie },
    body: form,
  })
}

const post = (request: Request) =>
  settle(() => action({ request, context: contextFor(host), params: {} }) as Promise<unknown>)

beforeAll(async () => {
  const agency = await makeOrganization({ name: 'Scanning Agency' })
  organizationId = agency.id
  host = `${agency.slug}.localhost`
  userId = (await makeUser(agency.id, { firstName: 'Sid', lastName: 'Scanner' })).id
  cookie = await sessionCookieFor(agency.id, userId)
})

afterAll(async () => {
  await stopCardReader()
})

describe('reading a photo', () => {
  test('a card drawn here is read into a proposal', { timeout: 60_000 }, async () => {
    const got = await post(
      photoRequest(new Blob([new Uint8Array(await cardImage())], { type: 'image/jpeg' })),
    )
    expect(got.status).toBe(200)
    const body = (await got.json()) as { proposal: Record<string, string>; found: boolean }
    expect(body.found).toBe(true)
    expect(body.proposal).toMatchObject({
      fullName: 'Paula Paper',
      jobTitle: 'Marketing Director',
      company: 'Printworks GmbH',
      email: 'paula@printworks.de',
      phoneNumber: '+49 30 1234 5678',
    })
  })

  test('what is not an image is refused next to the photo, not a 500', async () => {
    const got = await post(photoRequest(new Blob(['not a photo'], { type: 'image/jpeg' })))
    expect(got.status).toBe(400)
    expect((await replyErrors(got)).photo).toEqual(['This file is not an image we can read.'])
  })

  test('no photo: the field says what to do', async () => {
    const got = await post(formRequest(host, '/contacts/scan', { intent: 'read' }, cookie))
    expect(got.status).toBe(400)
    expect((await replyErrors(got)).photo).toEqual(['Please take or choose a photo of the card'])
  })

  test('more readings than the queue holds: the next one is told to try again', {
    timeout: 60_000,
  }, async () => {
    const small = await sharp({
      create: { width: 40, height: 20, channels: 3, background: '#ffffff' },
    })
      .png()
      .toBuffer()
    const readings = Array.from({ length: CARD_READ_QUEUE + 2 }, () =>
      readCardPhoto(new Uint8Array(small)).then(
        () => 'read',
        (error: unknown) => (error instanceof CardReadError ? error.reason : 'other'),
      ),
    )
    const outcomes = await Promise.all(readings)
    expect(outcomes.filter((outcome) => outcome === 'read')).toHaveLength(CARD_READ_QUEUE + 1)
    expect(outcomes.filter((outcome) => outcome === 'busy')).toHaveLength(1)
    // Once the queue is empty, a reading goes ahead again, also after the worker was ended.
    await stopCardReader()
    await expect(readCardPhoto(new Uint8Array(small))).resolves.toBeTypeOf('string')
  })
})

describe('the deadline', () => {
  test('a reading past its deadline is ended and told; the next reading starts a new worker', {
    timeout: 60_000,
  }, async () => {
    const photo = new Uint8Array(await cardImage())
    // 1 ms: starting the worker alone takes longer, so the deadline always wins the race.
    const late = await readCardPhoto(photo, { timeoutMs: 1 }).then(
      () => 'read',
      (error: unknown) => (error instanceof CardReadError ? error : 'other'),
    )
    expect(late).toBeInstanceOf(CardReadError)
    expect((late as CardReadError).reason).toBe('timeout')
    expect((late as CardReadError).message).toBe(
      'Reading the card took too long. Please try a clearer photo.',
    )
    // The ended worker is not reused: the next reading (normal deadline) reads the card.
    await expect(readCardPhoto(photo)).resolves.toContain('Paula Paper')
  })
})

describe('saving the corrected contact', () => {
  const fields = {
    intent: 'save',
    fullName: 'Paula Paper',
    jobTitle: 'Marketing Director',
    company: 'Printworks GmbH',
    email: 'paula@printworks.de',
    phoneNumber: '+49 30 1234 5678',
    website: 'www.printworks.de',
    note: 'Met at the print fair',
  }

  test('saved with the source "scan", the website kept in the note; once per email', async () => {
    const got = await post(formRequest(host, '/contacts/scan', fields, cookie))
    expect(got.status).toBe(302)
    expect(got.headers.get('Location')).toMatch(/^\/contacts\/[0-9a-f-]{36}$/)
    const contacts = await withTenant(organizationId, (tx) =>
      listContacts(tx, organizationId, userId, { source: 'scan' }),
    )
    expect(contacts).toHaveLength(1)
    expect(contacts[0]).toMatchObject({
      fullName: 'Paula Paper',
      email: 'paula@printworks.de',
      phoneNumber: '+49 30 1234 5678',
      source: 'scan',
      note: 'Website: www.printworks.de\nMet at the print fair',
    })
    const again = await post(formRequest(host, '/contacts/scan', fields, cookie))
    expect(again.status).toBe(409)
    expect((await replyErrors(again)).email).toEqual(['This contact is already in your list'])
  })

  test('a name is required; an email, when given, must be one', async () => {
    const got = await post(
      formRequest(host, '/contacts/scan', { intent: 'save', fullName: '', email: 'nope' }, cookie),
    )
    expect(got.status).toBe(400)
    expect(await replyErrors(got)).toMatchObject({
      fullName: ["Please enter the person's name"],
      email: ['Please enter a valid email address'],
    })
  })
})
