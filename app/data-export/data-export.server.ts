// "Download my data" for every account (issue 31 point 4, ADR 052). Pressing the profile's
// button queues one `data-export.build` job; the job gathers the person's own rows of this
// tenant, zips them with fflate (data.json, a vCard per card, the images they own) and keeps
// the zip in the export's row, under row-level security, for DATA_EXPORT_DAYS. The email that
// says it is ready links to the profile; only the owner's session downloads it.
import type { AppLoadContext } from '@remix-run/node'
import { strToU8, type Zippable, zipSync } from 'fflate'
import type { IntentDone } from '#app/actions/intent-action.server'
import { requireUser } from '#app/auth/guards.server'
import { safeRedirectPath } from '#app/auth/redirect'
import { cardLinkUrl } from '#app/cards/short-link'
import {
  DATA_EXPORT_ALREADY_PENDING,
  DATA_EXPORT_DAYS,
  DATA_EXPORT_FAILED,
  DATA_EXPORT_QUEUED,
  DATA_EXPORT_QUEUED_DESCRIPTION,
  type DataExportView,
} from '#app/data-export/data-export-rules'
import { queueEmailIn } from '#app/email/mailer.server'
import { type JobHandler, PermanentJobError, tenantJobInput } from '#app/jobs/worker.server'
import { findApiSettings } from '#app/models/api-settings.server'
import { listAuditEventsOfActor, recordAudit } from '#app/models/audit.server'
import { countFollowers } from '#app/models/card-followers.server'
import { countViewsPerCardAndSource } from '#app/models/card-views.server'
import { listCardsForOwner } from '#app/models/cards.server'
import { listContacts } from '#app/models/contacts.server'
import {
  type DataExportSummary,
  deleteFinishedDataExports,
  failDataExport,
  findDataExport,
  findDownloadableDataExport,
  findLatestDataExport,
  finishDataExport,
  insertDataExport,
  readDataExportChunk,
  setDataExportProgress,
  startDataExport,
} from '#app/models/data-exports.server'
import { insertJob } from '#app/models/jobs.server'
import { getMediaBytes } from '#app/models/media.server'
import { listTeamsForUser } from '#app/models/teams.server'
import { getUserPreferences } from '#app/models/user-settings.server'
import { contactDetailsOf, findUserById, type User } from '#app/models/users.server'
import { hitOrRefuseIn, limitKey, minutesText } from '#app/rate-limits/rate-limit.server'
import { dataExportReadyEmail } from '#app/services/emails/data-export-ready-email.server'
import {
  buildCardVCard,
  vcardAddressOf,
  vcardFileName,
  vcardPhoto,
} from '#app/services/vcard.server'
import { tenantEmailBranding } from '#app/tenancy/email-branding.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { freshTenantOf, type Tenant } from '#app/tenancy/tenant.server'
import { isRefusal, Refusal } from '#app/utils/action-error'
import { storedVideo, videoPageUrl } from '#app/validation/card-video'
import { contactPerson } from '#app/validation/contact-fields'
import { DataExportDownloadSchema } from '#app/validation/data-export-form'
import { rolePaths } from '#app/validation/roles'
import { type Transaction, withTenant } from '#drizzle/db.server'

const DAY_MS = 24 * 60 * 60_000
/** The download's pieces: each is one short query, so a slow client holds no connection. */
const CHUNK_BYTES = 1024 * 1024

/** Past the hourly limit of requests (LIMITS.dataExport), as a 429 says it. */
export const DATA_EXPORT_LIMITED = (wait: number) =>
  `You have asked for your data several times in the last hour. Please wait ${minutesText(wait)} and try again.`

const expiryFrom = (now: Date) => new Date(now.getTime() + DATA_EXPORT_DAYS * DAY_MS)

