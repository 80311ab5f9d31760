// Google Wallet's configuration (ADR 043): GOOGLE_WALLET_ISSUER_ID and the service account's JSON
// key at GOOGLE_WALLET_KEY. Apart from the save link and its job (google-wallet.server.ts) so the
// screens that only ask whether it is on, and the edits that queue a patch, do not reach the card
// gate through it.
import { readFileSync } from 'node:fs'
import { importPKCS8 } from 'jose'
import { z } from 'zod'
import { getEnv } from '#app/env.server'
import type { ServiceAccount } from '#app/services/google-wallet-api.server'

/** The fields of the service account's JSON key that signing and the token grant need. */
const ServiceAccountKeySchema = z.object({
  client_email: z.string().email(),
  private_key: z.string().includes('PRIVATE KEY'),
  private_key_id: z.string().optional(),
  token_uri: z.string().url().default('https://oauth2.googleapis.com/token'),
})

export type GoogleWalletConfig = { issuerId: string; apiUrl: string; account: ServiceAccount }
type Loaded = { source: string; config: Promise<GoogleWalletConfig> | null }
let loaded: Loaded | undefined

/**
 * The configuration, read once per setting: the key file is parsed when first needed. A key
 * file that cannot be read or is not a service account's key counts as no configuration (the
 * link stays hidden) and says why once, in the log.
 */
function load(): Loaded {
  const env = getEnv()
  const source = `${env.GOOGLE_WALLET_ISSUER_ID ?? ''}\n${env.GOOGLE_WALLET_KEY ?? ''}\n${env.GOOGLE_WALLET_API_URL}`
  if (loaded?.source === source) return loaded
  loaded = { source, config: null }
  const issuerId = env.GOOGLE_WALLET_ISSUER_ID
  const keyPath = env.GOOGLE_WALLET_KEY
  if (!issuerId || !keyPath) return loaded
  try {
    const key = ServiceAccountKeySchema.parse(JSON.parse(readFileSync(keyPath, 'utf8')))
    loaded.config = importPKCS8(key.private_key, 'RS256').then((privateKey) => ({
      issuerId,
      apiUrl: env.GOOGLE_WALLET_API_URL,
      account: {
        clientEmail: key.client_email,
        keyId: key.private_key_id ?? null,
        privateKey,
        tokenUri: key.token_uri,
      },
    }))
    // A key that does not import: unconfigured, as above (the promise is not awaited here).
    loaded.config.catch(() => {})
  } catch (error) {
    console.warn(
      `Google Wallet is off: GOOGLE_WALLET_KEY (${keyPath}) is not a service account key (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    )
  }
  return loaded
}

export async function googleWalletConfig(): Promise<GoogleWalletConfig | null> {
  const { config } = load()
  if (!config) return null
  try {
    return await config
  } catch {
    return null
  }
}

/** Whether Google Wallet is set up: the QR screen shows "Add to Google Wallet" only then. */
export function googleWalletConfigured(): boolean {
  return load().config !== null
}

/** The card's save link on its tenant's host (the QR screen's button links here). */
export const googleWalletPath = (cardId: string) =>
  `/card/${encodeURIComponent(cardId)}/google-wallet`

/** The card's object id: the issuer's, then one from the card's id (nothing secret). */
export const googleWalletObjectId = (issuerId: string, cardId: string) =>
  `${issuerId}.card-${cardId}`
