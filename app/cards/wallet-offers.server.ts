// Which "Add to … Wallet" badges the QR screen shows (issue 29 point 5, ADR 044): each wallet
// that is configured, where it applies. A phone gets its own platform's only (Apple Wallet on
// iOS, Google Wallet on Android, as each platform's guidelines ask); any other device, or one the
// User-Agent does not name, gets every configured wallet, since a pass saved from a desktop
// reaches the phone signed in to the same account. Decided on the server, so the page is the same
// with or without JavaScript.
import { googleWalletConfigured, googleWalletPath } from '#app/cards/google-wallet-config.server'

/** The save links offered for a card: a path on the tenant's host, or null when not offered. */
export type WalletOffers = { apple: string | null; google: string | null }

type Device = 'ios' | 'android' | 'other'

function deviceOf(request: Request): Device {
  const agent = request.headers.get('User-Agent') ?? ''
  if (/\b(iPhone|iPad|iPod)\b/.test(agent)) return 'ios'
  if (/\bAndroid\b/.test(agent)) return 'android'
  return 'other'
}

/**
 * The wallet offers of a card the card gate already showed to this viewer (the save links pass
 * it again). Apple Wallet's pass is issue 29 point 1's: until its configuration and route exist,
 * `apple` stays null and the badge's slot stays empty.
 */
export function walletOffersFor(card: { id: string }, request: Request): WalletOffers {
  const device = deviceOf(request)
  return {
    apple: null,
    google: googleWalletConfigured() && device !== 'ios' ? googleWalletPath(card.id) : null,
  }
}
