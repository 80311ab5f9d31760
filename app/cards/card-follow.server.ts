// "Keep me updated" (issue 45 point 1, ADR 102): a recipient asks on the card page to hear when
// the card changes; the emailed link confirms (double opt-in: nothing else is sent before); an
// edit of the title, company, phone, an email or the photo marks the confirmed followers
// (migration 0051's trigger) and queues this module's digest job, which sends each one email
// with the card's new vCard, at most one a day per card.
import { openCard } from '#app/cards/card-gate.server'
import { queueFollowerEmailIn } from '#app/cards/follower-email.server'
import { cardLinkUrl } from '#app/cards/short-link'
import { hashToken, newEmailLink } from '#app/email/link-token.server'
import { queueEmailIn } from '#app/email/mailer.server'
import type { EmailCause } from '#app/email/send-limits.server'
import { type JobHandler, tenantJobInput } from '#app/jobs/worker.server'
import {
  askToFollow,
  followersOwedDigest,
  markDigestSent,
  nextDigestDue,
} from '#app/models/card-followers.server'
import { insertJob } from '#app/models/jobs.server'
import { getMediaBytes } from '#app/models/media.server'
import {
  followConfirmEmail,
  followDigestEmail,
} from '#app/services/emails/card-follow-email.server'
import { buildCardVCard, vcardFileName, vcardPhoto } from '#app/services/vcard.server'
import { tenantEmailBranding } from '#app/tenancy/email-branding.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import { freshTenantOf, type Tenant } from '#app/tenancy/tenant.server'
import { translator } from '#app/utils/i18n/translate'
import { type Language, SOURCE_LANGUAGE } from '#app/validation/languages'
import { type Transaction, withTenant } from '#drizzle/db.server'

export const FOLLOW_CONFIRM_PATH = '/follow/confirm'

/** The card page's answer, alike whether the address followed the card already or not. */
/** The page's answer in English; the card page says it in the visitor's language (ADR 105). */
export const followAskedMessage = (firstName: string) =>
  translator('en')('follow.asked', { firstName })
export const nameOf = (card: { firstName: string; lastName: string }) =>
  `${card.firstName} ${card.lastName}`.trim()

/**
 * The card page's "Keep me updated": a pending follower and the confirmation email, in the
 * caller's transaction (past the send limits, or a rate_limited Refusal that keeps nothing).
 * An address that already follows the card gets nothing, and the page says the same.
 */
export async function askToFollowIn(
  tx: Transaction,
  tenant: Tenant,
  card: { id: string; firstName: string; lastName: string },
  email: string,
  cause: EmailCause,
  language: Language = SOURCE_LANGUAGE,
) {
  const link = newEmailLink('card-follow')
  const { send } = await askToFollow(tx, tenant.id, card.id, email, hashToken(link.token), language)
  if (!send) return
  const branding = tenantEmailBranding(tenant)
  const message = followConfirmEmail({
    branding,
    to: email.trim(),
    ownerName: nameOf(card),
    confirmUrl: `${branding.origin}${FOLLOW_CONFIRM_PATH}?token=${link.token}`,
    language,
  })
  await queueEmailIn(tx, tenant.id, { ...message, secrets: [link.secret] }, tenant.name, cause)
}

/**
 * The digest of one card: its followers owed one get the card as a signed-out visitor sees it
 * now (several edits since the last digest are one email), each with their own stop link, all
 * queued with the mark that they got it, in one transaction.
 */
export const followDigestJob: JobHandler = {
  async run(job) {
    const { organizationId, cardId } = tenantJobInput(job, 'cardId')
    const tenant = await freshTenantOf(organizationId)
    if (!tenant) return
    const branding = tenantEmailBranding(tenant)
    await withTenant(organizationId, async (tx) => {
      const followers = await followersOwedDigest(tx, organizationId, cardId)
      if (followers.length === 0) {
        // Run before its day was over (a retry, or a job of an earlier edit): the change waits
        // for a job of its own at the end of that day.
        const due = await nextDigestDue(tx, organizationId, cardId)
        if (due) {
          await insertJob(tx, {
            name: 'card-follow.digest',
            organizationId,
            payload: { cardId },
            idempotencyKey: `card-follow.digest:${cardId}:${due.toISOString()}`,
            runAt: due,
          })
        }
        return
      }
      // What anyone with the link sees: a card now hidden, archived or whose owner left sends
      // nothing (the changes stay owed until it shows again).
      const shown = await openCard(tx, organizationId, { id: cardId }, null)
      if (!shown?.isPublic) return
      const { card, links } = shown
      const cardUrl = cardLinkUrl(tenantOrigin(tenant), shown)
      const photo = await getMediaBytes(tx, organizationId, card.profilePictureMediaId)
      const vcard = buildCardVCard(card, {
        cardUrl,
        cardUrlSource: 'vcard',
        links,
        photoJpeg: await vcardPhoto(photo?.data),
      })
      const attachment = {
        filename: vcardFileName(card.firstName, card.lastName),
        contentType: 'text/vcard',
        content: Buffer.from(vcard, 'utf8').toString('base64'),
      }
      const details = {
        title: card.jobTitle ?? '',
        company: card.company ?? '',
        phone: card.phoneNumber ?? '',
        email: card.workEmail || card.email || '',
      }
      for (const follower of followers) {
        await queueFollowerEmailIn(tx, tenant, follower, (stopUrl) =>
          followDigestEmail({
            branding,
            to: follower.email,
            ownerName: nameOf(card),
            details,
            cardUrl,
            stopUrl,
            vcard: attachment,
            language: follower.language,
          }),
        )
      }
      await markDigestSent(
        tx,
        organizationId,
        followers.map((follower) => follower.id),
      )
    })
  },
}
