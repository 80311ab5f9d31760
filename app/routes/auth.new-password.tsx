// Password rotation's step (ADR 045): while Super Admin Settings → Security has "Password
// rotation every 90 days" on, a session whose password is older than that reaches only this
// page until it sets a new one (the password rules of sign-up, and not the current password).
import { getFormProps } from '@conform-to/react'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { formAction } from '#app/actions/intent-action.server'
import { replaceExpiredPassword, SAME_PASSWORD_MESSAGE } from '#app/auth/accounts.server'
import { requirePendingStep } from '#app/auth/guards.server'
import { PASSWORD_MAX_AGE_DAYS } from '#app/auth/sign-in-steps'
import { SignOut } from '#app/components/auth/two-factor'
import { serverActionOrFailure, useClientFailureToast } from '#app/components/client-failure'
import { FormMessage, NewPasswordFields, useSchemaForm } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { StatusButton } from '#app/components/ui/status-button'
import { Refusal } from '#app/utils/action-error'
import { actionAndLoaderHeaders } from '#app/utils/route-headers'
import { rolePaths } from '#app/validation/roles'
import { NewPasswordSchema } from '#app/validation/two-factor'

export const meta: MetaFunction = () => [{ title: 'Choose a new password' }]
export const headers = actionAndLoaderHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requirePendingStep(request, context, 'new-password')
  return null
}

export async function action({ request, context }: ActionFunctionArgs) {
  return formAction(request, {
    guard: () => requirePendingStep(request, context, 'new-password'),
    schema: NewPasswordSchema,
    hideFields: ['password', 'confirmPassword'],
    redirectTo: '/',
    handle: async ({ password }, { tenant, user, session }) => {
      if (!(await replaceExpiredPassword(tenant, user, session.sessionId, password))) {
        return new Refusal('invalid', SAME_PASSWORD_MESSAGE, { field: 'password' })
      }
      return { toast: 'Password updated successfully', redirectTo: rolePaths(user.role).dashboard }
    },
  })
}

export const clientAction = serverActionOrFailure
const NO_INTENTS = {}

export default function NewPasswordStep() {
  const actionData = useActionData<typeof action>()
  useClientFailureToast(actionData, NO_INTENTS, 'Failed to update password')
  const navigation = useNavigation()
  const [form, fields] = useSchemaForm(NewPasswordSchema, {
    id: 'new-password',
    lastResult: actionData?.result as Parameters<typeof useSchemaForm>[1]['lastResult'],
  })
  return (
    <AuthCard
      title="Choose a new password"
      description={`Your password is more than ${PASSWORD_MAX_AGE_DAYS} days old. Choose a new one to continue.`}
      footer={<SignOut />}
    >
      <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
        {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <NewPasswordFields fields={fields} />
        <StatusButton pending={navigation.state === 'submitting'} pendingText="Saving...">
          Save new password
        </StatusButton>
      </Form>
    </AuthCard>
  )
}
