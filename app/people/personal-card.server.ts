// A card that follows a person who leaves (issue 45 point 2, ADR 103). At a seat's hand-over
// the agency may offer the departing person a personal card: an emailed link (only its hash is
// stored, 14 days) opens a form on the agency's host where the person types the name, personal
// email and phone they choose; the card is written on the platform organization (its rows are
// out of the agency's reach), and the agency keeps only its public address. Once the person has
// left (inactive), each confirmed follower of their cards is told once "has moved", with both
// cards, by a job of the agency; the agency's card keeps forwarding as the hand-over set it.
import { randomBytes } from 'node:crypto'
import { queueFollowerEmailIn } from '#app/cards/follower-email.server'
import { cardLinkUrl } from '#app/cards/short-link'
import { hashToken, newEmailLink } from '#app/email/link-token.server'
import { queueEmailIn } from '#app/email/mailer.server'
import { type JobHandler, tenantJobInput } from '#app/jobs/worker.server'
import { recordAudit } from '#app/models/audit.server'
import { insertJob } from '#app/models/jobs.server'
import { findOrganizationForHost } from '#app/models/organizations.server'
import {
  claimOffer,
  deletePersonalCard,
  findOfferByToken,
  findOfferForUser,
  findPersonalCardBySlug,
  followersToTellMoved,
  insertPersonalCard,
  markMovedNotice,
  offerPersonalCard,
} from '#app/models/personal-cards.server'
import { findUserById } from '#app/models/users.server'
import {
  personalCardMovedEmail,
  personalCardOfferEmail,
} from '#app/services/emails/personal-card-email.server'
import { tenantEmailBranding } from '#app/tenancy/email-branding.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { freshTenantOf, type Tenant } from '#app/tenancy/tenant.server'
import { Refusal } from '#app/utils/action-error'
import { slugBaseFromName } from '#app/validation/card-slug'
import { PERSONAL_CARD_CLAIM_PATH, personalCardPath } from '#app/validation/personal-card'
import { type Transaction, withDatabase, withTenant } from '#drizzle/db.server'

export const CLAIM_LINK_INVALID =
  'This link no longer works: it was used already, it has expired, or it is not complete.'

const nameOf = (person: { firstName: string; lastName: string }) =>
  `${person.firstName} ${person.lastName}`.trim()

/**
 * The hand-over's "Offer a personal card", in the caller's transaction: the offer with its
 * token's hash and the email to the account's address (past the send limits of the admin who
 * decided it). Nothing is sent when the person claimed one already.
 */
export async function offerPersonalCardIn(
  tx: Transaction,
  tenant: Tenant,
  person: { id: string; email: string; firstName: string },
  actorUserId: string,
) {
  const link = newEmailLink('personal-card-claim')
  const { offered } = await offerPersonalCard(
    tx,
    tenant.id,
    person.id,
    hashToken(link.token),
    actorUserId,
  )
  if (!offered) return false
  const branding = tenantEmailBranding(tenant)
  const message = personalCardOfferEmail({
    branding,
    to: person.email,
    firstName: person.firstName,
    claimUrl: `${branding.origin}${PERSONAL_CARD_CLAIM_PATH}?token=${link.token}`,
  })
  await queueEmailIn(tx, tenant.id, { ...message, secrets: [link.secret] }, tenant.name, {
    userId: actorUserId,
  })
  return true
}

/** The platform organization's id (the personal cards' tenant). */
export async function platformOrganizationId() {
  const platform = await withDatabase((db) => findOrganizationForHost(db, { kind: 'platform' }))
  if (!platform) throw new Error('no platform organization')
  return platform.id
}

/** A slug nobody can guess from a name alone: the name's words and four random letters. */
function personalSlug(firstName: string, lastName: string) {
  const base = slugBaseFromName(firstName, lastName).slice(0, 24).replace(/-+$/, '')
  const letters = 'abcdefghjkmnpqrstuvwxyz23456789'
  const suffix = Array.from(randomBytes(4), (byte) => letters[byte % letters.length]).join('')
  return `${base}-${suffix}`
}

/**
 * Claims the offer `tokenHash` opens on `tenant`: the personal card on the platform
 * organization (what the person typed, nothing else), then, in the agency's transaction, the
 * offer marked claimed with the card's address, the audit event and the followers' "has moved"
 * job. Two transactions, one per tenant (one connection never holds two): the card is written
 * only for a link that works, and taken back if the claim is lost to a concurrent one. A Refusal
 * (404) when the link no longer works.
 */