function viewOf(row: DataExportSummary | undefined, now: Date): DataExportView {
  if (!row) return { state: 'none' }
  // Expired and not swept yet: as if there were none.
  if (row.expiresAt && row.expiresAt <= now) return { state: 'none' }
  return {
    state: row.state,
    id: row.id,
    progress: row.state === 'ready' ? 100 : row.progress,
    requestedAt: row.createdAt.toISOString(),
    expiresAt: row.state === 'ready' ? (row.expiresAt?.toISOString() ?? null) : null,
    byteSize: row.byteSize,
    error: row.state === 'failed' ? (row.error ?? DATA_EXPORT_FAILED) : null,
  }
}

/** The signed-in person's newest export, as the panel shows it (any role: everyone's own). */
export async function loadDataExportStatus(request: Request, context: AppLoadContext) {
  const { tenant, user } = await requireUser(request, context)
  const row = await withTenant(tenant.id, (tx) => findLatestDataExport(tx, tenant.id, user.id))
  return { export: viewOf(row, new Date()) }
}

/**
 * Queues one export for the person. While one of theirs is queued or running, it says so and
 * queues nothing (the partial unique index holds that for two presses at once too). A new
 * export replaces the person's finished ones: one zip per person at most.
 */
export async function requestDataExport(
  tenant: Tenant,
  user: User,
  redirectTo: string | undefined,
): Promise<IntentDone> {
  await withTenant(tenant.id, async (tx) => {
    const latest = await findLatestDataExport(tx, tenant.id, user.id)
    if (latest && (latest.state === 'queued' || latest.state === 'running')) {
      throw new Refusal('conflict', DATA_EXPORT_ALREADY_PENDING)
    }
    // Counted only when one is queued: the refusals above and this one roll back with it.
    await hitOrRefuseIn(
      tx,
      'dataExport',
      limitKey('dataExport', tenant.id, user.id),
      DATA_EXPORT_LIMITED,
    )
    await deleteFinishedDataExports(tx, tenant.id, user.id)
    const created = await insertDataExport(tx, tenant.id, user.id)
    if (!created) throw new Refusal('conflict', DATA_EXPORT_ALREADY_PENDING)
    await insertJob(tx, {
      name: 'data-export.build',
      organizationId: tenant.id,
      payload: { exportId: created.id },
      idempotencyKey: `data-export.build:${created.id}`,
      maxAttempts: 3,
    })
    await recordAudit(tx, tenant.id, {
      actorUserId: user.id,
      action: 'data_export.requested',
      entityType: 'data_export',
      entityId: created.id,
    })
  })
  return {
    toast: DATA_EXPORT_QUEUED,
    description: DATA_EXPORT_QUEUED_DESCRIPTION,
    redirectTo: safeRedirectPath(redirectTo) ?? `${rolePaths(user.role).profile}?tab=security`,
  }
}

// ---------------------------------------------------------------------------------------------
// The job

type Progress = (percent: number) => Promise<void>

/** A date as JSON keeps it (ISO), null kept. */
const iso = (date: Date | null | undefined) => date?.toISOString() ?? null

/** `images/{hash}.{ext}`: each image once, however many rows use it. */
const imagePath = (image: { hash: string; ext: string }) => `images/${image.hash}.${image.ext}`

/**
 * The zip of one person's data in this tenant: only rows whose owner is the person (the model
 * functions take the organization and the person), never a secret (password hash, two-factor
 * key and codes, CRM key, a lead's link hash).
 */
