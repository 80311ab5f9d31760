import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData, useNavigation } from '@remix-run/react'
import { requestTranslator } from '#app/auth/page-language.server'
import {
  AuthEmailField,
  AuthFooterLink,
  AuthForm,
  useAuthForm,
} from '#app/components/auth/auth-form'
import { serverActionOrFailure } from '#app/components/client-failure'
import { AuthCard } from '#app/components/layout/auth-card'
import { ssoSignInAction, ssoSignInLoader } from '#app/sso/sso-route.server'
import { translator } from '#app/utils/i18n/translate'
import { translatedPageHeaders } from '#app/utils/route-headers'
import { type Language, SOURCE_LANGUAGE } from '#app/validation/languages'
import { SsoSignInSchema } from '#app/validation/sso'

// The page's language, which the root loader chose (ADR 105).
export const meta: MetaFunction = ({ matches }) => {
  const root = matches[0]?.data as { branding?: { name: string }; language?: Language } | undefined
  const t = translator(root?.language ?? SOURCE_LANGUAGE)
  return [{ title: `${t('sso.pageTitle')} · ${root?.branding?.name ?? ''}` }]
}

export const headers = translatedPageHeaders

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  ssoSignInLoader(request, context)

export const action = async ({ request, context }: ActionFunctionArgs) =>
  ssoSignInAction(request, context, (await requestTranslator(request, context)).translate)

// A request that fails on the client (network, 5xx) keeps the form and says so (spec §8).
export const clientAction = serverActionOrFailure

export default function SsoSignInPage() {
  const { redirectTo, email } = useLoaderData<typeof loader>()
  const { t, form, fields } = useAuthForm(SsoSignInSchema, {
    id: 'sso-sign-in',
    failure: 'sso.failure',
    defaultValue: { email },
  })
  const navigation = useNavigation()
  return (
    <AuthCard
      title={t('sso.pageTitle')}
      description={t('sso.description')}
      footer={
        <AuthFooterLink
          to={redirectTo ? `/auth/login?${new URLSearchParams({ redirectTo })}` : '/auth/login'}
        >
          {t('sso.passwordInstead')}
        </AuthFooterLink>
      }
    >
      {/* Pending until the identity provider's page opens, not only while the form is posted. */}
      <AuthForm
        form={form}
        pending={navigation.state !== 'idle'}
        pendingText={t('sso.redirecting')}
        submit={t('sso.continue')}
      >
        <input type="hidden" name="redirectTo" value={redirectTo ?? ''} />
        <AuthEmailField label={t('sso.workEmail')} field={fields.email} autoFocus />
      </AuthForm>
    </AuthCard>
  )
}
