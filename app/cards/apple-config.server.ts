// Apple Wallet's configuration (issue 29 point 1, ADR 042): the pass type and team identifiers
// and the PEM files that sign a pass. Without all of them the feature is off: the pass route
// and the web service answer 404, and the QR screen offers no "Add to Apple Wallet".
import { readFileSync } from 'node:fs'
import { WALLET_WEB_SERVICE_PREFIX } from '#app/auth/origin'
import { type Env, getEnv } from '#app/env.server'

export type AppleWalletConfig = {
  passTypeId: string
  teamId: string
  certificates: {
    wwdr: string
    signerCert: string
    signerKey: string
    signerKeyPassphrase?: string
  }
  /** Where APNs is reached: Apple's production host, or a local fake in tests. */
  apnsUrl: string
}

const REQUIRED = [
  'APPLE_PASS_TYPE_ID',
  'APPLE_TEAM_ID',
  'APPLE_PASS_CERT',
  'APPLE_PASS_KEY',
  'APPLE_WWDR_CERT',
] as const

// Read once per parsed environment (tests reset it between configurations).
const loaded = new WeakMap<Env, AppleWalletConfig | null>()

function load(env: Env): AppleWalletConfig | null {
  const set = REQUIRED.filter((name) => env[name])
  if (set.length === 0) return null
  // Half a configuration is a mistake to say out loud, not a feature quietly off.
  if (set.length < REQUIRED.length) {
    const missing = REQUIRED.filter((name) => !env[name])
    throw new Error(`Apple Wallet needs ${missing.join(', ')} as well as ${set.join(', ')}`)
  }
  const pem = (name: 'APPLE_PASS_CERT' | 'APPLE_PASS_KEY' | 'APPLE_WWDR_CERT') => {
    try {
      return readFileSync(env[name] as string, 'utf8')
    } catch (error) {
      throw new Error(`${name}: cannot read ${env[name]} (${(error as Error).message})`)
    }
  }
  return {
    passTypeId: env.APPLE_PASS_TYPE_ID as string,
    teamId: env.APPLE_TEAM_ID as string,
    certificates: {
      wwdr: pem('APPLE_WWDR_CERT'),
      signerCert: pem('APPLE_PASS_CERT'),
      signerKey: pem('APPLE_PASS_KEY'),
      ...(env.APPLE_PASS_KEY_PASSPHRASE
        ? { signerKeyPassphrase: env.APPLE_PASS_KEY_PASSPHRASE }
        : {}),
    },
    apnsUrl: env.APPLE_APNS_URL,
  }
}

/** The configuration, or null while Apple Wallet is not configured. */
export function appleWalletConfig(): AppleWalletConfig | null {
  const env = getEnv()
  if (!loaded.has(env)) loaded.set(env, load(env))
  return loaded.get(env) ?? null
}

/** Whether cards are offered as Apple Wallet passes (the QR screen's button shows only then). */
export const appleWalletConfigured = () => appleWalletConfig() !== null

/** The address of a card's pass, by its id or name link (what `/card/` takes). */
export const applePassPath = (reference: string) =>
  `/card/${encodeURIComponent(reference)}/pass.pkpass`

/**
 * The pass web service's base (Apple's webServiceURL) on the tenant's origin: devices call it
 * at `{base}/v1/…`, and the host says the tenant, as for every request.
 */
export const WALLET_WEB_SERVICE_PATH = WALLET_WEB_SERVICE_PREFIX.replace(/\/v1\/$/, '')
