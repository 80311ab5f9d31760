import { getFormProps } from '@conform-to/react'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { serverActionOrFailure, useClientFailureToast } from '#app/components/client-failure'
import { FormField, FormMessage, useSchemaForm } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { StatusButton } from '#app/components/ui/status-button'
import { ssoSignInAction, ssoSignInLoader } from '#app/sso/sso-route.server'
import { actionAndLoaderHeaders } from '#app/utils/route-headers'
import { SsoSignInSchema } from '#app/validation/sso'

export const meta: MetaFunction = ({ matches }) => {
  const name = (matches[0]?.data as { branding?: { name: string } } | undefined)?.branding?.name
  return [{ title: `Sign in with SSO · ${name ?? ''}` }]
}

export const headers = actionAndLoaderHeaders

export const loader = ({ request, context }: LoaderFunctionArgs) =>
  ssoSignInLoader(request, context)

export const action = ({ request, context }: ActionFunctionArgs) =>
  ssoSignInAction(request, context)

// A request that fails on the client (network, 5xx) keeps the form and says so (spec §8).
export const clientAction = serverActionOrFailure
const NO_INTENTS = {}

export default function SsoSignInPage() {
  const { redirectTo, email } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  useClientFailureToast(actionData, NO_INTENTS, 'Failed to start single sign-on')
  const navigation = useNavigation()
  const [form, fields] = useSchemaForm(SsoSignInSchema, {
    id: 'sso-sign-in',
    lastResult: actionData && 'result' in actionData ? actionData.result : undefined,
    defaultValue: { email },
  })
  return (
    <AuthCard
      title="Sign in with SSO"
      description="Enter your work email. We send you to your company's sign-in page."
      footer={
        <Link
          to={redirectTo ? `/auth/login?${new URLSearchParams({ redirectTo })}` : '/auth/login'}
          className="font-medium text-brand-text underline-offset-4 hover:underline"
        >
          Sign in with a password instead
        </Link>
      }
    >
      <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
        {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <input type="hidden" name="redirectTo" value={redirectTo ?? ''} />
        <FormField
          label="Work email"
          field={fields.email}
          type="email"
          autoComplete="email"
          autoFocus
        />
        <StatusButton pending={navigation.state !== 'idle'} pendingText="Redirecting...">
          Continue
        </StatusButton>
      </Form>
    </AuthCard>
  )
}