export async function claimPersonalCard(
  tenant: Tenant,
  tokenHash: string,
  card: { firstName: string; lastName: string; email: string; phone: string },
): Promise<{ slug: string }> {
  const open = await withTenant(tenant.id, (tx) => findOfferByToken(tx, tenant.id, tokenHash))
  if (!open) throw new Refusal('not_found', CLAIM_LINK_INVALID)
  const platformId = await platformOrganizationId()
  const slug = await withTenant(platformId, async (tx) => {
    // Four random letters are rarely taken; another draw when they are.
    for (let attempt = 0; attempt < 5; attempt++) {
      const candidate = personalSlug(card.firstName, card.lastName)
      const written = await insertPersonalCard(tx, platformId, {
        slug: candidate,
        ...card,
        email: card.email.toLowerCase(),
      })
      if (written) return written.slug
    }
    throw new Error('no free personal card slug')
  })
  const claimed = await withTenant(tenant.id, async (tx) => {
    const row = await claimOffer(tx, tenant.id, tokenHash, slug)
    if (!row) return null
    await recordAudit(tx, tenant.id, {
      actorUserId: null,
      action: 'user.personal_card_claimed',
      entityType: 'user',
      entityId: row.userId,
      metadata: { personalCardSlug: slug },
    })
    await insertJob(tx, {
      name: 'personal-card.moved',
      organizationId: tenant.id,
      payload: { userId: row.userId },
      idempotencyKey: `personal-card.moved:${row.userId}:claimed`,
    })
    return row
  })
  if (!claimed) {
    await withTenant(platformId, (tx) => deletePersonalCard(tx, platformId, slug))
    throw new Refusal('not_found', CLAIM_LINK_INVALID)
  }
  return { slug }
}

/** The public address of a personal card that still exists (its owner may have removed it). */
async function livePersonalCardUrl(slug: string) {
  const platformId = await platformOrganizationId()
  const card = await withTenant(platformId, (tx) => findPersonalCardBySlug(tx, platformId, slug))
  return card ? personalCardUrl(card.slug) : null
}

/** The public address of a personal card, on the platform's host. */
export async function personalCardUrl(slug: string) {
  const platform = await freshTenantOf(await platformOrganizationId())
  if (!platform) throw new Error('no platform tenant')
  return `${tenantOrigin(platform)}${personalCardPath(slug)}`
}

/**
 * A deactivation of a person who claimed a personal card: their followers may be told now (the
 * job tells only those not told yet, and only while the person is inactive).
 */
export async function queueMovedNoticeIn(tx: Transaction, organizationId: string, userId: string) {
  const offer = await findOfferForUser(tx, organizationId, userId)
  if (!offer?.personalCardSlug) return
  await insertJob(tx, {
    name: 'personal-card.moved',
    organizationId,
    payload: { userId },
    idempotencyKey: `personal-card.moved:${userId}:${randomBytes(8).toString('hex')}`,
  })
}

/**
 * "Has moved": each confirmed follower of the person's cards not told yet gets one email (an
 * address following two of the cards, one), naming the personal card and the agency's card
 * (whose link forwards as the hand-over set it), with the one-click stop link of the card they
 * followed; all queued with the mark that they were told, in one transaction. Nothing while the
 * person is active (their card is still theirs) or before the card was claimed.
 */
export const movedNoticeJob: JobHandler = {
  async run(job) {
    const { organizationId, userId } = tenantJobInput(job, 'userId')
    const tenant = await freshTenantOf(organizationId)
    if (!tenant) return
    const branding = tenantEmailBranding(tenant)
    const found = await withTenant(organizationId, async (tx) => {
      const person = await findUserById(tx, organizationId, userId)
      const offer = await findOfferForUser(tx, organizationId, userId)
      if (!person || person.status === 'active' || !offer?.personalCardSlug) return null
      return { person, slug: offer.personalCardSlug }
    })
    if (!found) return
    // Removed by its owner (ADR 106): there is nowhere to send the followers.
    const personalUrl = await livePersonalCardUrl(found.slug)
    if (!personalUrl) return
    await withTenant(organizationId, async (tx) => {
      const followers = await followersToTellMoved(tx, organizationId, userId)
      const told = new Set<string>()
      for (const follower of followers) {
        if (told.has(follower.email)) continue
        told.add(follower.email)
        await queueFollowerEmailIn(tx, tenant, follower, (stopUrl) =>
          personalCardMovedEmail({
            branding,
            to: follower.email,
            ownerName: nameOf(found.person),
            personalCardUrl: personalUrl,
            companyCardUrl: cardLinkUrl(tenantOrigin(tenant), {
              card: { id: follower.cardId },
              shortSlug: follower.shortSlug,
            }),
            stopUrl,
            language: follower.language,
          }),
        )
      }
      await markMovedNotice(
        tx,
        organizationId,
        followers.map((follower) => follower.id),
      )
    })
  },
}