export async function buildDataExportZip(
  tenant: Tenant,
  userId: string,
  progress: Progress = async () => {},
  now = new Date(),
): Promise<Uint8Array> {
  const organizationId = tenant.id
  const origin = tenantOrigin(tenant)
  const rows = await withTenant(organizationId, async (tx) => {
    const user = await findUserById(tx, organizationId, userId)
    if (!user) return null
    const cards = await listCardsForOwner(tx, organizationId, userId)
    return {
      user,
      preferences: await getUserPreferences(tx, organizationId, userId),
      crm: await findApiSettings(tx, organizationId, userId),
      cards,
      // How many follow each card, as the card list shows: never who (ADR 102).
      followers: await countFollowers(
        tx,
        organizationId,
        cards.map(({ card }) => card.id),
      ),
      contacts: await listContacts(tx, organizationId, userId, {}, 1_000_000),
      views: await countViewsPerCardAndSource(tx, organizationId, userId),
      teams: await listTeamsForUser(tx, organizationId, userId),
      audit: await listAuditEventsOfActor(tx, organizationId, userId),
    }
  })
  if (!rows) throw new PermanentJobError('the account no longer exists')
  await progress(30)

  // The images the person owns: their profile's logo and photo, their cards' logo, photo and
  // background. Read one at a time (each a short transaction).
  const files: Zippable = {}
  const imageIds = [
    rows.user.logoMediaId,
    rows.user.profilePictureMediaId,
    ...rows.cards.flatMap(({ card }) => [
      card.logoMediaId,
      card.profilePictureMediaId,
      card.backgroundMediaId,
      card.coverMediaId,
    ]),
  ].filter((id): id is string => Boolean(id))
  const uniqueIds = [...new Set(imageIds)]
  const images = new Map<string, { path: string; data: Buffer }>()
  for (const [index, mediaId] of uniqueIds.entries()) {
    const image = await withTenant(organizationId, (tx) =>
      getMediaBytes(tx, organizationId, mediaId),
    )
    if (image) {
      const path = imagePath(image)
      images.set(mediaId, { path, data: image.data })
      // Already compressed: stored as they are.
      files[path] = [new Uint8Array(image.data), { level: 0 }]
    }
    await progress(30 + (50 * (index + 1)) / uniqueIds.length)
  }
  const imageOf = (mediaId: string | null) => (mediaId ? (images.get(mediaId)?.path ?? null) : null)

  // One contact file per card, as the card's vCard route writes it, with every field: the
  // owner sees their own card whole.
  const usedNames = new Set<string>()
  const cards = []
  for (const row of rows.cards) {
    const { card, links } = row
    let name = `cards/${vcardFileName(card.firstName, card.lastName)}`
    for (let n = 2; usedNames.has(name); n++) {
      name = `cards/${vcardFileName(card.firstName, card.lastName).replace(/\.vcf$/, `_${n}.vcf`)}`
    }
    usedNames.add(name)
    const cardUrl = cardLinkUrl(origin, row)
    const photo = card.profilePictureMediaId ? images.get(card.profilePictureMediaId) : undefined
    files[name] = strToU8(
      buildCardVCard(card, {
        cardUrl,
        links,
        photoJpeg: await vcardPhoto(photo?.data),
      }),
    )
    cards.push({
      id: card.id,
      title: card.title,
      isDefault: card.isDefault,
      cardType: card.cardType,
      link: cardUrl,
      firstName: card.firstName,
      lastName: card.lastName,
      department: card.department,
      pronouns: card.pronouns,
      company: card.company,
      jobTitle: card.jobTitle,
      email: card.email,
      workEmail: card.workEmail,
      phoneNumber: card.phoneNumber,
      phoneType: card.phoneType,
      phone2: card.phone2,
      phone2Type: card.phone2Type,
      website: card.website,
      bio: card.bio,
      address: vcardAddressOf(card),
      links,
      background: {
        kind: card.backgroundKind,
        value: card.backgroundKind === 'image' ? null : card.backgroundValue,
        image: imageOf(card.backgroundMediaId),
      },
      logo: imageOf(card.logoMediaId),
      profilePicture: imageOf(card.profilePictureMediaId),
      cover: imageOf(card.coverMediaId),
      // The video as its page on the provider's site (ADR 083), or null.
      video: (() => {
        const video = storedVideo(card.videoProvider, card.videoId)
        return video ? videoPageUrl(video) : null
      })(),
      hiddenFromSearchEngines: card.noindex,
      followers: rows.followers.get(card.id) ?? 0,
      vcard: name,
      createdAt: iso(card.createdAt),
      updatedAt: iso(card.updatedAt),
    })
  }
  await progress(85)

  const { user } = rows
  const contactOf = (contact: (typeof rows.contacts)[number]) => ({
    id: contact.id,
    ...contactPerson(contact),
    source: contact.source,
    fromCardId: contact.sourceCardId,
    personal: contact.personal,
    createdAt: iso(contact.createdAt),
  })
  const data = {
    format: 'brandcard-data-export',
    version: 1,
    exportedAt: now.toISOString(),
    site: { name: tenant.name, address: origin },
    profile: {
      id: user.id,
      email: user.email,
      emailConfirmedAt: iso(user.emailConfirmedAt),
      role: user.role,
      status: user.status,
      plan: user.plan,
      ...contactDetailsOf(user),
      staffTitle: user.staffTitle,
      nameLink: user.linkSlug ? `${origin}/card/${user.linkSlug}` : null,
      logo: imageOf(user.logoMediaId),
      profilePicture: imageOf(user.profilePictureMediaId),
      twoFactorAuthentication: Boolean(user.totpKeySealed),
      passwordChangedAt: iso(user.passwordChangedAt),
      lastActiveAt: iso(user.lastActiveAt),
      createdAt: iso(user.createdAt),
      updatedAt: iso(user.updatedAt),
    },
    settings: {
      preferences: rows.preferences,
      // The CRM connection without its key: the key's last four characters only, as the page.
      crm: rows.crm
        ? {
            enabled: rows.crm.enabled,
            locationId: rows.crm.gohighlevelLocationId,
            keyLastFour: rows.crm.gohighlevelApiKeyLast4,
            validatedAt: iso(rows.crm.validatedAt),
          }
        : null,
    },
    teams: rows.teams.map((team) => ({
      id: team.id,
      name: team.name,
      description: team.description,
      role: team.myRole,
      createdAt: iso(team.createdAt),
    })),
    cards,
    views: rows.views.map((row) => ({ cardId: row.cardId, source: row.source, views: row.views })),
    contacts: rows.contacts.filter((contact) => contact.source !== 'lead').map(contactOf),
    // Leads from the person's lead forms, with the consent each gave (ADR 050).
    leads: rows.contacts
      .filter((contact) => contact.source === 'lead')
      .map((contact) => ({
        ...contactOf(contact),
        consent: contact.consentGivenAt
          ? {
              textId: contact.consentTextId,
              givenAt: iso(contact.consentGivenAt),
              page: contact.consentPage,
            }
          : null,
      })),
    activity: rows.audit.map((event) => ({
      action: event.action,
      entityType: event.entityType,
      entityId: event.entityId,
      details: event.metadata,
      at: iso(event.createdAt),
    })),
  }
  files['data.json'] = strToU8(`${JSON.stringify(data, null, 2)}\n`)
  files['README.txt'] = strToU8(
    [
      `Your data at ${tenant.name} (${origin}), as of ${now.toISOString()}.`,
      '',
      'data.json   your profile, settings, teams, cards (with how many follow each), view',
      '            counts per card and source, contacts, leads (with their consent) and the',
      '            activity recorded for you',
      'cards/      each of your cards as a contact file (vCard 3.0)',
      'images/     the images on your profile and your cards',
      '',
    ].join('\r\n'),
  )
  await progress(95)
  return zipSync(files, { level: 6, mtime: now })
}

