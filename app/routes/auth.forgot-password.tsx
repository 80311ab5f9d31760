import { getFormProps } from '@conform-to/react'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useNavigation } from '@remix-run/react'
import { requestPasswordReset } from '#app/auth/accounts.server'
import { anonymousAction, anonymousLoader } from '#app/auth/anonymous-route.server'
import { requestTranslator } from '#app/auth/page-language.server'
import { serverActionOrFailure, useClientFailureToast } from '#app/components/client-failure'
import { FormField, FormMessage, useSchemaForm } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { useTranslate } from '#app/components/layout/use-translate'
import { StatusButton } from '#app/components/ui/status-button'
import { rateLimitMessage } from '#app/rate-limits/rate-limit.server'
import { isRefusal, Refusal } from '#app/utils/action-error'
import { rootTranslator, translateEnglish } from '#app/utils/i18n/translate'
import { translatedPageHeaders } from '#app/utils/route-headers'
import { ForgotPasswordSchema } from '#app/validation/auth'

// The page's language, which the root loader chose (ADR 105).
// The page's language, which the root loader chose (ADR 105).
export const meta: MetaFunction = ({ matches }) => [
  { title: rootTranslator(matches)('forgot.pageTitle') },
]

export const headers = translatedPageHeaders
export const loader = ({ request, context }: LoaderFunctionArgs) =>
  anonymousLoader(request, context)

export async function action({ request, context }: ActionFunctionArgs) {
  const { t, translate } = await requestTranslator(request, context)
  return anonymousAction(request, context, {
    translate,
    schema: ForgotPasswordSchema,
    redirectTo: '/auth/login',
    handle: async ({ email }, { tenant }) => {
      let ssoDomain: string | null
      try {
        ;({ ssoDomain } = await requestPasswordReset(tenant, email, context.clientIp ?? 'unknown'))
      } catch (error) {
        // Anything else (the database unreachable: a 503) is answered as it is, never as
        // "sent". That answer cannot tell accounts apart: nothing here looks the address up
        // (the job does). A limit is said in the sign-in limit's own words.
        if (!isRefusal(error, 'rate_limited')) throw error
        throw new Refusal('rate_limited', rateLimitMessage(error.retryAfterSeconds), {
          retryAfterSeconds: error.retryAfterSeconds,
        })
      }
      // A domain that requires SSO: only its break-glass admins get a link (ADR 088).
      if (ssoDomain) {
        return {
          toast: t('signIn.useSso', { domain: ssoDomain }),
          description: t('forgot.adminsGetLink'),
          type: 'info',
        }
      }
      return t('forgot.sent')
    },
  })
}

// A request that fails on the client (network, 5xx) keeps the form and says so (spec §8).
export const clientAction = serverActionOrFailure
const NO_INTENTS = {}

export default function ForgotPasswordPage() {
  const actionData = useActionData<typeof action>()
  const t = useTranslate()
  useClientFailureToast(actionData, NO_INTENTS, t('forgot.failure'))
  const navigation = useNavigation()
  const [form, fields] = useSchemaForm(ForgotPasswordSchema, {
    id: 'forgot-password',
    lastResult: actionData?.result,
    translate: (message) => translateEnglish(message, t),
  })
  return (
    <AuthCard
      title={t('forgot.title')}
      description={t('forgot.description')}
      footer={
        <Link
          to="/auth/login"
          className="font-medium text-brand-text underline-offset-4 hover:underline"
        >
          {t('forgot.back')}
        </Link>
      }
    >
      <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
        {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <FormField
          label={t('signIn.email')}
          field={fields.email}
          type="email"
          autoComplete="email"
          autoFocus
        />
        <StatusButton pending={navigation.state === 'submitting'} pendingText={t('forgot.sending')}>
          {t('forgot.submit')}
        </StatusButton>
      </Form>
    </AuthCard>
  )
}
