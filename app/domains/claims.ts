// Claims on a domain name, custom or sending (issue 26, ADR 031): a claim that is not verified
// expires, so no agency can hold a name it cannot prove; and a refusal says nothing of who holds
// the name. Client and server read the rule from here.

/** Days a claim may stay unverified (pending, or lost after it was verified) before release. */
export const DOMAIN_CLAIM_DAYS = 7

const DAY_MS = 24 * 60 * 60 * 1000

/** When a claim unverified since `since` expires. */
export function claimExpiresAt(since: Date): Date {
  return new Date(since.getTime() + DOMAIN_CLAIM_DAYS * DAY_MS)
}

export function isClaimExpired(since: Date, now = new Date()): boolean {
  return claimExpiresAt(since).getTime() <= now.getTime()
}

/** Refusing a name held elsewhere: neither the holder nor that there is one is named. */
export const DOMAIN_UNAVAILABLE = 'This domain is not available. If it is yours, contact support.'

/** A sending domain can also be held by a claim that is still pending (it expires). */
export const SENDING_DOMAIN_UNAVAILABLE = `This domain is not available right now. If it is yours, try again in ${DOMAIN_CLAIM_DAYS} days or contact support.`
