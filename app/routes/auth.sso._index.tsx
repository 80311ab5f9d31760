import { getFormProps } from '@conform-to/react'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { requestTranslator } from '#app/auth/page-language.server'
import { serverActionOrFailure, useClientFailureToast } from '#app/components/client-failure'
import { FormField, FormMessage, useSchemaForm } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { useTranslate } from '#app/components/layout/use-translate'
import { StatusButton } from '#app/components/ui/status-button'
import { ssoSignInAction, ssoSignInLoader } from '#app/sso/sso-route.server'
import { translateEnglish, translator } from '#app/utils/i18n/translate'
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
const NO_INTENTS = {}

export default function SsoSignInPage() {
  const { redirectTo, email } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const t = useTranslate()
  useClientFailureToast(actionData, NO_INTENTS, t('sso.failure'))
  const navigation = useNavigation()
  const [form, fields] = useSchemaForm(SsoSignInSchema, {
    id: 'sso-sign-in',
    lastResult: actionData && 'result' in actionData ? actionData.result : undefined,
    defaultValue: { email },
    translate: (message) => translateEnglish(message, t),
  })
  return (
    <AuthCard
      title={t('sso.pageTitle')}
      description={t('sso.description')}
      footer={
        <Link
          to={redirectTo ? `/auth/login?${new URLSearchParams({ redirectTo })}` : '/auth/login'}
          className="font-medium text-brand-text underline-offset-4 hover:underline"
        >
          {t('sso.passwordInstead')}
        </Link>
      }
    >
      <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
        {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <input type="hidden" name="redirectTo" value={redirectTo ?? ''} />
        <FormField
          label={t('sso.workEmail')}
          field={fields.email}
          type="email"
          autoComplete="email"
          autoFocus
        />
        <StatusButton pending={navigation.state !== 'idle'} pendingText={t('sso.redirecting')}>
          {t('sso.continue')}
        </StatusButton>
      </Form>
    </AuthCard>
  )
}
