import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { formAction } from '#app/actions/intent-action.server'
import { isResetTokenUsable, resetPassword } from '#app/auth/accounts.server'
import { requestTranslator } from '#app/auth/page-language.server'
import { AuthForm, useAuthForm } from '#app/components/auth/auth-form'
import { translatedTitle } from '#app/components/auth/page-title'
import { serverActionOrFailure } from '#app/components/client-failure'
import { NewPasswordFields } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { useTranslate } from '#app/components/layout/use-translate'
import { Button } from '#app/components/ui/button'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { Refusal } from '#app/utils/action-error'
import { en } from '#app/utils/i18n/catalogue-en'
import { TOKEN_PAGE_HEADERS, translatedTokenPageHeaders } from '#app/utils/route-headers'
import { ResetPasswordSchema } from '#app/validation/auth'

export const headers = translatedTokenPageHeaders

export const meta = translatedTitle('reset.pageTitle')

const TOKEN = /^[a-z2-7]{52}$/
const INVALID_LINK_MESSAGE = en['reset.invalidLink']

export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = await requireTenant(context)
  const token = new URL(request.url).searchParams.get('token') ?? ''
  const valid = TOKEN.test(token) && (await isResetTokenUsable(tenant, token))
  return data({ token: valid ? token : null }, { headers: TOKEN_PAGE_HEADERS })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { t, translate } = await requestTranslator(request, context)
  return formAction(request, {
    translate,
    guard: () => requireTenant(context),
    schema: ResetPasswordSchema,
    hideFields: ['password', 'confirmPassword'],
    headers: TOKEN_PAGE_HEADERS,
    redirectTo: '/auth/login',
    handle: async ({ token, password }, tenant) => {
      const done = TOKEN.test(token) && (await resetPassword(tenant, token, password))
      if (!done) return new Refusal('invalid', INVALID_LINK_MESSAGE)
      return t('reset.done')
    },
  })
}

function InvalidLink() {
  const t = useTranslate()
  return (
    <AuthCard title={t('reset.invalidTitle')} description={t('reset.invalidLink')}>
      <Button asChild className="w-full">
        <Link to="/auth/forgot-password">{t('reset.requestNew')}</Link>
      </Button>
    </AuthCard>
  )
}

// A request that fails on the client (network, 5xx) keeps the form and says so (spec §8).
export const clientAction = serverActionOrFailure

export default function ResetPasswordPage() {
  const { token } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t, form, fields } = useAuthForm(ResetPasswordSchema, {
    id: 'reset-password',
    failure: 'reset.failure',
  })
  // Only the link's refusal (in the page's language, as the action said it) turns the page
  // into the invalid-link state.
  if (!token || actionData?.error === t('reset.invalidLink')) return <InvalidLink />
  return (
    <AuthCard title={t('reset.title')} description={t('reset.description')}>
      <AuthForm form={form} pendingText={t('reset.resetting')} submit={t('reset.submit')}>
        <input type="hidden" name="token" value={token} />
        <NewPasswordFields fields={fields} />
      </AuthForm>
    </AuthCard>
  )
}
