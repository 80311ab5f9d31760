// Tokens of emailed links (password reset, email confirmation): 32 random bytes in base32 in
// the link, only their SHA-256 in the database, so a leaked table opens no account.
import { sha256 } from '@oslojs/crypto/sha2'
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding'

/** The shape of every link token: anything else is refused without a query. */
export const LINK_TOKEN = /^[a-z2-7]{52}$/

export function newLinkToken() {
  const bytes = new Uint8Array(32)
  crypto.getRandomValues(bytes)
  return encodeBase32LowerCaseNoPadding(bytes)
}

export function hashToken(token: string) {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)))
}
