// The demo's admins sign in with two factors (the platform's default): every one is enrolled with
// this one TOTP key, printed in the README, so a newcomer adds it to an authenticator app or
// runs `npm run demo:totp` for the current code. A demo secret, never a production one.
import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { generateTOTP } from '@oslojs/otp'

export const DEMO_TOTP_KEY = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'

/** The code an authenticator app holding the demo key shows now (30-second steps, 6 digits). */
export function demoTotpCode() {
  return generateTOTP(decodeBase32IgnorePadding(DEMO_TOTP_KEY), 30, 6)
}
