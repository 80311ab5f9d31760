// `npm run demo:totp`: the current two-factor code of the demo's admins (app/demo/demo-totp.ts).
import { demoTotpCode } from '#app/demo/demo-totp'

const secondsLeft = 30 - (Math.floor(Date.now() / 1000) % 30)
console.log(`${demoTotpCode()}  (valid for ${secondsLeft} more seconds)`)
