import type { ActionFunctionArgs } from '@remix-run/node'
import { useSearchParams } from '@remix-run/react'
import { registerAccount, signInCreatedAccount } from '#app/auth/accounts.server'
import { anonymousAction, anonymousLoader } from '#app/auth/anonymous-route.server'
import { safeRedirectPath } from '#app/auth/redirect'
import {
  AuthEmailField,
  AuthFooterLink,
  AuthForm,
  useAuthForm,
} from '#app/components/auth/auth-form'
import { translatedBrandedTitle } from '#app/components/auth/page-title'
import { serverActionOrFailure } from '#app/components/client-failure'
import { FormField, NameFields } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { useRootData } from '#app/components/layout/root-data'
import { SignUpAgreement } from '#app/components/layout/site-footer'
import { Refusal } from '#app/utils/action-error'
import { translatedPageHeaders } from '#app/utils/route-headers'
import { ACCOUNT_EXISTS_MESSAGE, RegisterSchema } from '#app/validation/auth'
import { PASSWORD_MIN_LENGTH } from '#app/validation/passwords'

export const meta = translatedBrandedTitle('signUp.pageTitle')
export const headers = translatedPageHeaders
export const loader = anonymousLoader

export const action = ({ request, context }: ActionFunctionArgs) =>
  anonymousAction(request, context, {
    schema: RegisterSchema,
    hideFields: ['password'],
    redirectTo: '/onboarding',
    handle: async (value, { tenant, t }, formData) => {
      const outcome = await registerAccount(tenant, value, context.clientIp ?? 'unknown')
      if (outcome.status === 'existing') {
        return new Refusal('conflict', ACCOUNT_EXISTS_MESSAGE, { field: 'email' })
      }
      // Signed in at once (ADR 071): the wizard next, or where the person was going (a card they
      // came to connect with).
      const signedIn = await signInCreatedAccount(tenant, outcome.user)
      const headers = new Headers()
      headers.append('Set-Cookie', signedIn.session.cookie)
      headers.append('Set-Cookie', signedIn.deviceCookie)
      return {
        toast: t('signUp.created'),
        redirectTo: safeRedirectPath(formData.get('redirectTo')) ?? '/onboarding',
        headers,
      }
    },
  })

// A request that fails on the client (network, 5xx) keeps the form and says so (spec §8).
export const clientAction = serverActionOrFailure

export default function RegisterPage() {
  const [searchParams] = useSearchParams()
  const legal = useRootData()?.branding.legal
  const { t, form, fields } = useAuthForm(RegisterSchema, {
    id: 'register',
    failure: 'signUp.failure',
    // An invitation link sends its address along, so the account is made for it.
    defaultValue: { email: searchParams.get('email') ?? '' },
  })
  return (
    <AuthCard
      title={t('signUp.title')}
      description={t('signUp.description')}
      footer={
        <>
          {t('signUp.haveAccount')}{' '}
          <AuthFooterLink to="/auth/login">{t('signUp.signIn')}</AuthFooterLink>
        </>
      }
    >
      <AuthForm
        form={form}
        pendingText={t('signUp.creating')}
        submit={t('signUp.submit')}
        after={legal ? <SignUpAgreement legal={legal} /> : null}
      >
        <input type="hidden" name="redirectTo" value={searchParams.get('redirectTo') ?? ''} />
        <div className="grid gap-4 sm:grid-cols-2">
          <NameFields fields={fields} />
        </div>
        <AuthEmailField field={fields.email} />
        <FormField
          label={t('signIn.password')}
          hint={t('signUp.passwordHint', { count: PASSWORD_MIN_LENGTH })}
          field={fields.password}
          type="password"
          autoComplete="new-password"
        />
        <FormField label={t('signUp.company')} field={fields.company} autoComplete="organization" />
      </AuthForm>
    </AuthCard>
  )
}
