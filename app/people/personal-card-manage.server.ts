// A personal card's owner edits or removes it (ADR 106). The person has no account, so the card's
// personal email is their key: its page asks for the address, and a link that works for an hour
// goes to that address only when it is the card's. Every request answers alike and does the same
// work before answering (the limits and one queued job), like "Forgot password": nobody learns
// the card's address by guessing. Only the link token's hash is stored, on the card's row.

import { hashToken, newEmailLink } from '#app/email/link-token.server'
import { queueEmailIn } from '#app/email/mailer.server'
import { type JobHandler, tenantJobInput } from '#app/jobs/worker.server'
import { recordAudit } from '#app/models/audit.server'
import { findJobByKey, insertJob } from '#app/models/jobs.server'
import {
  deletePersonalCardByManageToken,
  findPersonalCardByManageToken,
  findPersonalCardBySlug,
  setManageToken,
  updatePersonalCardByManageToken,
} from '#app/models/personal-cards.server'
import {
  addressLimitKey,
  assertNotLimited,
  limitKey,
  recordHits,
} from '#app/rate-limits/rate-limit.server'
import { personalCardManageEmail } from '#app/services/emails/personal-card-email.server'
import { tenantEmailBranding } from '#app/tenancy/email-branding.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { freshTenantOf } from '#app/tenancy/tenant.server'
import { Refusal } from '#app/utils/action-error'
import { MANAGE_LINK_INVALID, PERSONAL_CARD_MANAGE_PATH } from '#app/validation/personal-card'
import { withDatabase, withTenant } from '#drizzle/db.server'
import { platformOrganizationId } from './personal-card.server'

/**
 * "Edit or remove this card": the limits (per card and per client address, whatever the
 * address), then the job that sends the link when the address is the card's.
 */
export async function requestManageLink(slug: string, rawEmail: string, clientIp: string) {
  const platformId = await platformOrganizationId()
  const limits = [
    { name: 'personalCardLinkCard' as const, key: limitKey('personalCardLinkCard', slug) },
    { name: 'personalCardLinkIp' as const, key: addressLimitKey('personalCardLinkIp', clientIp) },
  ]
  await assertNotLimited(limits)
  await recordHits(limits)
  await withDatabase((tx) =>
    insertJob(tx, {
      name: 'personal-card.manage-link',
      organizationId: platformId,
      payload: { slug, email: rawEmail.trim().toLowerCase() },
    }),
  )
}

/**
 * The queued request: when the address is the card's, a new link (the earlier one stops
 * working) and its email, in one transaction, once per job.
 */
export const manageLinkJob: JobHandler = {
  async run(job) {
    const { organizationId, slug, email } = tenantJobInput(job, 'slug', 'email')
    const platform = await freshTenantOf(organizationId)
    if (platform?.kind !== 'platform') return
    const link = newEmailLink('personal-card-manage')
    await withTenant(platform.id, async (tx) => {
      const card = await findPersonalCardBySlug(tx, platform.id, slug)
      if (!card?.email || card.email.toLowerCase() !== email) return
      // A run whose end went unrecorded has written its email already.
      const emailKey = `personal-card-manage:${job.id}`
      if (await findJobByKey(tx, `email.send:${emailKey}`)) return
      await setManageToken(tx, platform.id, card.slug, hashToken(link.token))
      const branding = tenantEmailBranding(platform)
      const message = personalCardManageEmail({
        branding,
        to: card.email,
        firstName: card.firstName,
        manageUrl: `${tenantOrigin(platform)}${PERSONAL_CARD_MANAGE_PATH}?token=${link.token}`,
      })
      // Limited when it was asked for (requestManageLink), alike for every address.
      await queueEmailIn(
        tx,
        platform.id,
        { ...message, secrets: [link.secret] },
        platform.name,
        'limited-when-requested',
        emailKey,
      )
    })
  },
}

/** The card an edit link opens; undefined when the link no longer works. */
export async function personalCardToManage(tokenHash: string) {
  const platformId = await platformOrganizationId()
  return withTenant(platformId, (tx) => findPersonalCardByManageToken(tx, platformId, tokenHash))
}

/** The person's edit of their card, through a link that still works. */
export async function savePersonalCard(
  tokenHash: string,
  fields: { firstName: string; lastName: string; email: string; phone: string },
) {
  const platformId = await platformOrganizationId()
  return withTenant(platformId, async (tx) => {
    const card = await updatePersonalCardByManageToken(tx, platformId, tokenHash, {
      ...fields,
      email: fields.email.toLowerCase(),
    })
    if (!card) throw new Refusal('not_found', MANAGE_LINK_INVALID)
    await recordAudit(tx, platformId, {
      actorUserId: null,
      action: 'personal_card.updated',
      entityType: 'personal_card',
      entityId: card.id,
      metadata: { slug: card.slug },
    })
    return card
  })
}

/**
 * The person removes their card: its page answers 404 from now on, and a "has moved" email not
 * sent yet names it no more (the job finds no card).
 */
export async function removePersonalCard(tokenHash: string) {
  const platformId = await platformOrganizationId()
  await withTenant(platformId, async (tx) => {
    const card = await deletePersonalCardByManageToken(tx, platformId, tokenHash)
    if (!card) throw new Refusal('not_found', MANAGE_LINK_INVALID)
    await recordAudit(tx, platformId, {
      actorUserId: null,
      action: 'personal_card.removed',
      entityType: 'personal_card',
      entityId: card.id,
      metadata: {},
    })
  })
}
