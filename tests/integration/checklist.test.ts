// The security checklist, end to end through the route modules: media is never served as
// HTML or SVG, the contacts CSV cannot start a formula, expired reset tokens are refused,
// forgot-password does not reveal which accounts exist, sessions store only the token's
// SHA-256, and injected ids, roles and organizations are ignored by the profile and card forms.
import { createHash, randomBytes } from 'node:crypto'
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding'
import { eq, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { beforeEach, describe, expect, test, vi } from 'vitest'
import * as passwords from '#app/auth/password.server'
import { addContact } from '#app/models/contacts.server'
import { storeMedia } from '#app/models/media.server'
import { action as forgotAction } from '#app/routes/auth.forgot-password'
import { action as loginAction } from '#app/routes/auth.login'
import { action as resetAction } from '#app/routes/auth.reset-password'
import { loader as csvLoader } from '#app/routes/contacts.export[.]csv'
import { action as cardEditAction } from '#app/routes/dashboard.end-user.digital-cards.edit.$cardId'
import { loader as mediaLoader } from '#app/routes/media.$file'
import { action as profileAction } from '#app/routes/profile._index'
import { readToast } from '#app/utils/toast.server'
import { getDb, withTenant } from '#drizzle/db.server'
import {
  digitalCards,
  media,
  passwordResetTokens,
  sessions,
  teamMembers,
  teams,
  users,
} from '#drizzle/schema'
import { databaseChecksum, rowsOf } from '#tests/checksum'
import {
  contextFor,
  formRequest,
  makeBrandedOrganization,
  makeCard,
  makeOrganization,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
} from '#tests/factories'

// The password functions stay real; spying on them lets the decoy test count the work done. The
// app's modules call an import through its module (vitest's transform), so they reach the spies;
// tests/setup/process-state.ts restores the functions after this file.
const hashPassword = vi.spyOn(passwords, 'hashPassword')
const verifyPassword = vi.spyOn(passwords, 'verifyPassword')

const sha256Hex = (value: string | Uint8Array) => createHash('sha256').update(value).digest('hex')

async function tenant(password = 'secret123') {
  const organization = await makeOrganization()
  const user = await makeUser(organization.id, { password })
  return { organization, user, host: `${organization.slug}.localhost` }
}

function getMedia(host: string, file: string) {
  return settle(() =>
    mediaLoader({
      request: requestFor(host, `/media/${file}`),
      context: contextFor(host),
      params: { file },
    }),
  )
}

describe('media is never served as HTML or SVG', () => {
  test('rows stored as text/html or image/svg+xml are refused under every extension', async () => {
    const { organization, host } = await tenant()
    const payloads = [
      { contentType: 'text/html', bytes: '<html><script>alert(document.cookie)</script></html>' },
      {
        contentType: 'image/svg+xml',
        bytes: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>',
      },
      { contentType: 'text/html; charset=utf-8', bytes: '<!doctype html><p>hi</p>' },
    ]
    for (const [index, payload] of payloads.entries()) {
      const bytes = Buffer.from(payload.bytes)
      const hash = sha256Hex(bytes)
      // Stored as if an upload had let them through: a png name over hostile content.
      await getDb()
        .insert(media)
        .values({
          organizationId: organization.id,
          hash,
          ext: index === 1 ? 'svg' : 'png',
          contentType: payload.contentType,
          purpose: 'logo',
          width: 1,
          height: 1,
          byteSize: bytes.length,
          data: bytes,
        })
      for (const ext of ['png', 'jpg', 'webp', 'svg', 'html']) {
        const response = await getMedia(host, `${hash}.${ext}`)
        const type = response.headers.get('Content-Type') ?? ''
        if (response.status === 404) continue
        // Anything answered must not be renderable as a document.
        expect(type).not.toMatch(/html|svg|xml/i)
        expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff')
        expect(await response.text()).not.toContain('<')
      }
      expect((await getMedia(host, `${hash}.png`)).status).toBe(404)
      expect((await getMedia(host, `${hash}.svg`)).status).toBe(404)
    }
  })

  test('PNG and JPEG are served with nosniff and the sandbox CSP', async () => {
    const { organization, logo } = await makeBrandedOrganization()
    const host = `${organization.slug}.localhost`
    const jpegBytes = await sharp({
      create: { width: 8, height: 8, channels: 3, background: '#336699' },
    })
      .jpeg()
      .toBuffer()
    const jpeg = await withTenant(organization.id, (tx) =>
      storeMedia(tx, organization.id, {
        bytes: jpegBytes,
        contentType: 'image/jpeg',
        width: 8,
        height: 8,
        purpose: 'logo',
      }),
    )
    for (const [file, type] of [
      [`${logo.hash}.png`, 'image/png'],
      [`${jpeg.hash}.jpg`, 'image/jpeg'],
    ] as const) {
      const response = await getMedia(host, file)
      expect(response.status).toBe(200)
      expect(response.headers.get('Content-Type')).toBe(type)
      expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff')
      expect(response.headers.get('Content-Security-Policy')).toBe("default-src 'none'; sandbox")
    }
    // The jpg name of a png row (or the other way round) is not served either.
    expect((await getMedia(host, `${logo.hash}.jpg`)).status).toBe(404)
  })
})

/** Cells of a CSV whose every cell is double-quoted (as the export writes it). */
function parseQuotedCsv(text: string) {
  const rows: string[][] = []
  let row: string[] = []
  const cell = /"((?:[^"]|"")*)"(,|\r\n|$)/y
  let match = cell.exec(text)
  while (match && match[0] !== '') {
    row.push((match[1] ?? '').replaceAll('""', '"'))
    if (match[2] !== ',') {
      rows.push(row)
      row = []
    }
    if (cell.lastIndex >= text.length) break
    match = cell.exec(text)
  }
  expect(cell.lastIndex, 'the whole CSV parsed').toBe(text.length)
  return rows
}

