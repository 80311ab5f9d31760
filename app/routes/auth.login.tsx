import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { signIn } from '#app/auth/accounts.server'
import { anonymousAction } from '#app/auth/anonymous-route.server'
import { requireAnonymous } from '#app/auth/guards.server'
import { requestTranslator, translatedSignedInToast } from '#app/auth/page-language.server'
import { safeRedirectPath } from '#app/auth/redirect'
import { signInInfo } from '#app/cards/connect-info.server'
import {
  AuthEmailField,
  AuthFooterLink,
  AuthForm,
  useAuthForm,
} from '#app/components/auth/auth-form'
import { translatedBrandedTitle } from '#app/components/auth/page-title'
import { serverActionOrFailure } from '#app/components/client-failure'
import { FormField } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { Button } from '#app/components/ui/button'
import { rateLimitMessage } from '#app/rate-limits/rate-limit.server'
import { offersSsoSignIn } from '#app/sso/sso-sign-in.server'
import { isRefusal, Refusal } from '#app/utils/action-error'
import { translatedPageHeaders } from '#app/utils/route-headers'
import { LoginSchema } from '#app/validation/auth'
import { rolePaths } from '#app/validation/roles'

export const meta = translatedBrandedTitle('signIn.pageTitle')
export const headers = translatedPageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant } = await requireAnonymous(request, context)
  const { t } = await requestTranslator(request, context)
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get('redirectTo'))
  return {
    redirectTo,
    info: await signInInfo(tenant, redirectTo, t),
    sso: await offersSsoSignIn(tenant),
  }
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  anonymousAction(request, context, {
    schema: LoginSchema,
    hideFields: ['password'],
    redirectTo: '/',
    handle: async (value, { tenant, t }) => {
      const signedIn = await signIn(tenant, value, context.clientIp ?? 'unknown', request).catch(
        (error) => {
          // The sign-in limit's own words, whatever the limit that was met.
          if (isRefusal(error, 'rate_limited'))
            throw new Refusal('rate_limited', rateLimitMessage(error.retryAfterSeconds), {
              retryAfterSeconds: error.retryAfterSeconds,
            })
          throw error
        },
      )
      // One message for an unknown email and a wrong password: no account enumeration.
      if (!signedIn) {
        return new Refusal('unauthenticated', t('signIn.failed'))
      }
      const headers = new Headers()
      headers.append('Set-Cookie', signedIn.session.cookie)
      headers.append('Set-Cookie', signedIn.deviceCookie)
      return {
        ...translatedSignedInToast(signedIn, t),
        redirectTo: safeRedirectPath(value.redirectTo) ?? rolePaths(signedIn.user.role).dashboard,
        headers,
      }
    },
  })

// A request that fails on the client (network, 5xx) keeps the form and says so (spec §8).
export const clientAction = serverActionOrFailure

export default function LoginPage() {
  const { redirectTo, info, sso } = useLoaderData<typeof loader>()
  const { t, form, fields } = useAuthForm(LoginSchema, { id: 'login', failure: 'signIn.failure' })
  const registerHref = redirectTo
    ? `/auth/register?${new URLSearchParams({ redirectTo })}`
    : '/auth/register'
  return (
    <AuthCard
      title={t('signIn.title')}
      description={t('signIn.description')}
      footer={
        <>
          {t('signIn.signUpPrompt')}{' '}
          <AuthFooterLink to={registerHref}>{t('signIn.signUp')}</AuthFooterLink>
        </>
      }
    >
      <AuthForm
        form={form}
        notice={info}
        pendingText={t('signIn.signingIn')}
        submit={t('signIn.submit')}
      >
        <input type="hidden" name="redirectTo" value={redirectTo ?? ''} />
        <AuthEmailField field={fields.email} autoFocus />
        <FormField
          label={t('signIn.password')}
          field={fields.password}
          type="password"
          autoComplete="current-password"
        />
        <div className="flex justify-end">
          <Link
            to="/auth/forgot-password"
            className="text-sm text-brand-text underline-offset-4 hover:underline"
          >
            {t('signIn.forgotPassword')}
          </Link>
        </div>
      </AuthForm>
      {/* The agency's single sign-on (ADR 088), once some address here can use it. */}
      {sso ? (
        <div className="mt-4 flex flex-col gap-2 border-t border-gray-200 pt-4 dark:border-gray-800">
          <Button asChild variant="secondary">
            <Link
              to={redirectTo ? `/auth/sso?${new URLSearchParams({ redirectTo })}` : '/auth/sso'}
            >
              {t('signIn.sso')}
            </Link>
          </Button>
        </div>
      ) : null}
    </AuthCard>
  )
}
