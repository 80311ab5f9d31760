// "Download my data" (issue 31 point 4, ADR 052): the request queues one job, the job builds a
// zip of the person's own rows (and nobody else's), the zip downloads for its owner only, is
// emailed about without a usable link, expires, and stays out of backups.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import { and, eq } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import { beforeAll, describe, expect, test } from 'vitest'
import { type DatabaseLocation, takeBackup } from '#app/backups/backups.server'
import { MANIFEST_PREFIX } from '#app/backups/manifest.server'
import { buildDataExportJob, buildDataExportZip } from '#app/data-export/data-export.server'
import {
  DATA_EXPORT_ALREADY_PENDING,
  DATA_EXPORT_FAILED,
  DATA_EXPORT_QUEUED,
  type DataExportView,
} from '#app/data-export/data-export-rules'
import { runJobsNow } from '#app/job-handlers.server'
import { sweepMedia } from '#app/media/media-sweep.server'
import { recordAudit } from '#app/models/audit.server'
import { askToFollow, confirmFollower } from '#app/models/card-followers.server'
import { recordCardView } from '#app/models/card-views.server'
import { addContact } from '#app/models/contacts.server'
import { setDataExportProgress, startDataExport } from '#app/models/data-exports.server'
import { storeMedia } from '#app/models/media.server'
import { updateProfile } from '#app/models/users.server'
import * as status from '#app/routes/account.data-export'
import * as download from '#app/routes/account.data-export[.]zip'
import { freshTenantOf } from '#app/tenancy/tenant.server'
import type { Role } from '#app/validation/roles'
import { getDatabaseHandle, getDb, withTenant } from '#drizzle/db.server'
import { auditEvents, dataExports, emailOutbox, jobs } from '#drizzle/schema'
import {
  contextFor,
  formRequest,
  getPlatformOrganization,
  makeCard,
  makeOrganization,
  makePng,
  makeUser,
  requestFor,
  sessionCookieFor,
  settle,
  toResponse,
  uniqueSuffix,
} from '#tests/factories'
import { asDelivered } from '#tests/inbox'
import { readWithVcf } from '#tests/vcard-readers'

const passwordHash = 'not-a-password'

/** A person with a card (photo, logo, background), a contact, a lead, views and activity. */
async function person(organizationId: string, name: { first: string; last: string }) {
  const user = await makeUser(organizationId, {
    firstName: name.first,
    lastName: name.last,
    passwordHash,
  })
  const suffix = uniqueSuffix()
  const png = async (color: string, purpose: string) =>
    withTenant(organizationId, async (tx) =>
      storeMedia(tx, organizationId, {
        bytes: await makePng(color),
        contentType: 'image/png',
        width: 40,
        height: 20,
        purpose,
      }),
    )
  const photo = await png(`#${suffix.slice(0, 6)}`, 'card-profile-picture')
  const background = await png(`#${suffix.slice(2, 8)}`, 'card-background')
  const logo = await png(`#${suffix.slice(1, 7)}`, 'profile-logo')
  const cover = await png(`#${suffix.slice(5, 8)}${suffix.slice(0, 3)}`, 'card-cover')
  await withTenant(organizationId, (tx) =>
    updateProfile(tx, organizationId, user.id, { logoMediaId: logo.id }),
  )
  const card = await makeCard(organizationId, user.id, {
    firstName: name.first,
    lastName: name.last,
    company: `${name.last} Company`,
    profilePictureMediaId: photo.id,
    backgroundKind: 'image',
    backgroundMediaId: background.id,
    // Issue 41 point 6 (ADR 083): the cover and the video go with the card.
    coverMediaId: cover.id,
    videoProvider: 'vimeo',
    videoId: '76979871',
  })
  await withTenant(organizationId, async (tx) => {
    await addContact(tx, organizationId, user.id, {
      fullName: `Contact of ${name.first}`,
      email: `contact-${suffix}@example.test`,
    })
    await addContact(tx, organizationId, user.id, {
      fullName: `Lead of ${name.first}`,
      email: `lead-${suffix}@example.test`,
      source: 'lead',
      sourceCardId: card.id,
    })
    // A confirmed follower and a pending one (ADR 102): the export counts the first only.
    for (const [who, confirm] of [
      ['fan', true],
      ['maybe', false],
    ] as const) {
      const tokenHash = `${who}-${suffix}`
      await askToFollow(tx, organizationId, card.id, `${who}-${suffix}@example.test`, tokenHash)
      if (confirm) await confirmFollower(tx, organizationId, tokenHash)
    }
    await recordCardView(tx, organizationId, card.id, `visitor-qr-${suffix}`, 'mobile', 'qr')
    await recordCardView(tx, organizationId, card.id, `visitor-nfc-${suffix}`, 'mobile', 'nfc')
    await recordCardView(tx, organizationId, card.id, `visitor-qr2-${suffix}`, 'desktop', 'qr')
    await recordAudit(tx, organizationId, {
      actorUserId: user.id,
      action: 'card.updated',
      entityType: 'card',
      entityId: card.id,
      metadata: { by: name.first },
    })
  })
  return {
    user,
    card,
    images: { photo, background, logo, cover },
    cookie: await sessionCookieFor(organizationId, user.id),
  }
}