describe('contacts CSV export', () => {
  test('cells starting with = + - @ tab or CR are neutralised; ordinary values are unchanged', async () => {
    const { organization, user, host } = await tenant()
    const hostile = {
      fullName: '=HYPERLINK("http://evil.test","Click")',
      email: '+cmd@evil.test',
      phoneNumber: '-2+3',
      company: '@SUM(A1:A9)',
      jobTitle: '\t=1+1',
      note: '\r=2+2',
    }
    const ordinary = {
      fullName: 'Ada Lovelace',
      email: 'ada@example.test',
      phoneNumber: '020 7946 0000',
      company: 'Analytical "Engines", Ltd',
      jobTitle: 'Mathematician = genius',
      note: 'Met at the expo; 5+5 ideas',
    }
    await withTenant(organization.id, async (tx) => {
      await addContact(tx, organization.id, user.id, hostile)
      await addContact(tx, organization.id, user.id, ordinary)
    })
    const cookie = await sessionCookieFor(organization.id, user.id)
    const response = await settle(() =>
      csvLoader({
        request: requestFor(host, '/contacts/export.csv', { headers: { Cookie: cookie } }),
        context: contextFor(host),
        params: {},
      }),
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff')
    const text = (await response.text()).replace(/^\uFEFF/, '')
    const rows = parseQuotedCsv(text)
    expect(rows[0]).toEqual([
      'Full name',
      'Email',
      'Phone',
      'Company',
      'Job title',
      'Note',
      'Source',
      'Added',
      'Consent version',
      'Consent given at',
      'Consent page',
    ])
    const bad = rows.find((r) => r[0]?.includes('HYPERLINK'))
    const good = rows.find((r) => r[0] === 'Ada Lovelace')
    expect(bad?.slice(0, 6)).toEqual([
      `'${hostile.fullName}`,
      `'${hostile.email}`,
      `'${hostile.phoneNumber}`,
      `'${hostile.company}`,
      `'${hostile.jobTitle}`,
      `'${hostile.note}`,
    ])
    // No cell of the file starts a formula.
    for (const cellValue of rows.flat()) expect(cellValue).not.toMatch(/^[=+\-@\t\r]/)
    expect(good?.slice(0, 6)).toEqual([
      ordinary.fullName,
      ordinary.email,
      ordinary.phoneNumber,
      ordinary.company,
      ordinary.jobTitle,
      ordinary.note,
    ])
    expect(rows).toHaveLength(3)
  })
})

describe('reset password action', () => {
  test('an expired token is refused and changes neither the password nor the sessions', async () => {
    const { organization, user, host } = await tenant('old-secret')
    await sessionCookieFor(organization.id, user.id)
    const token = encodeBase32LowerCaseNoPadding(new Uint8Array(randomBytes(32)))
    expect(token).toMatch(/^[a-z2-7]{52}$/)
    const [row] = await getDb()
      .insert(passwordResetTokens)
      .values({
        organizationId: organization.id,
        userId: user.id,
        tokenHash: sha256Hex(token),
        expiresAt: new Date(Date.now() - 60_000),
      })
      .returning()
    const userBefore = await getDb().select().from(users).where(eq(users.id, user.id))
    const sessionsBefore = await getDb().select().from(sessions).where(eq(sessions.userId, user.id))
    expect(sessionsBefore).toHaveLength(1)

    const post = () =>
      settle(() =>
        resetAction({
          request: formRequest(host, '/auth/reset-password', {
            token,
            password: 'new-secret',
            confirmPassword: 'new-secret',
          }),
          context: contextFor(host),
          params: {},
        }),
      )
    const refused = await post()
    expect(refused.status).toBe(400)
    expect(refused.headers.get('Referrer-Policy')).toBe('no-referrer')
    expect(refused.headers.get('Set-Cookie')).toBeNull()
    // This refusal (and no other) makes the page show "Invalid Reset Link".
    expect(await refused.json()).toMatchObject({
      error: 'This password reset link is invalid, has expired or has already been used.',
    })
    expect(await getDb().select().from(users).where(eq(users.id, user.id))).toEqual(userBefore)
    expect(await verifyPassword(userBefore[0]?.passwordHash ?? '', 'old-secret')).toBe(true)
    expect(await getDb().select().from(sessions).where(eq(sessions.userId, user.id))).toEqual(
      sessionsBefore,
    )
    const [tokenAfter] = await getDb()
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.id, row?.id ?? ''))
    expect(tokenAfter?.usedAt).toBeNull()

    // Control: the very same request succeeds once the token is in date, so the refusal
    // above was the expiry and nothing else.
    await getDb()
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() + 60_000) })
      .where(eq(passwordResetTokens.id, row?.id ?? ''))
    const accepted = await post()
    expect(accepted).toHaveRedirect('/auth/login')
  })
})

