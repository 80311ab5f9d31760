// The Salesforce REST API with a connected app's credentials (ADR 094): the OAuth 2.0 client
// credentials flow at the org's My Domain URL gives an access token for the app's run-as user,
// kept in memory until it expires (a 401 drops it and asks once more); leads are created,
// updated and deleted through the sObject REST API. The client secret and tokens are never
// logged.
import { createHash } from 'node:crypto'
import { getEnv } from '#app/env.server'
import {
  bodyOfCrmAnswer,
  CrmKeyRejectedError,
  CrmUnavailableError,
  crmMessage,
  exchangeJsonWithCrm,
  exchangeWithCrm,
  savedId,
  unlessGone,
} from './crm-call.server'

export const SALESFORCE_API_VERSION = 'v62.0'

/** How long a token is kept when Salesforce does not say (its token answer has no expires_in). */
const TOKEN_KEEP_MS = 30 * 60 * 1000

export type SalesforceAccount = { instanceUrl: string; clientId: string; clientSecret: string }

/** A Lead's fields by their API names (LastName and Company are required by Salesforce). */
export type SalesforceLead = Record<string, string>

/** Salesforce's own domains: the only hosts a typed My Domain URL may name (ADR 094). */
const SALESFORCE_DOMAINS = ['.salesforce.com', '.force.com', '.salesforce.mil', '.sfcrmproducts.cn']

function allowsHttpLoopback() {
  const env = getEnv()
  return env.CRM_ALLOW_HTTP_LOOPBACK
    ? env.CRM_ALLOW_HTTP_LOOPBACK === '1'
    : env.NODE_ENV !== 'production'
}

/**
 * Whether the server may call this Salesforce URL: https on one of Salesforce's own domains
 * (so a typed URL never leads into the server's own network), or plain http on this machine's
 * loopback where the tests' fake is allowed. No credentials in the URL.
 */
export function isReachableSalesforceUrl(url: URL) {
  if (url.username || url.password) return false
  const host = url.hostname.toLowerCase()
  if (url.protocol === 'https:') {
    return SALESFORCE_DOMAINS.some((domain) => host.endsWith(domain) && host.length > domain.length)
  }
  const loopback = host === '127.0.0.1' || host === 'localhost' || host === '[::1]'
  return url.protocol === 'http:' && loopback && allowsHttpLoopback()
}

type Token = { accessToken: string; instanceUrl: string; expiresAt: number }
const tokens = new Map<string, Token>()

const cacheKey = (account: SalesforceAccount) =>
  createHash('sha256')
    .update(`${account.instanceUrl}\n${account.clientId}\n${account.clientSecret}`)
    .digest('hex')

/** Tests: forget every cached token. */
export function forgetSalesforceTokens() {
  tokens.clear()
}

const field = (body: unknown, name: string) =>
  body && typeof body === 'object' && name in body
    ? (body as Record<string, unknown>)[name]
    : undefined

/** POST /services/oauth2/token with grant_type=client_credentials. */
async function requestToken(account: SalesforceAccount): Promise<Token> {
  const answer = await exchangeWithCrm(
    'Salesforce',
    new URL('/services/oauth2/token', account.instanceUrl),
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: account.clientId,
        client_secret: account.clientSecret,
      }).toString(),
    },
  )
  // Refusals come as 400 (or 401) with `{ error, error_description }`: invalid_client,
  // invalid_grant (no run-as user), unsupported_grant_type (the flow is not enabled).
  if (answer.status === 400 || answer.status === 401 || answer.status === 403) {
    const error = crmMessage(field(answer.body, 'error'), 'refused')
    const description = crmMessage(field(answer.body, 'error_description'), '')
    throw new CrmKeyRejectedError(
      `Salesforce refused the connected app's credentials (${error}${description ? `: ${description}` : ''})`,
    )
  }
  if (answer.status === 404) {
    throw new CrmKeyRejectedError('Salesforce has no token endpoint at this URL (404)')
  }
  if (answer.status !== 200) throw new CrmUnavailableError(`Salesforce answered ${answer.status}`)
  const accessToken = field(answer.body, 'access_token')
  if (typeof accessToken !== 'string' || !accessToken) {
    throw new CrmUnavailableError('Salesforce did not return an access token')
  }
  // The org's instance, when Salesforce names one the server may reach; else the typed URL.
  const named = field(answer.body, 'instance_url')
  let instanceUrl = new URL(account.instanceUrl).origin
  if (
    typeof named === 'string' &&
    URL.canParse(named) &&
    isReachableSalesforceUrl(new URL(named))
  ) {
    instanceUrl = new URL(named).origin
  }
  const expiresIn = Number(field(answer.body, 'expires_in'))
  const keepMs = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : TOKEN_KEEP_MS
  // A minute's margin, so a token is never used at the edge of its life.
  return { accessToken, instanceUrl, expiresAt: Date.now() + Math.max(keepMs - 60_000, 1000) }
}