/** Marks progress in its own short transaction, so the polling profile sees it at once. */
const progressOf =
  (organizationId: string, exportId: string): Progress =>
  (percent) =>
    withTenant(organizationId, (tx) => setDataExportProgress(tx, organizationId, exportId, percent))

/** The `data-export.build` job: builds the zip, keeps it, emails the owner. */
export const buildDataExportJob: JobHandler = {
  async run(job) {
    const { organizationId, exportId } = tenantJobInput(job, 'exportId')
    const tenant = await freshTenantOf(organizationId)
    if (!tenant) return
    const started = await withTenant(organizationId, async (tx) => {
      const row = await findDataExport(tx, organizationId, exportId)
      // Replaced, deleted with its account, or restored from a backup without its rows.
      if (!row) return null
      return (await startDataExport(tx, organizationId, exportId)) ? row : null
    })
    if (!started) return
    const zip = await buildDataExportZip(
      tenant,
      started.userId,
      progressOf(organizationId, exportId),
    )
    const expiresAt = expiryFrom(new Date())
    const owner = await withTenant(organizationId, async (tx) => {
      if (!(await finishDataExport(tx, organizationId, exportId, zip, expiresAt))) return null
      return findUserById(tx, organizationId, started.userId)
    })
    if (owner) await sendReadyEmail(tenant, owner, exportId, expiresAt)
  },
  async onDead(job) {
    const organizationId = job.organizationId
    const exportId = job.payload.exportId
    if (!organizationId || !exportId) return
    await withTenant(organizationId, (tx) =>
      failDataExport(tx, organizationId, exportId, DATA_EXPORT_FAILED, expiryFrom(new Date())),
    )
  },
}

