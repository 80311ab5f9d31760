// `npm run demo:totp`: the current two-factor code of the demo's admins (drizzle/demo-totp.ts).
import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { generateTOTP } from '@oslojs/otp'
import { DEMO_TOTP_KEY } from '#drizzle/demo-totp'

const key = decodeBase32IgnorePadding(DEMO_TOTP_KEY)
const secondsLeft = 30 - (Math.floor(Date.now() / 1000) % 30)
console.log(`${generateTOTP(key, 30, 6)}  (valid for ${secondsLeft} more seconds)`)
