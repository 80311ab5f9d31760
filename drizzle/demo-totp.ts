// The demo's admins sign in with two factors (the platform's default): every one is enrolled with
// this one TOTP key, printed in the README, so a newcomer adds it to an authenticator app or
// runs `npm run demo:totp` for the current code. A demo secret, never a production one.
export const DEMO_TOTP_KEY = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
