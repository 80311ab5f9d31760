import { getFormProps } from '@conform-to/react'
import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { formAction } from '#app/actions/intent-action.server'
import { isResetTokenUsable, resetPassword } from '#app/auth/accounts.server'
import { serverActionOrFailure, useClientFailureToast } from '#app/components/client-failure'
import { FormMessage, NewPasswordFields, useSchemaForm } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'
import { requireTenant } from '#app/tenancy/require-tenant.server'
import { Refusal } from '#app/utils/action-error'
import { TOKEN_PAGE_HEADERS, tokenPageHeaders } from '#app/utils/route-headers'
import { ResetPasswordSchema } from '#app/validation/auth'

export const headers = tokenPageHeaders

export const meta: MetaFunction = () => [{ title: 'Reset password' }]

const TOKEN = /^[a-z2-7]{52}$/
const INVALID_LINK_MESSAGE =
  'This password reset link is invalid, has expired or has already been used.'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = await requireTenant(context)
  const token = new URL(request.url).searchParams.get('token') ?? ''
  const valid = TOKEN.test(token) && (await isResetTokenUsable(tenant, token))
  return data({ token: valid ? token : null }, { headers: TOKEN_PAGE_HEADERS })
}

export async function action({ request, context }: ActionFunctionArgs) {
  return formAction(request, {
    guard: () => requireTenant(context),
    schema: ResetPasswordSchema,
    hideFields: ['password', 'confirmPassword'],
    headers: TOKEN_PAGE_HEADERS,
    redirectTo: '/auth/login',
    handle: async ({ token, password }, tenant) => {
      const done = TOKEN.test(token) && (await resetPassword(tenant, token, password))
      if (!done) return new Refusal('invalid', INVALID_LINK_MESSAGE)
      return 'Password has been reset successfully! You can now log in with your new password.'
    },
  })
}

function InvalidLink() {
  return (
    <AuthCard title="Invalid Reset Link" description={INVALID_LINK_MESSAGE}>
      <Button asChild className="w-full">
        <Link to="/auth/forgot-password">Request New Link</Link>
      </Button>
    </AuthCard>
  )
}

// A request that fails on the client (network, 5xx) keeps the form and says so (spec §8).
export const clientAction = serverActionOrFailure
const NO_INTENTS = {}

export default function ResetPasswordPage() {
  const { token } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  useClientFailureToast(actionData, NO_INTENTS, 'Failed to reset password. Please try again.')
  const navigation = useNavigation()
  const [form, fields] = useSchemaForm(ResetPasswordSchema, {
    id: 'reset-password',
    lastResult: actionData?.result,
  })
  // Only the link's refusal turns the page into the invalid-link state.
  if (!token || actionData?.error === INVALID_LINK_MESSAGE) return <InvalidLink />
  return (
    <AuthCard title="Reset your password" description="Choose a new password for your account.">
      <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
        {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <input type="hidden" name="token" value={token} />
        <NewPasswordFields fields={fields} />
        <StatusButton pending={navigation.state === 'submitting'} pendingText="Resetting...">
          Reset Password
        </StatusButton>
      </Form>
    </AuthCard>
  )
}
