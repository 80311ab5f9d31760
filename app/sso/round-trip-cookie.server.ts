// The cookies a sign-in keeps while the browser goes to the identity provider and back (ADR 088,
// ADR 090): the started flow's, and the SAML answer the ACS hands to the callback. In production
// they are `__Host-` cookies (this host only, https only); Lax, because the way back to the
// callback is a top-level GET, which carries them.
import { parse, serialize } from 'cookie'
import { getEnv } from '#app/env.server'

export function roundTripCookie(baseName: string) {
  const name = () => (getEnv().NODE_ENV === 'production' ? `__Host-${baseName}` : baseName)
  return {
    name,
    /** The Set-Cookie value for `value`, kept `maxAge` seconds (0 clears the cookie). */
    set: (value: string, maxAge: number) =>
      serialize(name(), value, {
        httpOnly: true,
        sameSite: 'lax',
        secure: getEnv().NODE_ENV === 'production',
        path: '/',
        maxAge,
      }),
    read: (request: Request) => parse(request.headers.get('Cookie') ?? '')[name()],
  }
}
