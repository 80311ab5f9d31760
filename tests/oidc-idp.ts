// A real OpenID Connect provider for tests (oidc-provider) on 127.0.0.1 at a random port: one
// confidential client, accounts the test adds, and an interaction that signs in whoever the test
// names next (with the `amr` it chooses) without a page. `signIn` plays the browser: it follows
// the provider's redirects with its cookies and returns the URL the provider sends back to.
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'

export type IdpAccount = {
  sub: string
  email: string
  email_verified?: boolean
  given_name?: string
  family_name?: string
}

export type TestIdp = {
  issuer: string
  clientId: string
  clientSecret: string
  /** Adds (or replaces) an account the provider can sign in. */
  addAccount(account: IdpAccount): void
  /**
   * Follows the authorization URL as a browser would, signing `sub` in with `amr`, and returns
   * the callback URL the provider redirects to (with its code and state).
   */
  signIn(authorizationUrl: string, sub: string, amr?: string[]): Promise<URL>
  /** Who the provider signs in at the next interaction a browser reaches (end-to-end specs). */
  nextSignIn(sub: string, amr?: string[]): void
  close(): Promise<void>
}

/** Cookies of one browser at the provider: name → value. */
class Jar {
  private cookies = new Map<string, string>()
  store(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';')
      const at = pair.indexOf('=')
      const name = pair.slice(0, at).trim()
      const value = pair.slice(at + 1).trim()
      if (value) this.cookies.set(name, value)
      else this.cookies.delete(name)
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }
}

export async function startTestIdp(redirectUris: string[]): Promise<TestIdp> {
  const accounts = new Map<string, IdpAccount>()
  let next: { sub: string; amr: string[] } | null = null
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const issuer = `http://127.0.0.1:${port}`
  const clientId = `brandcard-${randomBytes(4).toString('hex')}`
  const clientSecret = randomBytes(24).toString('base64url')
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' }
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        token_endpoint_auth_method: 'client_secret_basic',
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    jwks: { keys: [jwk as never] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: {
      // The authentication methods go in the ID token, as Entra's and Okta's do.
      openid: ['sub', 'amr', 'acr', 'auth_time'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'name'],
    },
    features: { devInteractions: { enabled: false } },
    // Short lives, said outright (the defaults are a production's, and it says so on every call).
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    async findAccount(_ctx: unknown, sub: string) {
      const account = accounts.get(sub)
      if (!account) return undefined
      return { accountId: sub, claims: async () => ({ ...account }) }
    },
  })
  provider.proxy = false
  const callback = provider.callback()
  server.on('request', async (req, res) => {
    const match = req.url?.match(/^\/interaction\/([^/?]+)/)
    if (!match) return callback(req, res)
    try {
      const details = await provider.interactionDetails(req, res)
      const login = next
      if (!login) {
        res.statusCode = 400
        res.end('no sign-in arranged')
        return
      }
      const grant = new provider.Grant({
        accountId: login.sub,
        clientId: String(details.params.client_id),
      })
      grant.addOIDCScope('openid email profile')
      const grantId = await grant.save()
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: login.sub, amr: login.amr }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      )
    } catch (error) {
      res.statusCode = 500
      res.end(String(error))
    }
  })

  async function signIn(authorizationUrl: string, sub: string, amr: string[] = ['pwd']) {
    next = { sub, amr }
    const jar = new Jar()
    let url = new URL(authorizationUrl)
    for (let hop = 0; hop < 10; hop++) {
      if (url.origin !== issuer) return url
      const response = await fetch(url, {
        redirect: 'manual',
        headers: { Cookie: jar.header() },
      })
      jar.store(response)
      const location = response.headers.get('location')
      if (!location) {
        throw new Error(`the provider answered ${response.status}: ${await response.text()}`)
      }
      url = new URL(location, url)
    }
    throw new Error('too many redirects at the provider')
  }

  return {
    issuer,
    clientId,
    clientSecret,
    addAccount: (account) => accounts.set(account.sub, account),
    nextSignIn: (sub, amr = ['pwd']) => {
      next = { sub, amr }
    },
    signIn,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