async function tokenFor(account: SalesforceAccount, fresh: boolean) {
  const key = cacheKey(account)
  const cached = tokens.get(key)
  if (!fresh && cached && cached.expiresAt > Date.now()) return cached
  tokens.delete(key)
  const token = await requestToken(account)
  tokens.set(key, token)
  return token
}

/** The access token Salesforce no longer takes (expired or revoked): ask for a new one once. */
class SessionExpiredError extends Error {
  override name = 'SessionExpiredError'
}

/** Salesforce's REST error body: `[{ message, errorCode, fields }]`. */
function messageOf(body: unknown) {
  const first = Array.isArray(body) ? body[0] : undefined
  const message = field(first, 'message')
  const code = field(first, 'errorCode')
  return typeof message === 'string'
    ? `${typeof code === 'string' ? `${code}: ` : ''}${message}`
    : ''
}

async function rest(token: Token, method: string, path: string, body?: unknown) {
  const url = new URL(`/services/data/${SALESFORCE_API_VERSION}/${path}`, token.instanceUrl)
  const answer = await exchangeJsonWithCrm('Salesforce', url, token.accessToken, method, body)
  const { status } = answer
  if (status === 401) throw new SessionExpiredError('Salesforce: session expired or invalid')
  if (status === 403) {
    throw new CrmKeyRejectedError(
      `Salesforce refused the run-as user (403): ${crmMessage(messageOf(answer.body), 'insufficient access')}`,
    )
  }
  return bodyOfCrmAnswer('Salesforce', 'lead', answer, messageOf(answer.body))
}

/** Runs `work` with a token; when Salesforce no longer takes it, once more with a new one. */
async function withToken<T>(
  account: SalesforceAccount,
  work: (token: Token) => Promise<T>,
): Promise<T> {
  try {
    return await work(await tokenFor(account, false))
  } catch (error) {
    if (!(error instanceof SessionExpiredError)) throw error
  }
  try {
    return await work(await tokenFor(account, true))
  } catch (error) {
    if (error instanceof SessionExpiredError) {
      throw new CrmKeyRejectedError('Salesforce refused a new access token (401)')
    }
    throw error
  }
}

/** A token, and one cheap read of the Lead object: the credentials work and may see leads. */
export async function checkSalesforceConnection(account: SalesforceAccount) {
  await withToken(account, (token) => rest(token, 'GET', 'sobjects/Lead'))
}

/** SOQL string literal: backslashes and quotes escaped. */
const soqlString = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`

/**
 * Creates the lead, or updates the one already there: the lead Salesforce gave us an id for,
 * else an open (unconverted) lead with the same email. A job run twice leaves one lead.
 */
export async function saveSalesforceLead(
  account: SalesforceAccount,
  lead: SalesforceLead,
  knownId: string | null,
): Promise<string> {
  return withToken(account, async (token) => {
    let id = knownId
    if (!id && lead.Email) {
      const query = `SELECT Id FROM Lead WHERE Email = ${soqlString(lead.Email)} AND IsConverted = false ORDER BY CreatedDate DESC LIMIT 1`
      const found = (await rest(token, 'GET', `query?q=${encodeURIComponent(query)}`)) as {
        records?: { Id?: unknown }[]
      }
      const existing = found?.records?.[0]?.Id
      id = typeof existing === 'string' && existing ? existing : null
    }
    // Deleted in Salesforce since: a new one.
    if (
      id &&
      (await unlessGone(() =>
        rest(token, 'PATCH', `sobjects/Lead/${encodeURIComponent(id)}`, lead),
      ))
    ) {
      return id
    }
    const created = await rest(token, 'POST', 'sobjects/Lead', lead)
    return savedId(field(created, 'id'), 'Salesforce', 'lead')
  })
}

/** Deletes the lead; one Salesforce no longer has is as good as deleted. */
export async function deleteSalesforceLead(account: SalesforceAccount, leadId: string) {
  await withToken(account, async (token) => {
    await unlessGone(() => rest(token, 'DELETE', `sobjects/Lead/${encodeURIComponent(leadId)}`))
  })
}