let organization: Awaited<ReturnType<typeof makeOrganization>>
let host: string
let owner: Awaited<ReturnType<typeof person>>
let colleague: Awaited<ReturnType<typeof person>>
let otherTenant: Awaited<ReturnType<typeof makeOrganization>>
let otherHost: string
let stranger: Awaited<ReturnType<typeof person>>

beforeAll(async () => {
  organization = await makeOrganization({ name: 'Export Co' })
  host = `${organization.slug}.localhost`
  owner = await person(organization.id, { first: 'Olive', last: 'Ownerly' })
  colleague = await person(organization.id, { first: 'Colin', last: 'Colleague' })
  otherTenant = await makeOrganization({ name: 'Elsewhere' })
  otherHost = `${otherTenant.slug}.localhost`
  stranger = await person(otherTenant.id, { first: 'Stan', last: 'Stranger' })
})

/** The panel's status; the queue is not run (settle would run it). */
const statusOf = async (cookie: string, on = host) =>
  toResponse(
    await status.loader({
      request: requestFor(on, '/account/data-export', { headers: { Cookie: cookie } }),
      context: contextFor(on),
      params: {},
    }),
  )

const viewOf = async (cookie: string, on = host) =>
  ((await (await statusOf(cookie, on)).json()) as { export: DataExportView }).export

/** Presses the button; the queue is not run (settle would run it). */
const press = async (cookie: string, on = host) => {
  try {
    const result = await status.action({
      request: formRequest(
        on,
        '/account/data-export',
        { intent: 'request', redirectTo: '/profile/end-user?tab=security' },
        cookie,
      ),
      context: contextFor(on),
      params: {},
    })
    return toResponse(result)
  } catch (thrown) {
    return toResponse(thrown)
  }
}

const downloadAs = (cookie: string | undefined, exportId: string, on = host) =>
  settle(async () =>
    download.action({
      request: formRequest(on, '/account/data-export.zip', { exportId }, cookie),
      context: contextFor(on),
      params: {},
    }),
  )

const exportJobs = () => getDb().select().from(jobs).where(eq(jobs.name, 'data-export.build'))

