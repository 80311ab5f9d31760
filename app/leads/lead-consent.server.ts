// Consent that follows the lead (issue 31 point 3, ADR 050): an agency's consent text, the
// version a lead agreed to on a card's lead form, and the receipt that lets the lead see or
// delete their data later. The receipt link's token is derived from a seed the outbox keeps
// and rests nowhere else; the contact stores only its hash (ADR 028).
import { hashToken, linkTokenOf, newEmailLink } from '#app/email/link-token.server'
import { queueEmailIn } from '#app/email/mailer.server'
import type { EmailCause } from '#app/email/send-limits.server'
import { recordOrganizationAudit } from '#app/models/audit.server'
import {
  type ConsentText,
  findConsentText,
  findCurrentConsentText,
  insertConsentText,
} from '#app/models/consent-texts.server'
import { deleteOutboxEmails, listOutboxLinksTo } from '#app/models/outbox.server'
import { leadReceiptEmail } from '#app/services/emails/lead-receipt-email.server'
import { tenantEmailBranding } from '#app/tenancy/email-branding.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { Refusal } from '#app/utils/action-error'
import type { Language } from '#app/validation/languages'
import { CONSENT_REQUIRED } from '#app/validation/public-card'
import { type Queryable, type Transaction, withTenant } from '#drizzle/db.server'

/** Where a lead's receipt link leads (`?token=`, redacted from the request log). */
export const LEAD_DATA_PATH = '/lead-data'

/** The text the agency's lead forms show now, or null when they ask for no consent. */
export async function currentConsentText(db: Queryable, organizationId: string) {
  const text = await findCurrentConsentText(db, organizationId)
  return text?.body ? { id: text.id, version: text.version, body: text.body } : null
}

/** A new version of the agency's text (an empty one turns the consent box off), audited. */
export async function saveConsentText(organizationId: string, actorUserId: string, body: string) {
  return withTenant(organizationId, async (tx) => {
    const saved =
      (await insertConsentText(tx, organizationId, body)) ??
      // A concurrent save took the number: the next one is free now that it has committed.
      (await insertConsentText(tx, organizationId, body))
    if (!saved) throw new Error('consent text version not saved')
    await recordOrganizationAudit(tx, organizationId, actorUserId, 'consent.updated', {
      version: saved.version,
      on: Boolean(body),
    })
    return saved
  })
}

export type LeadConsent = {
  text: Pick<ConsentText, 'id' | 'version' | 'body'>
  token: string
  secret: ReturnType<typeof newEmailLink>['secret']
  /** What the contact row stores of it. */
  stored: {
    consentTextId: string
    consentGivenAt: Date
    consentPage: string
    dataTokenHash: string
  }
}

/**
 * The consent a lead carries, checked before anything is written: null when the agency asks
 * for none and none was given; a refusal next to the box when it asks and the form did not
 * carry a ticked version of this agency's text. `current` is the text the card's guard read in
 * its transaction, so the usual lead costs no query here. A version older than the current one
 * is the one the visitor was shown (a page left open), so it is the one recorded.
 */
export async function consentOfLead(
  organizationId: string,
  current: Awaited<ReturnType<typeof currentConsentText>>,
  posted: { consentTextId?: string; consent?: 'on' },
  page: string,
): Promise<LeadConsent | null> {
  const refuse = () => new Refusal('invalid', CONSENT_REQUIRED, { field: 'consent' })
  if (!posted.consentTextId) {
    if (current) throw refuse()
    return null
  }
  const postedId = posted.consentTextId
  const text =
    postedId === current?.id
      ? current
      : await withTenant(organizationId, (tx) => findConsentText(tx, organizationId, postedId))
  // Another agency's version, an empty one, or a box not ticked (the schema says so first).
  if (!text?.body || posted.consent !== 'on') throw refuse()
  const link = newEmailLink('lead-data')
  return {
    text: { id: text.id, version: text.version, body: text.body },
    token: link.token,
    secret: link.secret,
    stored: {
      consentTextId: text.id,
      consentGivenAt: new Date(),
      consentPage: page,
      dataTokenHash: hashToken(link.token),
    },
  }
}

/** The receipt, queued in the transaction that saved the lead (one never without the other). */
export async function queueLeadReceiptIn(
  tx: Transaction,
  tenant: Tenant,
  receipt: {
    to: string
    leadName: string
    ownerName: string
    consent: LeadConsent
    /** The card page's language (ADR 105): the receipt is written in it at once. */
    language?: Language
    cause: EmailCause
  },
) {
  const branding = tenantEmailBranding(tenant)
  const { consent } = receipt
  const email = leadReceiptEmail({
    branding,
    to: receipt.to,
    leadName: receipt.leadName,
    ownerName: receipt.ownerName,
    consentText: consent.text.body,
    consentVersion: consent.text.version,
    givenAt: consent.stored.consentGivenAt,
    dataUrl: `${branding.origin}${LEAD_DATA_PATH}?token=${consent.token}`,
    language: receipt.language,
  })
  await queueEmailIn(
    tx,
    tenant.id,
    { ...email, secrets: [consent.secret] },
    tenant.name,
    receipt.cause,
  )
}

/**
 * The deleted lead's receipt leaves the email outbox with the contact, in its transaction, so
 * their address and name do not outlive their deletion there (ADR 050). Only this lead's
 * receipt: the one whose link token hashes to the contact's, so the same person's receipt for
 * another card owner (another contact, its own link) stays usable. How many went. The lead's own
 * deletion calls it, and so does the REST API's (ADR 092).
 */
export async function deleteLeadReceiptsIn(
  tx: Transaction,
  organizationId: string,
  email: string,
  tokenHash: string,
) {
  if (!email.trim()) return 0
  const rows = await listOutboxLinksTo(tx, organizationId, email, 'lead-data')
  const theirs = rows.filter((row) =>
    row.secrets.some(
      (secret) =>
        secret.kind === 'link' &&
        secret.purpose === 'lead-data' &&
        hashToken(linkTokenOf(secret.seed)) === tokenHash,
    ),
  )
  return deleteOutboxEmails(
    tx,
    organizationId,
    theirs.map((row) => row.id),
  )
}
