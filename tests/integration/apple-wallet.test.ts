// Apple Wallet passes (issue 29 point 1, ADR 042), with throwaway certificates: the pass is a
// signed zip whose manifest and PKCS#7 signature check out against the test WWDR, it carries
// the configured identifiers and the card's short link marked as the wallet's; Apple's web
// service protocol runs end to end with a fake device; editing the card pushes to the fake
// APNs and the next pass differs. Without configuration everything answers 404, a hidden card
// gives a stranger nothing, and no tenant reaches another's passes.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { appleWalletConfigured } from '#app/cards/apple-config.server'
import { flushCardViews } from '#app/cards/view-batcher.server'
import { runJobsNow } from '#app/job-handlers.server'
import { updateOrganizationBranding } from '#app/models/organizations.server'
import { setUserPreference } from '#app/models/user-settings.server'
import { loader as shortLinkLoader } from '#app/routes/c.$slug'
import { loader as passLoader } from '#app/routes/card_.$ref.pass[.]pkpass'
import { action as editAction } from '#app/routes/dashboard.end-user.digital-cards.edit.$cardId'
import { action as serviceAction, loader as serviceLoader } from '#app/routes/wallet.apple.v1.$'
import { invalidateTenant } from '#app/tenancy/tenant.server'
import { MAX_LOGGED_VALUE } from '#app/utils/client-data-log'
import { sourceOfUrl } from '#app/utils/view-sources'
import { passAuthenticationToken } from '#app/wallet/pass-token.server'
import { getDb, withTenant } from '#drizzle/db.server'
import { cardSlugs, cardViews, jobs, walletRegistrations } from '#drizzle/schema'
import {
  configureAppleWallet,
  makeTestCertificates,
  readZip,
  removeTestCertificates,
  startFakeApns,
  TEST_PASS_TYPE_ID,
  TEST_TEAM_ID,
  type TestCertificates,
  unconfigureAppleWallet,
} from '#tests/apple-wallet'
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
  toResponse,
} from '#tests/factories'

let certs: TestCertificates
let apns: Awaited<ReturnType<typeof startFakeApns>>

beforeAll(async () => {
  certs = makeTestCertificates()
  apns = await startFakeApns(certs)
  configureAppleWallet(certs, apns.url)
})

afterAll(async () => {
  unconfigureAppleWallet()
  await apns.close()
  removeTestCertificates(certs)
})

async function agency() {
  const { organization } = await makeBrandedOrganization()
  const owner = await makeUser(organization.id, { firstName: 'Grace', lastName: 'Hopper' })
  const card = await makeCard(organization.id, owner.id, {
    firstName: 'Grace',
    lastName: 'Hopper',
    jobTitle: 'Rear Admiral',
    company: 'Navy',
  })
  const [slug] = await getDb()
    .select({ slug: cardSlugs.slug })
    .from(cardSlugs)
    .where(eq(cardSlugs.cardId, card.id))
  return {
    organization,
    owner,
    card,
    slug: slug?.slug ?? '',
    host: `${organization.slug}.localhost`,
    cookie: await sessionCookieFor(organization.id, owner.id),
  }
}

const getPass = (host: string, ref: string, cookie?: string) =>
  settle(() =>
    passLoader({
      request: requestFor(host, `/card/${ref}/pass.pkpass`, {
        headers: cookie ? { Cookie: cookie } : {},
      }),
      context: contextFor(host),
      params: { ref },
    }),
  )

type PassJson = {
  voided?: boolean
  passTypeIdentifier: string
  teamIdentifier: string
  serialNumber: string
  authenticationToken: string
  webServiceURL: string
  organizationName: string
  backgroundColor: string
  generic: {
    primaryFields: { key?: string; label?: string; value: string }[]
    secondaryFields: { key: string; value: string }[]
  }
  barcodes?: { format: string; message: string }[]
}

