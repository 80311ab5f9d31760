import { getFormProps, useForm } from '@conform-to/react'
import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { formAction } from '#app/actions/intent-action.server'
import { confirmEmail, isConfirmationTokenUsable } from '#app/auth/email-confirmation.server'
import { getOptionalUser } from '#app/auth/guards.server'
import { requestTranslator } from '#app/auth/page-language.server'
import { FORM_VALIDATION, FormMessage, withEveryError } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { ResendConfirmationForm } from '#app/components/layout/email-confirmation-banner'
import { useTranslate } from '#app/components/layout/use-translate'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'
import { Refusal } from '#app/utils/action-error'
import { rootTranslator } from '#app/utils/i18n/translate'
import { TOKEN_PAGE_HEADERS, translatedTokenPageHeaders } from '#app/utils/route-headers'
import {
  ConfirmEmailSchema,
  INVALID_CONFIRMATION_MESSAGE,
} from '#app/validation/email-confirmation'
import { rolePaths } from '#app/validation/roles'

export const headers = translatedTokenPageHeaders

// The page's language, which the root loader chose (ADR 105).
export const meta: MetaFunction = ({ matches }) => [
  { title: rootTranslator(matches)('confirmEmail.title') },
]

// Opening the link only shows a button; the POST confirms (ADR 008): mail scanners and link
// previews fetch links, and must neither confirm an address nor use up the owner's link.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant, user } = await getOptionalUser(request, context)
  const token = new URL(request.url).searchParams.get('token') ?? ''
  const valid = await isConfirmationTokenUsable(tenant, token)
  return data(
    {
      token: valid ? token : null,
      // What the refusal offers: a new link for a signed-in, unconfirmed user; else sign in.
      viewer: user ? { confirmed: Boolean(user.emailConfirmedAt) } : null,
    },
    { headers: TOKEN_PAGE_HEADERS },
  )
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { t, translate } = await requestTranslator(request, context)
  return formAction(request, {
    translate,
    // No sign-in needed (the mail may be opened on another device); the tenant is the host's.
    guard: () => getOptionalUser(request, context),
    schema: ConfirmEmailSchema,
    headers: TOKEN_PAGE_HEADERS,
    redirectTo: '/auth/login',
    handle: async ({ token }, { tenant, user }) => {
      const confirmed = await confirmEmail(tenant, token)
      if (!confirmed) return new Refusal('invalid', INVALID_CONFIRMATION_MESSAGE)
      return {
        toast: t('confirmEmail.confirmed'),
        redirectTo: user ? rolePaths(user.role).dashboard : '/auth/login',
      }
    },
  })
}

function InvalidLink({ viewer }: { viewer: { confirmed: boolean } | null }) {
  const t = useTranslate()
  return (
    <AuthCard title={t('confirmEmail.invalidTitle')} description={t('confirmEmail.invalid')}>
      {viewer && !viewer.confirmed ? (
        <ResendConfirmationForm redirectTo="/profile" className="w-full" />
      ) : viewer ? (
        <div className="flex flex-col gap-4">
          <p className="text-sm text-gray-700 dark:text-gray-300">
            {t('confirmEmail.alreadyConfirmed')}
          </p>
          <Button asChild className="w-full">
            <Link to="/profile">{t('confirmEmail.toProfile')}</Link>
          </Button>
        </div>
      ) : (
        <div className="flex flex-col gap-4">
          <p className="text-sm text-gray-700 dark:text-gray-300">
            {t('confirmEmail.signInForNew')}
          </p>
          <Button asChild className="w-full">
            <Link to={`/auth/login?${new URLSearchParams({ redirectTo: '/profile' })}`}>
              {t('confirmEmail.signInForLink')}
            </Link>
          </Button>
        </div>
      )}
    </AuthCard>
  )
}

export default function ConfirmEmailPage() {
  const { token, viewer } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const t = useTranslate()
  const [form] = withEveryError(
    useForm({
      id: 'confirm-email',
      lastResult: actionData?.result,
      ...FORM_VALIDATION,
    }),
  )
  // Every refusal of this one-button form means the link cannot be used.
  if (!token || actionData?.error) return <InvalidLink viewer={viewer} />
  return (
    <AuthCard title={t('confirmEmail.title')} description={t('confirmEmail.description')}>
      <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
        {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <input type="hidden" name="token" value={token} />
        <StatusButton
          pending={navigation.state === 'submitting'}
          pendingText={t('confirmEmail.confirming')}
        >
          {t('confirmEmail.submit')}
        </StatusButton>
      </Form>
    </AuthCard>
  )
}
