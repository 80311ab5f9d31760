// The environment, read and validated once. Names are fixed by ARCHITECTURE.md.
import { randomBytes } from 'node:crypto'
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { isIP } from 'node:net'
import path from 'node:path'
import { z } from 'zod'
import {
  DEFAULT_MEDIA_QUOTA_TENANT_MB,
  DEFAULT_MEDIA_QUOTA_USER_MB,
} from '#app/validation/media-limits'
import { MAX_TRUSTED_HOPS, parseTrustedHops } from '#app/validation/trusted-proxy'

// An unset variable and an empty one mean the same: not configured.
const optionalText = () =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => value || undefined)

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  ROOT_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9.-]+$/, 'ROOT_DOMAIN must be a bare host name such as localhost')
    .default('localhost'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  // The login requests use on Postgres (a role that is not the owner): see app/prepare-database.server.ts.
  DATABASE_APP_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  // A transaction-mode pooler (PgBouncer) in front of Postgres: requests go through it as the app
  // login, LISTEN stays on a direct connection (app/prepare-database.server.ts, ADR 096).
  DATABASE_POOLER_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  TEST_DATABASE_URL: z.string().optional(),
  APP_SECRET: z.string().min(32, 'APP_SECRET must be at least 32 characters').optional(),
  RESEND_API_KEY: z.string().optional(),
  RESEND_BASE_URL: z.string().url().optional(),
  EMAIL_FROM: z.string().default('Brandcard <no-reply@brandcard.localhost>'),
  // How many proxies in front of the app to believe (0 or unset: none; 1 or true: one, such as
  // Caddy beside it): app/validation/trusted-proxy.ts reads only the forwarded entries they wrote.
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, context) => {
      const hops = parseTrustedHops(value)
      if (hops !== null) return hops
      context.addIssue({
        code: z.ZodIssueCode.custom,
        message: `TRUST_PROXY must be a hop count (0-${MAX_TRUSTED_HOPS}) or true/false`,
      })
      return z.NEVER
    }),
  // How links in emails and QR codes reach the app (defaults: http with PORT for local root
  // domains such as localhost, https without a port otherwise).
  PUBLIC_URL_SCHEME: z.enum(['http', 'https']).optional(),
  PUBLIC_URL_PORT: z
    .string()
    .regex(/^\d{1,5}$/)
    .optional(),
  SEED_DEMO: z.enum(['0', '1']).optional(),
  // /dev/outbox in production (super admins on the platform host, ADR 028). Unset: on for the
  // embedded demo (no DATABASE_URL), whose newcomer reads the password-reset email there, and off
  // on Postgres, a real deployment's; 0 or 1 decides either way (getEnv).
  OUTBOX_PAGE: z
    .enum(['0', '1', 'true', 'false', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? undefined : v === '1' || v === 'true')),
  // Custom domains (ADR 016): the DNS server asked for verification records (host:port; the
  // system's resolvers when unset), the host agencies point their CNAME at, and how often the
  // background re-check runs (0 turns it off).
  DNS_RESOLVER: z
    .string()
    .regex(/^[0-9a-f.:[\]]+$/i, 'DNS_RESOLVER must be an address such as 127.0.0.1:53')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  CUSTOM_DOMAIN_CNAME_TARGET: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9.-]+$/)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  // Who may ask whether a host gets a certificate (/api/domains/allowed, Caddy's on-demand TLS
  // `ask`): comma-separated addresses or CIDR ranges of the proxy, or `*` for anyone. Loopback by
  // default: the documented deployment runs Caddy on the app's machine, and a list of every
  // served domain is nobody else's business (deploy/Caddyfile, README "Deployment").
  DOMAINS_ASK_ALLOWED_FROM: z
    .string()
    .trim()
    .default('127.0.0.1,::1')
    .refine(
      (value) => value === '*' || value.split(',').every((entry) => isAddressOrRange(entry.trim())),
      'DOMAINS_ASK_ALLOWED_FROM must be * or addresses/CIDR ranges such as 127.0.0.1,::1,10.0.0.0/8',
    ),
  DOMAIN_RECHECK_SECONDS: z.coerce.number().int().min(0).default(3600),
  // Agencies' sending domains (ADR 026): how often the provider is asked again about a verified
  // domain, and about one still pending (0 turns that check off).
  SENDING_DOMAIN_RECHECK_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .default(6 * 3600),
  SENDING_DOMAIN_PENDING_RECHECK_SECONDS: z.coerce.number().int().min(0).default(600),
  // The job queue: how often an idle worker looks for due jobs (0: no worker in this process)
  // and the first retry's delay, doubled on each further attempt.
  JOB_POLL_MS: z.coerce.number().int().min(0).default(1000),
  JOB_RETRY_BASE_MS: z.coerce.number().int().min(0).default(10_000),
  // How long a running job stays its worker's without a sign of life (renewed every third).
  JOB_LEASE_MS: z.coerce.number().int().min(300).default(60_000),
  // How long a host's tenant and the platform settings are kept in memory before they are read
  // again. During a database outage the last ones read keep serving, however old (ADR 032).
  TENANT_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000),
  // How long a deleted account's short links and name link stay with the agency's forwarding
  // before anyone may claim them again (issue 39 point 3, ADR 058).
  DEPARTED_LINK_QUARANTINE_DAYS: z.coerce.number().int().min(0).max(3650).default(90),
  // How many daily dumps in DATA_DIR/backups the backup job keeps (ADR 018); 0: no daily job.
  BACKUP_RETENTION: z.coerce.number().int().min(0).default(7),
  // The hour (UTC) the daily backup runs.
  BACKUP_HOUR_UTC: z.coerce.number().int().min(0).max(23).default(3),
  // Stored images (ADR 029): how many megabytes one user's uploads and one agency's may hold.
  MEDIA_QUOTA_USER_MB: z.coerce.number().positive().default(DEFAULT_MEDIA_QUOTA_USER_MB),
  MEDIA_QUOTA_TENANT_MB: z.coerce.number().positive().default(DEFAULT_MEDIA_QUOTA_TENANT_MB),
  // The GoHighLevel API (a local fake in tests) and how long one call may take.
  GOHIGHLEVEL_API_URL: z.string().url().default('https://services.leadconnectorhq.com'),
  CRM_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  // HubSpot's API (a local fake in tests). Salesforce has no such setting: each user types their
  // org's My Domain URL (ADR 094).
  HUBSPOT_API_URL: z.string().url().default('https://api.hubapi.com'),
  // Whether a Salesforce URL may be plain http on this machine's loopback (the tests' fake).
  // Unset: yes outside production, no in production, where only Salesforce's own https domains
  // are reached.
  CRM_ALLOW_HTTP_LOOPBACK: z.enum(['0', '1']).optional(),
  // How long any other call to a third party (email provider, Stripe, Google Wallet, APNs, DNS)
  // may take, the whole exchange, before it is abandoned (app/utils/outside-call.server.ts).
  OUTSIDE_CALL_DEADLINE_MS: z.coerce.number().int().min(50).default(10_000),
  // Whether an identity provider may be reached over plain http on this machine's loopback
  // (the tests' local IdPs). Unset: yes outside production, no in production, where an agency
  // admin's URL must not reach the server's own services.
  SSO_ALLOW_HTTP_LOOPBACK: z.enum(['0', '1']).optional(),
  // Webhooks (ADR 093): `1` lets an endpoint be on a private, loopback or link-local address and
  // over plain http (development and tests); anything else refuses them, checked on the address
  // each connection uses. The first retry's delay (quadrupled per attempt, capped at 12 hours,
  // with jitter); only tests shorten it.
  WEBHOOK_ALLOW_PRIVATE: z.enum(['0', '1']).optional(),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(0).default(30_000),
  // Apple Wallet passes (issue 29, ADR 042): the pass type and team identifiers, and the PEM
  // files of the pass certificate, its key (with its passphrase, if any) and Apple's WWDR
  // intermediate. All five or the feature is off (app/cards/apple-config.server.ts). APNs is
  // reached at APPLE_APNS_URL (a local fake in tests).
  APPLE_PASS_TYPE_ID: optionalText(),
  APPLE_TEAM_ID: optionalText(),
  APPLE_PASS_CERT: optionalText(),
  APPLE_PASS_KEY: optionalText(),
  APPLE_PASS_KEY_PASSPHRASE: optionalText(),
  APPLE_WWDR_CERT: optionalText(),
  APPLE_APNS_URL: z.string().url().default('https://api.push.apple.com'),
  // Google Wallet (issue 29, ADR 043): the issuer id from the Wallet console and the path of the
  // service account's JSON key. Without both, the save link is hidden and its route answers 404.
  // The REST API's base URL is a local fake in tests.
  GOOGLE_WALLET_ISSUER_ID: z
    .string()
    .trim()
    .regex(/^\d{1,32}$/, 'GOOGLE_WALLET_ISSUER_ID must be the issuer id, digits only')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  GOOGLE_WALLET_KEY: z
    .string()
    .trim()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  GOOGLE_WALLET_API_URL: z.string().url().default('https://walletobjects.googleapis.com'),
  // Stripe (issue 31 point 5, ADR 051): the secret key, the webhook endpoint's signing secret
  // and the monthly prices of the two team plans. Without all four, nobody pays online and paid
  // plans are granted by admins (ADR 030). The API is reached at STRIPE_API_URL (a local fake in
  // tests).
  STRIPE_SECRET_KEY: optionalText(),
  STRIPE_WEBHOOK_SECRET: optionalText(),
  STRIPE_PRICE_TEAM_BASIC: optionalText(),
  STRIPE_PRICE_TEAM_PRO: optionalText(),
  // Optional beside the four: without one, that plan is not sold online (admins grant it).
  STRIPE_PRICE_AGENCY_PRO: optionalText(),
  STRIPE_PRICE_TEAM_MEMBER_BASIC: optionalText(),
  STRIPE_API_URL: z.string().url().default('https://api.stripe.com'),
  // Below this much free space on DATA_DIR's disk the embedded database takes no more writes:
  // health 503, writes 503, background writers wait (ADR 033); 0 turns the check off.
  DISK_MIN_FREE_MB: z.coerce.number().int().min(0).default(256),
  // The embedded database fsyncs each commit; `off` only for throwaway demos (ADR 033). Read by
  // drizzle/db.server.ts, which opens PGlite before the environment is parsed.
  PGLITE_FSYNC: z.enum(['on', 'off']).default('on'),
  // How long a SIGTERM may take, drain window included: then the process is ended, by itself or
  // by its supervisor if the event loop is stuck (ADR 033).
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).default(25_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  // Observability (ADR 097). Metrics on a listener of their own (loopback unless METRICS_HOST
  // says otherwise), and/or at /metrics on the main port for the bearer of METRICS_TOKEN.
  METRICS_PORT: z
    .string()
    .trim()
    .regex(/^(\d{1,5})?$/, 'METRICS_PORT must be a port number')
    .optional(),
  METRICS_HOST: optionalText(),
  METRICS_TOKEN: optionalText().refine(
    (value) => value === undefined || value.length >= 24,
    'METRICS_TOKEN must be at least 24 characters (openssl rand -hex 24)',
  ),
  // A unit of database work slower than this logs one warn line with its statements (no values).
  SLOW_QUERY_MS: z
    .string()
    .trim()
    .regex(/^(\d+|off)?$/i, 'SLOW_QUERY_MS must be milliseconds or off')
    .optional(),
  // Tracing is on when one of these names where spans go; read by the OpenTelemetry SDK itself.
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalText(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalText(),
  OTEL_TRACES_EXPORTER: optionalText(),
  OTEL_SERVICE_NAME: optionalText(),
  OTEL_SDK_DISABLED: optionalText(),
})