async function passOf(response: Response) {
  const zip = readZip(Buffer.from(await response.arrayBuffer()))
  const json = JSON.parse((zip.get('pass.json') as Buffer).toString('utf8')) as PassJson
  return { zip, json }
}

/** Apple's web service as a device calls it: no cookie, no Origin, the pass's token. */
function device(host: string) {
  const call = (
    method: string,
    subpath: string,
    init: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) => {
    const headers: Record<string, string> = { ...init.headers }
    if (init.token) headers.Authorization = `ApplePass ${init.token}`
    if (init.body !== undefined) headers['Content-Type'] = 'application/json'
    const request = requestFor(host, `/wallet/apple/v1/${subpath}`, {
      method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    })
    const args = {
      request,
      context: contextFor(host),
      params: { '*': subpath.split('?')[0] as string },
    }
    return settle(() => (method === 'GET' ? serviceLoader(args) : serviceAction(args)))
  }
  return call
}

describe('the pass', () => {
  test('is a signed zip: every SHA-1 matches the manifest, the signature verifies against the WWDR', async () => {
    const who = await agency()
    const response = await getPass(who.host, who.card.id)
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('application/vnd.apple.pkpass')
    expect(response.headers.get('Last-Modified')).toBeTruthy()
    const { zip, json } = await passOf(response)
    const manifest = JSON.parse((zip.get('manifest.json') as Buffer).toString('utf8')) as Record<
      string,
      string
    >
    const contents = [...zip.keys()].filter(
      (name) => !['manifest.json', 'signature'].includes(name),
    )
    expect(Object.keys(manifest).sort()).toEqual(contents.sort())
    for (const name of contents) {
      expect(manifest[name], name).toBe(
        createHash('sha1')
          .update(zip.get(name) as Buffer)
          .digest('hex'),
      )
    }
    expect(contents).toEqual(expect.arrayContaining(['pass.json', 'icon.png', 'logo.png']))
    // The detached PKCS#7 signature of manifest.json, by the pass certificate, chained to the WWDR.
    writeFileSync(path.join(certs.dir, 'manifest.json'), zip.get('manifest.json') as Buffer)
    writeFileSync(path.join(certs.dir, 'signature'), zip.get('signature') as Buffer)
    const verified = execFileSync(
      'openssl',
      [
        'smime',
        '-verify',
        '-binary',
        '-inform',
        'DER',
        '-in',
        'signature',
        '-content',
        'manifest.json',
        '-CAfile',
        'wwdr.pem',
        '-purpose',
        'any',
        '-out',
        '/dev/null',
      ],
      { cwd: certs.dir, stdio: 'pipe' },
    )
    expect(verified).toBeDefined()
    // A manifest changed after signing no longer verifies.
    writeFileSync(path.join(certs.dir, 'manifest.json'), '{}')
    expect(() =>
      execFileSync(
        'openssl',
        [
          'smime',
          '-verify',
          '-binary',
          '-inform',
          'DER',
          '-in',
          'signature',
          '-content',
          'manifest.json',
          '-CAfile',
          'wwdr.pem',
          '-purpose',
          'any',
          '-out',
          '/dev/null',
        ],
        { cwd: certs.dir, stdio: 'pipe' },
      ),
    ).toThrow()
    expect(json).toMatchObject({
      passTypeIdentifier: TEST_PASS_TYPE_ID,
      teamIdentifier: TEST_TEAM_ID,
      organizationName: who.organization.name,
      authenticationToken: passAuthenticationToken(who.organization.id, json.serialNumber),
      generic: {
        primaryFields: [{ value: 'Grace Hopper' }],
        secondaryFields: [
          { key: 'title', value: 'Rear Admiral' },
          { key: 'company', value: 'Navy' },
        ],
      },
    })
    // The agency's primary colour, as Wallet writes colours.
    expect(json.backgroundColor).toMatch(/^rgb\(\d+, \d+, \d+\)$/)
    const [barcode] = json.barcodes ?? []
    expect(barcode?.format).toBe('PKBarcodeFormatQR')
    const origin = new URL(json.webServiceURL).origin
    expect(json.webServiceURL).toBe(`${origin}/wallet/apple`)
    expect(new URL(origin).hostname).toBe(who.host)
    expect(barcode?.message).toBe(`${origin}/c/${who.slug}?s=w`)
    expect(sourceOfUrl(barcode?.message ?? '')).toBe('wallet')
  })

  test('answers 404 without configuration, and the feature says it is off', async () => {
    const who = await agency()
    expect(appleWalletConfigured()).toBe(true)
    unconfigureAppleWallet()
    try {
      expect(appleWalletConfigured()).toBe(false)
      expect((await getPass(who.host, who.card.id)).status).toBe(404)
      expect((await device(who.host)('GET', 'devices/abc/registrations/x')).status).toBe(404)
    } finally {
      configureAppleWallet(certs, apns.url)
    }
  })

  test('a private card gives a stranger nothing; its owner still gets the pass', async () => {
    const who = await agency()
    await withTenant(who.organization.id, (tx) =>
      setUserPreference(tx, who.organization.id, who.owner.id, 'privacy', {
        visibility: 'private',
        showEmail: false,
        showPhone: false,
      }),
    )
    const stranger = await makeUser(who.organization.id)
    const strangerCookie = await sessionCookieFor(who.organization.id, stranger.id)
    expect((await getPass(who.host, who.card.id)).status).toBe(404)
    expect((await getPass(who.host, who.card.id, strangerCookie)).status).toBe(404)
    expect((await getPass(who.host, who.card.id, who.cookie)).status).toBe(200)
  })

  test("no tenant reaches another's card or pass", async () => {
    const who = await agency()
    const other = await makeOrganization()
    const otherHost = `${other.slug}.localhost`
    expect((await getPass(otherHost, who.card.id)).status).toBe(404)
    const { json } = await passOf(await getPass(who.host, who.card.id))
    const call = device(otherHost)
    // The right serial and token, on another tenant's host: unknown there.
    const token = json.authenticationToken
    const serial = json.serialNumber
    expect((await call('GET', `passes/${TEST_PASS_TYPE_ID}/${serial}`, { token })).status).toBe(401)
    expect(
      (
        await call('POST', `devices/dev-x/registrations/${TEST_PASS_TYPE_ID}/${serial}`, {
          token,
          body: { pushToken: 'abcdef' },
        })
      ).status,
    ).toBe(401)
  })
})

