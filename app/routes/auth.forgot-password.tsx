import type { ActionFunctionArgs } from '@remix-run/node'
import { requestPasswordReset } from '#app/auth/accounts.server'
import { anonymousAction, anonymousLoader } from '#app/auth/anonymous-route.server'
import {
  AuthEmailField,
  AuthFooterLink,
  AuthForm,
  useAuthForm,
} from '#app/components/auth/auth-form'
import { translatedTitle } from '#app/components/auth/page-title'
import { serverActionOrFailure } from '#app/components/client-failure'
import { AuthCard } from '#app/components/layout/auth-card'
import { rateLimitMessage } from '#app/rate-limits/rate-limit.server'
import { isRefusal, Refusal } from '#app/utils/action-error'
import { translatedPageHeaders } from '#app/utils/route-headers'
import { ForgotPasswordSchema } from '#app/validation/auth'

export const meta = translatedTitle('forgot.pageTitle')
export const headers = translatedPageHeaders
export const loader = anonymousLoader

export const action = ({ request, context }: ActionFunctionArgs) =>
  anonymousAction(request, context, {
    schema: ForgotPasswordSchema,
    redirectTo: '/auth/login',
    handle: async ({ email }, { tenant, t }) => {
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

// A request that fails on the client (network, 5xx) keeps the form and says so (spec §8).
export const clientAction = serverActionOrFailure

export default function ForgotPasswordPage() {
  const { t, form, fields } = useAuthForm(ForgotPasswordSchema, {
    id: 'forgot-password',
    failure: 'forgot.failure',
  })
  return (
    <AuthCard
      title={t('forgot.title')}
      description={t('forgot.description')}
      footer={<AuthFooterLink to="/auth/login">{t('forgot.back')}</AuthFooterLink>}
    >
      <AuthForm form={form} pendingText={t('forgot.sending')} submit={t('forgot.submit')}>
        <AuthEmailField field={fields.email} autoFocus />
      </AuthForm>
    </AuthCard>
  )
}
