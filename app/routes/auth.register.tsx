import { getFormProps } from '@conform-to/react'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useNavigation, useSearchParams } from '@remix-run/react'
import { registerAccount, signInCreatedAccount } from '#app/auth/accounts.server'
import { anonymousAction, anonymousLoader } from '#app/auth/anonymous-route.server'
import { requestTranslator } from '#app/auth/page-language.server'
import { safeRedirectPath } from '#app/auth/redirect'
import { serverActionOrFailure, useClientFailureToast } from '#app/components/client-failure'
import { FormField, FormMessage, NameFields, useSchemaForm } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { useRootData } from '#app/components/layout/root-data'
import { SignUpAgreement } from '#app/components/layout/site-footer'
import { useTranslate } from '#app/components/layout/use-translate'
import { StatusButton } from '#app/components/ui/status-button'
import { Refusal } from '#app/utils/action-error'
import { rootTranslator, translateEnglish } from '#app/utils/i18n/translate'
import { translatedPageHeaders } from '#app/utils/route-headers'
import { ACCOUNT_EXISTS_MESSAGE, RegisterSchema } from '#app/validation/auth'
import { PASSWORD_MIN_LENGTH } from '#app/validation/passwords'

export const meta: MetaFunction = ({ matches }) => {
  const name = (matches[0]?.data as { branding?: { name: string } } | undefined)?.branding?.name
  // The page's language, which the root loader chose (ADR 105).
  return [{ title: rootTranslator(matches)('signUp.pageTitle', { name: name ?? '' }) }]
}

export const headers = translatedPageHeaders
export const loader = ({ request, context }: LoaderFunctionArgs) =>
  anonymousLoader(request, context)

export async function action({ request, context }: ActionFunctionArgs) {
  const { t, translate } = await requestTranslator(request, context)
  return anonymousAction(request, context, {
    translate,
    schema: RegisterSchema,
    hideFields: ['password'],
    redirectTo: '/onboarding',
    handle: async (value, { tenant }, formData) => {
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
}

// A request that fails on the client (network, 5xx) keeps the form and says so (spec §8).
export const clientAction = serverActionOrFailure
const NO_INTENTS = {}

export default function RegisterPage() {
  const actionData = useActionData<typeof action>()
  const t = useTranslate()
  useClientFailureToast(actionData, NO_INTENTS, t('signUp.failure'))
  const navigation = useNavigation()
  const [searchParams] = useSearchParams()
  const legal = useRootData()?.branding.legal
  const [form, fields] = useSchemaForm(RegisterSchema, {
    id: 'register',
    lastResult: actionData?.result,
    // An invitation link sends its address along, so the account is made for it.
    defaultValue: { email: searchParams.get('email') ?? '' },
    translate: (message) => translateEnglish(message, t),
  })
  return (
    <AuthCard
      title={t('signUp.title')}
      description={t('signUp.description')}
      footer={
        <>
          {t('signUp.haveAccount')}{' '}
          <Link
            to="/auth/login"
            className="font-medium text-brand-text underline-offset-4 hover:underline"
          >
            {t('signUp.signIn')}
          </Link>
        </>
      }
    >
      <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
        {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <input type="hidden" name="redirectTo" value={searchParams.get('redirectTo') ?? ''} />
        <div className="grid gap-4 sm:grid-cols-2">
          <NameFields fields={fields} />
        </div>
        <FormField
          label={t('signIn.email')}
          field={fields.email}
          type="email"
          autoComplete="email"
        />
        <FormField
          label={t('signIn.password')}
          hint={t('signUp.passwordHint', { count: PASSWORD_MIN_LENGTH })}
          field={fields.password}
          type="password"
          autoComplete="new-password"
        />
        <FormField label={t('signUp.company')} field={fields.company} autoComplete="organization" />
        <StatusButton
          pending={navigation.state === 'submitting'}
          pendingText={t('signUp.creating')}
        >
          {t('signUp.submit')}
        </StatusButton>
        {legal ? <SignUpAgreement legal={legal} /> : null}
      </Form>
    </AuthCard>
  )
}