describe("Apple's web service, with a fake device and a fake APNs", () => {
  test('register, list, fetch with 304, log; an edit pushes and the next pass differs', async () => {
    const who = await agency()
    const { json } = await passOf(await getPass(who.host, who.card.id))
    const serial = json.serialNumber
    const token = json.authenticationToken
    const call = device(who.host)
    const registration = `devices/iphone-1/registrations/${TEST_PASS_TYPE_ID}/${serial}`
    const pushToken = 'a1b2c3d4e5f6'

    // Without the pass's token, or with another's: refused, and nothing registered.
    expect((await call('POST', registration, { body: { pushToken } })).status).toBe(401)
    expect(
      (await call('POST', registration, { token: `${token.slice(0, -2)}xx`, body: { pushToken } }))
        .status,
    ).toBe(401)
    expect((await call('POST', registration, { token, body: { nope: 1 } })).status).toBe(400)
    expect((await call('POST', registration, { token, body: { pushToken } })).status).toBe(201)
    expect((await call('POST', registration, { token, body: { pushToken } })).status).toBe(200)

    const serials = `devices/iphone-1/registrations/${TEST_PASS_TYPE_ID}`
    const listed = await call('GET', serials)
    expect(listed.status).toBe(200)
    const first = (await listed.json()) as { serialNumbers: string[]; lastUpdated: string }
    expect(first.serialNumbers).toEqual([serial])
    expect((await call('GET', `${serials}?passesUpdatedSince=${first.lastUpdated}`)).status).toBe(
      204,
    )
    // Another device has nothing.
    expect((await call('GET', `devices/ipad-9/registrations/${TEST_PASS_TYPE_ID}`)).status).toBe(
      204,
    )

    const passPath = `passes/${TEST_PASS_TYPE_ID}/${serial}`
    expect((await call('GET', passPath)).status).toBe(401)
    const latest = await call('GET', passPath, { token })
    expect(latest.status).toBe(200)
    const lastModified = latest.headers.get('Last-Modified') as string
    expect(
      (await call('GET', passPath, { token, headers: { 'If-Modified-Since': lastModified } }))
        .status,
    ).toBe(304)

    const quiet = vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(
      (await call('POST', 'log', { body: { logs: ['Web service error for pass: nothing'] } }))
        .status,
    ).toBe(200)
    quiet.mockRestore()

    // A change the pass does not show (the bio) pushes nothing.
    const before = apns.pushes.length
    await editCard(who, { bio: 'Compilers.' })
    expect(apns.pushes.length).toBe(before)

    // The owner edits the card in the editor: the job pushes to the registered device.
    await editCard(who, { jobTitle: 'Commodore' })
    const pushed = apns.pushes.slice(before)
    expect(pushed).toEqual([
      {
        token: pushToken,
        topic: TEST_PASS_TYPE_ID,
        body: '{}',
        clientSubject: `Pass Type ID: ${TEST_PASS_TYPE_ID}`,
      },
    ])

    // The device asks what changed since its tag, and fetches the pass it names.
    const changed = await call('GET', `${serials}?passesUpdatedSince=${first.lastUpdated}`)
    expect(changed.status).toBe(200)
    const second = (await changed.json()) as { serialNumbers: string[]; lastUpdated: string }
    expect(second.serialNumbers).toEqual([serial])
    expect(Number(second.lastUpdated)).toBeGreaterThan(Number(first.lastUpdated))
    const next = await call('GET', passPath, {
      token,
      headers: { 'If-Modified-Since': lastModified },
    })
    expect(next.status).toBe(200)
    expect(Date.parse(next.headers.get('Last-Modified') as string)).toBeGreaterThan(
      Date.parse(lastModified),
    )
    const nextJson = (await passOf(next)).json
    expect(nextJson.serialNumber).toBe(serial)
    expect(nextJson.generic.secondaryFields).toContainEqual({
      key: 'title',
      label: 'Title',
      value: 'Commodore',
    })

    // Unregistered: the next edit reaches no device.
    expect((await call('DELETE', registration, { token })).status).toBe(200)
    const afterUnregister = apns.pushes.length
    await editCard(who, { jobTitle: 'Admiral' })
    expect(apns.pushes.length).toBe(afterUnregister)
  })

  test('a token APNs calls gone is forgotten', async () => {
    const who = await agency()
    const { json } = await passOf(await getPass(who.host, who.card.id))
    const call = device(who.host)
    const registration = `devices/iphone-2/registrations/${TEST_PASS_TYPE_ID}/${json.serialNumber}`
    apns.gone.add('deadbeef')
    expect(
      (
        await call('POST', registration, {
          token: json.authenticationToken,
          body: { pushToken: 'deadbeef' },
        })
      ).status,
    ).toBe(201)
    await editCard(who, { company: 'US Navy' })
    const left = await getDb()
      .select()
      .from(walletRegistrations)
      .where(
        and(
          eq(walletRegistrations.organizationId, who.organization.id),
          eq(walletRegistrations.pushToken, 'deadbeef'),
        ),
      )
    expect(left).toEqual([])
  })

  test("the agency's new colours reach its passes: a push, and the next pass wears them", async () => {
    const who = await agency()
    const { json } = await passOf(await getPass(who.host, who.card.id))
    const call = device(who.host)
    const token = json.authenticationToken
    const registration = `devices/iphone-3/registrations/${TEST_PASS_TYPE_ID}/${json.serialNumber}`
    expect(
      (await call('POST', registration, { token, body: { pushToken: 'c0ffee' } })).status,
    ).toBe(201)
    const before = apns.pushes.length
    await withTenant(who.organization.id, (tx) =>
      updateOrganizationBranding(tx, who.organization.id, {
        name: who.organization.name,
        primaryColor: '#0a7d38',
        secondaryColor: '#123456',
        whiteLabelActive: true,
      }),
    )
    // What the Branding screen does after saving (other processes hear it from the database).
    invalidateTenant(who.organization.id)
    await runJobsNow()
    expect(apns.pushes.slice(before).map((push) => push.token)).toEqual(['c0ffee'])
    const next = await call('GET', `passes/${TEST_PASS_TYPE_ID}/${json.serialNumber}`, { token })
    expect((await passOf(next)).json.backgroundColor).toBe('rgb(10, 125, 56)')
  })

  test('a card made private: its devices are pushed a voided pass with nothing of the card', async () => {
    const who = await agency()
    const { json } = await passOf(await getPass(who.host, who.card.id))
    const call = device(who.host)
    const token = json.authenticationToken
    const passPath = `passes/${TEST_PASS_TYPE_ID}/${json.serialNumber}`
    const registration = `devices/iphone-4/registrations/${TEST_PASS_TYPE_ID}/${json.serialNumber}`
    expect(
      (await call('POST', registration, { token, body: { pushToken: 'beef01' } })).status,
    ).toBe(201)
    const before = apns.pushes.length
    await withTenant(who.organization.id, (tx) =>
      setUserPreference(tx, who.organization.id, who.owner.id, 'privacy', {
        visibility: 'private',
        showEmail: false,
        showPhone: false,
      }),
    )
    await runJobsNow()
    expect(apns.pushes.slice(before).map((push) => push.token)).toEqual(['beef01'])
    const voided = await call('GET', passPath, { token })
    expect(voided.status).toBe(200)
    const { zip, json: voidedJson } = await passOf(voided)
    expect(voidedJson).toMatchObject({ voided: true, serialNumber: json.serialNumber })
    expect(voidedJson.barcodes).toBeUndefined()
    const everything = [...zip.values()].map((file) => file.toString('latin1')).join('\n')
    for (const mark of ['Grace', 'Hopper', 'Rear Admiral', 'Navy', who.slug]) {
      expect(everything).not.toContain(mark)
    }
    expect(voided.headers.get('Content-Disposition')).toContain('card.pkpass')
    // Public again: the next version carries the card once more.
    await withTenant(who.organization.id, (tx) =>
      setUserPreference(tx, who.organization.id, who.owner.id, 'privacy', {
        visibility: 'public',
        showEmail: false,
        showPhone: false,
      }),
    )
    await runJobsNow()
    expect(apns.pushes.slice(before).length).toBe(2)
    const back = (await passOf(await call('GET', passPath, { token }))).json
    expect(back.generic.primaryFields).toEqual([
      { key: 'name', label: 'Name', value: 'Grace Hopper' },
    ])
  })

  test("a view from the pass's QR code counts under the wallet", async () => {
    const who = await agency()
    const { json } = await passOf(await getPass(who.host, who.card.id))
    const scanned = new URL(json.barcodes?.[0]?.message ?? '')
    const response = toResponse(
      await shortLinkLoader({
        request: requestFor(who.host, `${scanned.pathname}${scanned.search}`, {
          headers: { 'User-Agent': 'Mozilla/5.0 (iPhone) Safari/604.1' },
        }),
        context: contextFor(who.host),
        params: { slug: who.slug },
      }),
    )
    expect(response.status).toBe(200)
    await flushCardViews()
    const views = await withTenant(who.organization.id, (tx) =>
      tx
        .select({ source: cardViews.source })
        .from(cardViews)
        .where(eq(cardViews.cardId, who.card.id)),
    )
    expect(views).toEqual([{ source: 'wallet' }])
  })

  test('device logs: written up to a limit per address, then refused', async () => {
    const who = await agency()
    const host = who.host
    const post = (ip: string) =>
      settle(() =>
        serviceAction({
          request: requestFor(host, '/wallet/apple/v1/log', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ logs: ['Request to register device failed'] }),
          }),
          context: contextFor(host, ip),
          params: { '*': 'log' },
        }),
      )
    const logged = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      for (let i = 0; i < 60; i += 1) expect((await post('198.51.100.60')).status).toBe(200)
      const refused = await post('198.51.100.60')
      expect(refused.status).toBe(429)
      expect(await refused.text()).toMatch(/try again/i)
      expect((await post('198.51.100.61')).status).toBe(200)
      expect(logged).toHaveBeenCalledTimes(61)
      expect(logged).toHaveBeenCalledWith(
        `apple wallet device log {"tenant":"${who.organization.slug}","lines":["Request to register device failed"]}`,
      )
    } finally {
      logged.mockRestore()
    }
  })

  test('device logs are data: one record per request, line breaks escaped, each line capped', async () => {
    // Issue 39 point 3: a line with CR/LF once became log lines of the sender's choosing.
    const who = await agency()
    const forged = 'nothing\r\n{"level":50,"msg":"admin password reset"}\nINFO forged line'
    const long = 'x'.repeat(1_900)
    const logged = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const response = await settle(() =>
        serviceAction({
          request: requestFor(who.host, '/wallet/apple/v1/log', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ logs: [forged, long, 'line\u2028separator'] }),
          }),
          context: contextFor(who.host, '198.51.100.62'),
          params: { '*': 'log' },
        }),
      )
      expect(response.status).toBe(200)
      expect(logged).toHaveBeenCalledTimes(1)
      const record = String(logged.mock.calls[0]?.[0])
      // One line, whatever the device sent.
      expect(record).not.toMatch(/[\r\n\u2028\u2029]/)
      const prefix = 'apple wallet device log '
      expect(record.startsWith(prefix)).toBe(true)
      const data = JSON.parse(record.slice(prefix.length)) as { tenant: string; lines: string[] }
      expect(data.tenant).toBe(who.organization.slug)
      // The lines as they were sent, as data; the long one cut to the cap with a mark.
      expect(data.lines[0]).toBe(forged)
      expect(data.lines[1]).toBe(
        `${'x'.repeat(MAX_LOGGED_VALUE)}…[${1_900 - MAX_LOGGED_VALUE} more]`,
      )
      expect(data.lines[2]).toBe('line\u2028separator')
      expect(record.length).toBeLessThan(3 * MAX_LOGGED_VALUE + 200)
    } finally {
      logged.mockRestore()
    }
  })

  test('a card nobody put in a wallet queues no refresh when edited', async () => {
    const bare = await agency()
    await editCard(bare, { jobTitle: 'Nobody pushed' })
    const queued = await getDb()
      .select()
      .from(jobs)
      .where(and(eq(jobs.name, 'wallet.refresh'), eq(jobs.organizationId, bare.organization.id)))
    expect(queued).toEqual([])
  })
})

async function editCard(
  who: Awaited<ReturnType<typeof agency>>,
  changes: Partial<Record<'jobTitle' | 'company' | 'bio', string>>,
) {
  const fields = {
    intent: 'details',
    title: 'Work',
    firstName: 'Grace',
    lastName: 'Hopper',
    jobTitle: 'Rear Admiral',
    company: 'Navy',
    ...changes,
  }
  const response = await settle(() =>
    editAction({
      request: formRequest(
        who.host,
        `/dashboard/end-user/digital-cards/edit/${who.card.id}`,
        fields,
        who.cookie,
      ),
      context: contextFor(who.host),
      params: { cardId: who.card.id },
    }),
  )
  expect(response.status).toBe(302)
  await runJobsNow()
}
