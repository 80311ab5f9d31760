// Which "Add to … Wallet" badges the QR screen shows (issue 29 point 5, ADR 044): each wallet
// that is configured, where it applies. A phone gets its own platform's only (Apple Wallet on
// iOS, Google Wallet on Android, as each platform's guidelines ask); any other device, or one the
// User-Agent does not name, gets every configured wallet, since a pass saved from a desktop
// reaches the phone signed in to the same account. Decided on the server, so the page is the same
// with or without JavaScript.

import { applePassPath, appleWalletConfigured } from '#app/cards/apple-config.server'
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
 * The card page's offers (issue 41 point 6): the same for every device, since a visitor's page is
 * kept in the page cache and answered to the next visitor whatever their phone; the page's script
 * leaves a phone its own platform's badge.
 */
export function walletOffersOnCardPage(card: { id: string }, isPublic: boolean): WalletOffers {
  return {
    apple: appleWalletConfigured() ? applePassPath(card.id) : null,
    google: googleWalletConfigured() && isPublic ? googleWalletPath(card.id) : null,
  }
}

/**
 * The wallet offers of a card the card gate already showed to this viewer (the save links pass
 * it again). An Apple pass is one per card and viewer (ADR 042), so any viewer may save it;
 * Google's object is one per card, shared by whoever saves it, and kept as a visitor sees the
 * card (ADR 043): offered for a public card only, as its route answers.
 */
export function walletOffersFor(
  card: { id: string },
  request: Request,
  isPublic: boolean,
): WalletOffers {
  const device = deviceOf(request)
  return {
    apple: appleWalletConfigured() && device !== 'android' ? applePassPath(card.id) : null,
    google:
      googleWalletConfigured() && isPublic && device !== 'ios' ? googleWalletPath(card.id) : null,
  }
}
