// The sign-in side of single sign-on (issue 42 point 1, ADR 088): /auth/sso, where a person
// types their address and is sent to the agency's identity provider, and /auth/sso/callback,
// where the provider sends them back. The flow is ./sso-sign-in.server.ts's.
import { type AppLoadContext, data } from '@remix-run/node'
import { formAction } from '#app/actions/intent-action.server'
import { getOptionalUser, requireAnonymous } from '#app/auth/guards.server'
import { safeRedirectPath } from '#app/auth/redirect'
import { addressLimitKey, hitOrRefuseIn } from '#app/rate-limits/rate-limit.server'
import { redirectWithToast } from '#app/utils/toast.server'
import { signedInToast } from '#app/validation/account-deletion'
import { SsoSignInSchema } from '#app/validation/sso'
import { withDatabase } from '#drizzle/db.server'
import { clearedFlowCookie, finishSso, startSsoSignIn } from './sso-sign-in.server'

export async function ssoSignInLoader(request: Request, context: AppLoadContext) {
  await requireAnonymous(request, context)
  const url = new URL(request.url)
  return {
    redirectTo: safeRedirectPath(url.searchParams.get('redirectTo')),
    email: url.searchParams.get('email')?.slice(0, 254) ?? '',
  }
}

export async function ssoSignInAction(
  request: Request,
  context: AppLoadContext,
  /** The page's language for its messages (ADR 105). */
  translate?: (message: string) => string,
) {
  return formAction(request, {
    translate,
    guard: () => requireAnonymous(request, context),
    schema: SsoSignInSchema,
    redirectTo: '/auth/sso',
    handle: async ({ email, redirectTo }, { tenant }) => {
      // Counted before anything is written or fetched for the attempt; a refusal is a 429.
      await withDatabase((tx) =>
        hitOrRefuseIn(
          tx,
          'ssoStartIp',
          addressLimitKey('ssoStartIp', context.clientIp ?? 'unknown'),
        ),
      )
      const started = await startSsoSignIn(tenant, email, safeRedirectPath(redirectTo))
      return { redirectTo: started.url, headers: { 'Set-Cookie': started.cookie } }
    },
  })
}

const NO_STORE = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }

/**
 * The provider's redirect back. A sign-in lands on the dashboard (or the second step it still
 * owes); a refusal and the admin's test are shown on the page. The flow cookie is cleared
 * whatever the outcome: an attempt's answer is read once.
 */
export async function ssoCallbackLoader(request: Request, context: AppLoadContext) {
  // Only a fully signed-in admin sees a test's claims (a session owing a step counts as nobody).
  const { tenant, user } = await getOptionalUser(request, context)
  const outcome = await finishSso(request, tenant, user)
  const headers = new Headers(NO_STORE)
  headers.append('Set-Cookie', clearedFlowCookie())
  if (outcome.kind === 'signed-in') {
    headers.append('Set-Cookie', outcome.cookie)
    if (!outcome.twoFactorVerified) {
      return redirectWithToast(
        outcome.redirectTo,
        { type: 'info', title: 'Signed in with SSO: one more step' },
        { headers },
      )
    }
    const toast = signedInToast(outcome)
    return redirectWithToast(
      outcome.redirectTo,
      {
        type: toast.type ?? 'success',
        title: toast.toast,
        ...('description' in toast ? { description: toast.description } : {}),
      },
      { headers },
    )
  }
  if (outcome.kind === 'tested') {
    return data(
      {
        kind: 'tested' as const,
        providerName: outcome.providerName,
        verdict: outcome.verdict,
        claims: JSON.parse(JSON.stringify(outcome.claims)) as Record<string, unknown>,
        message: null,
      },
      { headers },
    )
  }
  return data(
    {
      kind: 'refused' as const,
      message: outcome.message,
      providerName: null,
      verdict: null,
      claims: null,
    },
    { status: 400, headers },
  )
}