function isAddressOrRange(entry: string) {
  const [address = '', bits, ...rest] = entry.split('/')
  const family = isIP(address)
  if (!family || rest.length > 0) return false
  if (bits === undefined) return true
  const prefix = Number(bits)
  return /^\d{1,3}$/.test(bits) && prefix <= (family === 4 ? 32 : 128)
}

export type Env = Omit<z.infer<typeof schema>, 'OUTBOX_PAGE'> & {
  APP_SECRET: string
  OUTBOX_PAGE: boolean
}

let cached: Env | undefined

export function getEnv(): Env {
  if (cached) return cached
  const parsed = schema.safeParse(process.env)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid environment:\n${problems.join('\n')}`)
  }
  const env = parsed.data
  if (!env.APP_SECRET && env.NODE_ENV === 'production' && env.DATABASE_URL) {
    throw new Error('APP_SECRET is required in production with DATABASE_URL')
  }
  cached = {
    ...env,
    APP_SECRET: env.APP_SECRET ?? loadOrCreateSecret(env.DATA_DIR),
    OUTBOX_PAGE: env.OUTBOX_PAGE ?? !env.DATABASE_URL,
  }
  return cached
}

/** For tests that change the environment between cases. */
export function resetEnvForTests() {
  cached = undefined
}

// Without APP_SECRET, a secret is generated once and kept beside the embedded database,
// so signatures survive restarts of a local or demo install.
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'app-secret')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const secret = randomBytes(32).toString('base64url')
  // Written whole under a name of this process's own, then linked into place: two processes
  // starting at once (a server and a backup, test workers) never read a half-written secret, and
  // the one that loses the race takes the winner's (link never replaces a file).
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
  writeFileSync(draft, secret, { mode: 0o600, flag: 'wx' })
  try {
    linkSync(draft, file)
    return secret
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return readFileSync(file, 'utf8').trim()
  } finally {
    rmSync(draft, { force: true })
  }
}