describe('Download my data', () => {
  let exportId = ''
  let zip: Record<string, Uint8Array> = {}

  test('the button queues one job; a second press while it is pending says so and queues nothing', async () => {
    expect(await viewOf(owner.cookie)).toEqual({ state: 'none' })
    const first = await press(owner.cookie)
    expect(first).toHaveRedirect('/profile/end-user?tab=security')
    await expect(first).toSendToast({ type: 'success', title: DATA_EXPORT_QUEUED })
    const queued = await viewOf(owner.cookie)
    expect(queued).toMatchObject({ state: 'queued', progress: 0 })
    exportId = queued.state === 'none' ? '' : queued.id

    const second = await press(owner.cookie)
    expect(second.status).toBe(409)
    expect(((await second.json()) as { error: string }).error).toBe(DATA_EXPORT_ALREADY_PENDING)
    const mine = (await exportJobs()).filter((job) => job.payload.exportId === exportId)
    expect(mine).toHaveLength(1)
    expect(await exportJobs()).toHaveLength(1)
    // Nobody else's export is touched or shown.
    expect(await viewOf(colleague.cookie)).toEqual({ state: 'none' })
  })

  test('while it runs the panel reads its percentage; the build reports progress as it goes', async () => {
    await withTenant(organization.id, async (tx) => {
      await startDataExport(tx, organization.id, exportId)
      await setDataExportProgress(tx, organization.id, exportId, 40)
    })
    expect(await viewOf(owner.cookie)).toMatchObject({ state: 'running', progress: 40 })
    const tenant = await freshTenantOf(organization.id)
    if (!tenant) throw new Error('no tenant')
    const seen: number[] = []
    await buildDataExportZip(tenant, owner.user.id, async (percent) => {
      seen.push(percent)
    })
    expect(seen.length).toBeGreaterThan(3)
    expect(seen).toEqual([...seen].sort((x, y) => x - y))
    expect(seen.at(-1)).toBeGreaterThanOrEqual(95)
  })

  test('the job builds the zip, marks it ready for 7 days and emails the owner a link to the profile', async () => {
    await runJobsNow()
    const ready = await viewOf(owner.cookie)
    expect(ready).toMatchObject({ state: 'ready', progress: 100, id: exportId })
    if (ready.state === 'none') throw new Error('no export')
    const days = (Date.parse(ready.expiresAt ?? '') - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(6.9)
    expect(days).toBeLessThanOrEqual(7)

    const [email] = asDelivered(
      await getDb()
        .select()
        .from(emailOutbox)
        .where(
          and(
            eq(emailOutbox.organizationId, organization.id),
            eq(emailOutbox.toAddress, owner.user.email),
          ),
        ),
    )
    expect(email?.subject).toBe('Your Export Co data is ready')
    expect(email?.fromName).toBe('Export Co')
    // The link opens the profile: it carries no token and the export's id is not in it.
    expect(email?.text).toMatch(
      new RegExp(`Download my data: http://${host}(:\\d+)?/profile/end-user\\?tab=security\n`),
    )
    expect(email?.text).not.toContain(exportId)
    expect(email?.secrets).toEqual([])
  })

  test('the owner downloads it: data.json holds their rows and nobody else’s, a vCard per card, their images', async () => {
    const response = await downloadAs(owner.cookie, exportId)
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('application/zip')
    expect(response.headers.get('Content-Disposition')).toMatch(
      /^attachment; filename="Export-Co-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    )
    expect(response.headers.get('Cache-Control')).toBe('private, no-store')
    const bytes = new Uint8Array(await response.arrayBuffer())
    expect(String(bytes.length)).toBe(response.headers.get('Content-Length'))
    zip = unzipSync(bytes)
    expect(Object.keys(zip)).toEqual(expect.arrayContaining(['data.json', 'README.txt']))

    const dataFile = zip['data.json']
    if (!dataFile) throw new Error('no data.json')
    const text = strFromU8(dataFile)
    const data = JSON.parse(text)
    expect(data.profile).toMatchObject({
      id: owner.user.id,
      email: owner.user.email,
      firstName: 'Olive',
      lastName: 'Ownerly',
    })
    expect(data.cards).toHaveLength(1)
    expect(data.cards[0]).toMatchObject({
      id: owner.card.id,
      firstName: 'Olive',
      company: 'Ownerly Company',
      followers: 1,
    })
    // Who follows is not the owner's to see: no follower's address is in the export.
    expect(JSON.stringify(data)).not.toMatch(/(fan|maybe)-[\w-]+@example\.test/)
    expect(data.contacts.map((c: { fullName: string }) => c.fullName)).toEqual(['Contact of Olive'])
    expect(data.leads.map((c: { fullName: string }) => c.fullName)).toEqual(['Lead of Olive'])
    expect(data.views).toEqual(
      expect.arrayContaining([
        { cardId: owner.card.id, source: 'qr', views: 2 },
        { cardId: owner.card.id, source: 'nfc', views: 1 },
      ]),
    )
    const actions = data.activity.map((event: { action: string }) => event.action)
    expect(actions).toEqual(expect.arrayContaining(['card.updated', 'data_export.requested']))

    // Nothing of the colleague (same tenant) or the stranger (another tenant).
    for (const other of [colleague, stranger]) {
      for (const marker of [
        other.user.id,
        other.user.email,
        other.card.id,
        other.user.firstName,
        other.user.lastName,
        other.images.photo.hash,
      ]) {
        expect(text, marker).not.toContain(marker)
      }
    }
    // No secret at rest leaves in it.
    expect(text).not.toContain(passwordHash)
    expect(text).not.toMatch(/passwordHash|totpKeySealed|recoveryCode|dataTokenHash/)

    // A contact file per card that parses back.
    const vcards = Object.keys(zip).filter((name) => name.endsWith('.vcf'))
    expect(vcards).toEqual(['cards/Olive_Ownerly.vcf'])
    const vcard = readWithVcf(strFromU8(zip['cards/Olive_Ownerly.vcf'] as Uint8Array))
    expect(vcard.fn).toBe('Olive Ownerly')
    expect(vcard.org).toBe('Ownerly Company')
    expect(vcard.photo).not.toBe('')

    // The images the person owns, byte for byte, and nobody else's.
    const images = Object.keys(zip).filter((name) => name.startsWith('images/'))
    expect(images.sort()).toEqual(
      [owner.images.photo, owner.images.background, owner.images.logo, owner.images.cover]
        .map((image) => `images/${image.hash}.${image.ext}`)
        .sort(),
    )
    expect(data.profile.logo).toBe(`images/${owner.images.logo.hash}.png`)
    expect(data.cards[0].background.image).toBe(`images/${owner.images.background.hash}.png`)
    expect(data.cards[0].cover).toBe(`images/${owner.images.cover.hash}.png`)
    expect(data.cards[0].video).toBe('https://vimeo.com/76979871')
  })

  test('each download is audited', async () => {
    const events = await getDb()
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, organization.id),
          eq(auditEvents.action, 'data_export.downloaded'),
        ),
      )
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ actorUserId: owner.user.id, entityId: exportId })
  })

  test('anyone but the owner gets 404: a colleague, another tenant, a made-up id; signed out signs in', async () => {
    expect((await downloadAs(colleague.cookie, exportId)).status).toBe(404)
    // Another tenant's person on their own host, naming the export's id.
    expect((await downloadAs(stranger.cookie, exportId, otherHost)).status).toBe(404)
    // The owner's session on another tenant's host is no session there.
    expect(await downloadAs(owner.cookie, exportId, otherHost)).toHaveRedirect(
      /^\/auth\/login\?redirectTo=/,
    )
    expect((await downloadAs(owner.cookie, '00000000-0000-4000-8000-000000000000')).status).toBe(
      404,
    )
    expect((await downloadAs(owner.cookie, 'not-an-id')).status).toBe(404)
    expect(await downloadAs(undefined, exportId)).toHaveRedirect(/^\/auth\/login\?redirectTo=/)
    const audited = await getDb()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'data_export.downloaded'))
    expect(audited).toHaveLength(1)
  })

  test('every role downloads its own data: super admin on the platform, agency staff, team member, end user', async () => {
    const platform = await getPlatformOrganization()
    const accounts: { organizationId: string; host: string; role: Role }[] = [
      { organizationId: platform.id, host: 'localhost', role: 'super_admin' },
      { organizationId: platform.id, host: 'localhost', role: 'super_admin_team' },
      { organizationId: organization.id, host, role: 'agency_admin' },
      { organizationId: organization.id, host, role: 'agency_member' },
      { organizationId: organization.id, host, role: 'team_admin' },
      { organizationId: organization.id, host, role: 'end_user' },
    ]
    for (const account of accounts) {
      const user = await makeUser(account.organizationId, {
        role: account.role,
        firstName: 'Rolf',
        lastName: account.role,
        passwordHash,
      })
      await makeCard(account.organizationId, user.id, { firstName: 'Rolf', lastName: account.role })
      const cookie = await sessionCookieFor(account.organizationId, user.id)
      const asked = await press(cookie, account.host)
      expect(asked.status, account.role).toBe(302)
      await runJobsNow()
      const ready = await viewOf(cookie, account.host)
      if (ready.state !== 'ready') throw new Error(`${account.role}: ${ready.state}`)
      const response = await downloadAs(cookie, ready.id, account.host)
      expect(response.status, account.role).toBe(200)
      const files = unzipSync(new Uint8Array(await response.arrayBuffer()))
      const data = JSON.parse(strFromU8(files['data.json'] as Uint8Array))
      expect(data.profile, account.role).toMatchObject({ id: user.id, role: account.role })
      expect(Object.keys(files), account.role).toContain(`cards/Rolf_${account.role}.vcf`)
    }
  })

  test('a few exports an hour: the fourth request is refused with a wait, nothing queued', async () => {
    const user = await makeUser(organization.id, { passwordHash })
    const cookie = await sessionCookieFor(organization.id, user.id)
    for (let n = 1; n <= 3; n++) {
      expect((await press(cookie)).status, `request ${n}`).toBe(302)
      await runJobsNow()
    }
    const jobsBefore = (await exportJobs()).length
    const refused = await press(cookie)
    expect(refused.status).toBe(429)
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^You have asked for your data several times in the last hour\. Please wait \d+ minutes? and try again\.$/,
    )
    expect(await exportJobs()).toHaveLength(jobsBefore)
    expect(await viewOf(cookie)).toMatchObject({ state: 'ready' })
  })

  test('backups leave the exports out: no row, no zip, and the manifest does not count them', async () => {
    const workDir = await mkdtemp(path.join(os.tmpdir(), 'brandcard-export-backup-'))
    try {
      const source: DatabaseLocation =
        process.env.TEST_DB_DRIVER === 'postgres'
          ? { driver: 'postgres', url: process.env.TEST_FILE_DATABASE_URL as string }
          : {
              driver: 'pglite',
              client: (getDatabaseHandle() as unknown as { client: PGlite }).client,
            }
      const taken = await takeBackup({ dir: workDir, retention: 1, database: source })
      const dump = await readFile(taken.file, 'utf8')
      // The table itself is in the backup, its rows are not.
      expect(dump).toContain('CREATE TABLE public.data_exports')
      expect(dump).not.toMatch(/INSERT INTO public\.data_exports/)
      expect(dump).not.toContain("'ready', 100")
      const manifest = JSON.parse(
        dump.slice(dump.lastIndexOf(MANIFEST_PREFIX) + MANIFEST_PREFIX.length),
      )
      expect(manifest.tables['public.data_exports']).toBeUndefined()
      expect(manifest.schema.tables).toContain('public.data_exports')
      // The rest of the person's data is in it.
      expect(dump).toContain(owner.card.id)
    } finally {
      await rm(workDir, { recursive: true, force: true })
    }
  })

  test('after 7 days the hourly sweep deletes it and the download is gone', async () => {
    await sweepMedia(new Date(Date.now() + 6 * 86_400_000))
    expect(await viewOf(owner.cookie)).toMatchObject({ state: 'ready' })
    await sweepMedia(new Date(Date.now() + 7 * 86_400_000 + 60_000))
    expect(await viewOf(owner.cookie)).toEqual({ state: 'none' })
    expect((await downloadAs(owner.cookie, exportId)).status).toBe(404)
    const rows = await getDb().select().from(dataExports).where(eq(dataExports.id, exportId))
    expect(rows).toEqual([])
  })

  test('a failed export says so; pressing again replaces it with a new one', async () => {
    const asked = await press(colleague.cookie)
    expect(asked.status).toBe(302)
    const queued = await viewOf(colleague.cookie)
    if (queued.state === 'none') throw new Error('not queued')
    const [job] = (await exportJobs()).filter((row) => row.payload.exportId === queued.id)
    if (!job) throw new Error('no job')
    // The queue gave up (its last attempt failed): the row shows the failure.
    await buildDataExportJob.onDead?.(job, 'boom')
    expect(await viewOf(colleague.cookie)).toMatchObject({
      state: 'failed',
      error: DATA_EXPORT_FAILED,
    })
    const again = await press(colleague.cookie)
    expect(again.status).toBe(302)
    const retried = await viewOf(colleague.cookie)
    expect(retried).toMatchObject({ state: 'queued' })
    if (retried.state === 'none') throw new Error('not queued')
    expect(retried.id).not.toBe(queued.id)
    const rows = await getDb()
      .select({ id: dataExports.id })
      .from(dataExports)
      .where(eq(dataExports.userId, colleague.user.id))
    expect(rows.map((row) => row.id)).toEqual([retried.id])
    // The job of the failed one finds nothing to do; the new one completes.
    await runJobsNow()
    expect(await viewOf(colleague.cookie)).toMatchObject({ state: 'ready' })
  })
})