function forgot(host: string, email: string) {
  return settle(() =>
    forgotAction({
      request: formRequest(host, '/auth/forgot-password', { email }),
      context: contextFor(host),
      params: {},
    }),
  )
}

/** What a browser can observe of a response: status, headers and body. */
async function observable(response: Response) {
  const headers = [...response.headers.entries()].sort(([a], [b]) => a.localeCompare(b))
  return { status: response.status, headers, body: await response.text() }
}

describe('forgot password does not reveal accounts', () => {
  beforeEach(() => {
    hashPassword.mockClear()
    verifyPassword.mockClear()
  })

  test('a known and an unknown email get the same status, Location, toast and body', async () => {
    const { user, host } = await tenant()
    hashPassword.mockClear()
    verifyPassword.mockClear()
    const known = await forgot(host, user.email)
    const knownWork = [hashPassword.mock.calls.length, verifyPassword.mock.calls.length]
    hashPassword.mockClear()
    verifyPassword.mockClear()
    const unknown = await forgot(host, 'nobody-here@example.test')
    const unknownWork = [hashPassword.mock.calls.length, verifyPassword.mock.calls.length]

    expect(known).toHaveRedirect('/auth/login')
    const knownCookies = known.headers.getSetCookie()
    expect(unknown.headers.getSetCookie()).toEqual(knownCookies)
    // The signed flash cookie decodes to the same toast for both.
    const toastCookie = knownCookies.find((c) => c.startsWith('toast=')) ?? ''
    expect(toastCookie).not.toBe('')
    const { toast } = await readToast(
      requestFor(host, '/auth/login', { headers: { Cookie: toastCookie.split(';')[0] ?? '' } }),
    )
    expect(toast).toEqual({
      type: 'success',
      title: 'Password reset link sent! Please check your email.',
    })
    expect(await observable(unknown)).toEqual(await observable(known))
    // Neither path does password hashing, so that is no timing difference either.
    expect(unknownWork).toEqual(knownWork)
  })

  test('sign-in with an unknown email still verifies against a decoy argon2 hash', async () => {
    const { user, host } = await tenant()
    const signIn = (email: string) =>
      settle(() =>
        loginAction({
          request: formRequest(host, '/auth/login', { email, password: 'wrong-password' }),
          context: contextFor(host),
          params: {},
        }),
      )
    verifyPassword.mockClear()
    const known = await signIn(user.email)
    expect(verifyPassword.mock.calls).toHaveLength(1)
    const [knownHash] = verifyPassword.mock.calls[0] ?? []

    verifyPassword.mockClear()
    const unknown = await signIn('nobody-here@example.test')
    expect(verifyPassword.mock.calls).toHaveLength(1)
    const [decoyHash, tried] = verifyPassword.mock.calls[0] ?? []
    expect(decoyHash).toMatch(/^\$argon2id\$/)
    expect(decoyHash).not.toBe(knownHash)
    expect(tried).toBe('wrong-password')

    expect(unknown.status).toBe(401)
    // The same answer, but for the email the form echoes back.
    const seenUnknown = await observable(unknown)
    const seenKnown = await observable(known)
    expect(seenUnknown.body).toContain('nobody-here@example.test')
    seenUnknown.body = seenUnknown.body.replace('nobody-here@example.test', user.email)
    expect(seenUnknown).toEqual(seenKnown)
  })
})