/**
 * "Your data is ready", after the zip committed: a send limit reached does not undo the export
 * (the profile shows it ready either way).
 */
async function sendReadyEmail(tenant: Tenant, owner: User, exportId: string, expiresAt: Date) {
  const branding = tenantEmailBranding(tenant)
  const email = dataExportReadyEmail({
    branding,
    to: owner.email,
    firstName: owner.firstName,
    expiresAt,
    profileUrl: `${branding.origin}${rolePaths(owner.role).profile}?tab=security`,
  })
  try {
    await withTenant(tenant.id, (tx: Transaction) =>
      queueEmailIn(
        tx,
        tenant.id,
        email,
        tenant.name,
        { userId: owner.id },
        `data-export:${exportId}`,
      ),
    )
  } catch (error) {
    if (!isRefusal(error, 'rate_limited')) throw error
  }
}

// ---------------------------------------------------------------------------------------------
// The download

/** `{site}-data-2026-11-27.zip`, safe as a file name and as a header (ASCII only). */
function zipFileName(tenant: Tenant, at: Date) {
  const site = tenant.name.replace(/[^A-Za-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'my'
  return `${site}-data-${at.toISOString().slice(0, 10)}.zip`
}

const notFound = () => new Response('Not found', { status: 404 })

/**
 * The zip, streamed to its owner only: another person's export, another tenant's, an expired
 * or unfinished one, or no valid id are all the same 404. Each download is audited.
 */
export async function downloadDataExport(request: Request, context: AppLoadContext) {
  const { tenant, user } = await requireUser(request, context)
  const form = await request.formData().catch(() => null)
  const parsed = DataExportDownloadSchema.safeParse({ exportId: form?.get('exportId') })
  if (!parsed.success) return notFound()
  const { exportId } = parsed.data
  const found = await withTenant(tenant.id, async (tx) => {
    const row = await findDownloadableDataExport(tx, tenant.id, user.id, exportId, new Date())
    if (!row) return null
    await recordAudit(tx, tenant.id, {
      actorUserId: user.id,
      action: 'data_export.downloaded',
      entityType: 'data_export',
      entityId: row.id,
      metadata: { bytes: row.byteSize },
    })
    return row
  })
  if (!found) return notFound()
  const size = found.byteSize ?? 0
  let offset = 0
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (offset >= size) {
        controller.close()
        return
      }
      const chunk = await withTenant(tenant.id, (tx) =>
        readDataExportChunk(tx, tenant.id, user.id, exportId, offset, CHUNK_BYTES),
      )
      // Deleted meanwhile (a new request replaced it): the download ends unfinished.
      if (!chunk || chunk.length === 0) {
        controller.error(new Error('the export is gone'))
        return
      }
      offset += chunk.length
      controller.enqueue(new Uint8Array(chunk))
    },
  })
  return new Response(body, {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Length': String(size),
      'Content-Disposition': `attachment; filename="${zipFileName(tenant, found.finishedAt ?? new Date())}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  })
}
