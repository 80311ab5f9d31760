// A pass's authentication token (Apple's `authenticationToken`, sent back by devices as
// `Authorization: ApplePass {token}`): derived from APP_SECRET and the pass's serial, so it is
// never stored (ADR 028, ADR 042) and the same pass always carries the same token. Rotating
// APP_SECRET invalidates every pass's token: devices then get 401 until the pass is added again.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { getEnv } from '#app/env.server'

// Its own label, so no other signature made with APP_SECRET is ever a pass token.
export function passAuthenticationToken(organizationId: string, serial: string) {
  return createHmac('sha256', getEnv().APP_SECRET)
    .update(`apple-wallet-pass:v1:${organizationId}:${serial}`)
    .digest('base64url')
}

/** Whether an Authorization header carries this pass's token (in constant time). */
export function hasPassAuthorization(
  header: string | null,
  organizationId: string,
  serial: string,
) {
  const match = /^ApplePass ([A-Za-z0-9_-]{16,128})$/.exec(header?.trim() ?? '')
  if (!match) return false
  const expected = Buffer.from(passAuthenticationToken(organizationId, serial))
  const given = Buffer.from(match[1] as string)
  return expected.length === given.length && timingSafeEqual(expected, given)
}