describe('sessions store only the SHA-256 of the token', () => {
  test('after sign-in, the row id is the hex SHA-256 of the cookie token', async () => {
    const { user, host } = await tenant()
    const response = await settle(() =>
      loginAction({
        request: formRequest(host, '/auth/login', { email: user.email, password: 'secret123' }),
        context: contextFor(host),
        params: {},
      }),
    )
    expect(response.status).toBe(302)
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('session='))
    const token = /^session=([^;]*)/.exec(cookie ?? '')?.[1] ?? ''
    expect(token).toMatch(/^[a-z2-7]{32}$/)
    const rows = await getDb().select().from(sessions).where(eq(sessions.userId, user.id))
    expect(rows.map((r) => r.id)).toEqual([sha256Hex(token)])
    // The token itself is in no column of any session row.
    const raw = await getDb().execute(sql`select t::text as row from sessions t`)
    const texts = rowsOf<{ row: string }>(raw)
    expect(texts.length).toBeGreaterThan(0)
    for (const { row } of texts) expect(row).not.toContain(token)
  })
})

describe('mass assignment of ids, roles, organizations and teams', () => {
  async function targets() {
    const own = await tenant()
    const other = await tenant()
    const [team] = await getDb()
      .insert(teams)
      .values({ organizationId: other.organization.id, name: 'Their team' })
      .returning()
    const injected = {
      teamId: team?.id ?? '',
      organizationId: other.organization.id,
      role: 'super_admin',
      userId: other.user.id,
      id: other.user.id,
      assignedToUserId: other.user.id,
      status: 'inactive',
      plan: 'team_pro',
    }
    return { own, other, injected }
  }

  test('the profile form ignores injected teamId, organizationId, role and userId', async () => {
    const { own, other, injected } = await targets()
    const cookie = await sessionCookieFor(own.organization.id, own.user.id)
    const otherBefore = await databaseChecksum({ organizationId: other.organization.id })
    const [before] = await getDb().select().from(users).where(eq(users.id, own.user.id))
    const response = await settle(() =>
      profileAction({
        request: formRequest(
          own.host,
          '/profile?index',
          {
            intent: 'profile',
            firstName: 'Ada',
            lastName: 'Lovelace',
            email: own.user.email,
            ...injected,
          },
          cookie,
        ),
        context: contextFor(own.host),
        params: {},
      }),
    )
    expect(response.status).toBe(302)
    const [after] = await getDb().select().from(users).where(eq(users.id, own.user.id))
    expect(after?.firstName).toBe('Ada')
    // The name link follows the account's name (ADR 027).
    const { firstName, lastName, linkSlug, updatedAt, ...unchanged } =
      before ?? ({} as NonNullable<typeof before>)
    expect(after).toMatchObject(unchanged)
    expect(after).toMatchObject({
      organizationId: own.organization.id,
      role: 'end_user',
      status: 'active',
      assignedToUserId: null,
    })
    expect(
      await getDb().select().from(teamMembers).where(eq(teamMembers.userId, own.user.id)),
    ).toEqual([])
    expect(await databaseChecksum({ organizationId: other.organization.id })).toEqual(otherBefore)
  })

  test('the card editor ignores injected teamId, organizationId, role and userId', async () => {
    const { own, other, injected } = await targets()
    const card = await makeCard(own.organization.id, own.user.id, { title: 'Before' })
    const cookie = await sessionCookieFor(own.organization.id, own.user.id)
    const otherBefore = await databaseChecksum({ organizationId: other.organization.id })
    const [before] = await getDb().select().from(digitalCards).where(eq(digitalCards.id, card.id))
    const response = await settle(() =>
      cardEditAction({
        request: formRequest(
          own.host,
          `/dashboard/end-user/digital-cards/edit/${card.id}`,
          {
            intent: 'details',
            title: 'After',
            firstName: 'Ann',
            lastName: 'Bee',
            ...injected,
            isDefault: 'on',
            cardType: 'company',
          },
          cookie,
        ),
        context: contextFor(own.host),
        params: { cardId: card.id },
      }),
    )
    expect(response.status).toBe(302)
    const [after] = await getDb().select().from(digitalCards).where(eq(digitalCards.id, card.id))
    expect(after).toMatchObject({ title: 'After', firstName: 'Ann', lastName: 'Bee' })
    expect(after).toMatchObject({
      id: card.id,
      organizationId: own.organization.id,
      userId: own.user.id,
      isDefault: before?.isDefault,
      cardType: before?.cardType,
    })
    const [user] = await getDb().select().from(users).where(eq(users.id, own.user.id))
    expect(user).toMatchObject({ organizationId: own.organization.id, role: 'end_user' })
    expect(
      await getDb().select().from(teamMembers).where(eq(teamMembers.userId, own.user.id)),
    ).toEqual([])
    expect(await databaseChecksum({ organizationId: other.organization.id })).toEqual(otherBefore)
  })
})
