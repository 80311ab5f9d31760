import { getFormProps } from '@conform-to/react'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useNavigation } from '@remix-run/react'
import { requestPasswordReset } from '#app/auth/accounts.server'
import { anonymousAction, anonymousLoader } from '#app/auth/anonymous-route.server'
import { serverActionOrFailure, useClientFailureToast } from '#app/components/client-failure'
import { FormField, FormMessage, useSchemaForm } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { StatusButton } from '#app/components/ui/status-button'
import { rateLimitMessage } from '#app/rate-limits/rate-limit.server'
import { isRefusal, Refusal } from '#app/utils/action-error'
import { actionAndLoaderHeaders } from '#app/utils/route-headers'
import { ForgotPasswordSchema } from '#app/validation/auth'
import { ssoRequiredMessage } from '#app/validation/sso'

export const meta: MetaFunction = () => [{ title: 'Forgot password' }]

export const headers = actionAndLoaderHeaders
export const loader = ({ request, context }: LoaderFunctionArgs) =>
  anonymousLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) =>
  anonymousAction(request, context, {
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
          toast: ssoRequiredMessage(ssoDomain),
          description: 'Administrators of this agency get a reset link by email.',
          type: 'info',
        }
      }
      return 'Password reset link sent! Please check your email.'
    },
  })

// A request that fails on the client (network, 5xx) keeps the form and says so (spec §8).
export const clientAction = serverActionOrFailure
const NO_INTENTS = {}

export default function ForgotPasswordPage() {
  const actionData = useActionData<typeof action>()
  useClientFailureToast(actionData, NO_INTENTS, 'Failed to send reset link. Please try again.')
  const navigation = useNavigation()
  const [form, fields] = useSchemaForm(ForgotPasswordSchema, {
    id: 'forgot-password',
    lastResult: actionData?.result,
  })
  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter your email and we'll send you a link to reset it."
      footer={
        <Link
          to="/auth/login"
          className="font-medium text-brand-text underline-offset-4 hover:underline"
        >
          Back to sign in
        </Link>
      }
    >
      <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
        {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <FormField label="Email" field={fields.email} type="email" autoComplete="email" autoFocus />
        <StatusButton pending={navigation.state === 'submitting'} pendingText="Sending...">
          Send Reset Link
        </StatusButton>
      </Form>
    </AuthCard>
  )
}
