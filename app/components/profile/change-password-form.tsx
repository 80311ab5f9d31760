import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, useNavigation } from '@remix-run/react'
import { FormField, FormMessage, useSchemaForm } from '#app/components/forms'
import { Panel } from '#app/components/ui/panel'
import { StatusButton } from '#app/components/ui/status-button'
import { ChangePasswordSchema } from '#app/validation/profile'

/** Change password: the current one is checked; other sessions are signed out on success. */
export function ChangePasswordForm({
  lastResult,
}: {
  lastResult?: SubmissionResult<string[]> | null
}) {
  const navigation = useNavigation()
  const pending =
    navigation.state === 'submitting' && navigation.formData?.get('intent') === 'password'
  const [form, fields] = useSchemaForm(ChangePasswordSchema, { id: 'change-password', lastResult })
  return (
    <Panel
      title="Change Password"
      description="Changing your password signs you out on every other device."
    >
      <Form method="POST" className="flex max-w-md flex-col gap-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="password" />
        {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <FormField
          label="Current password"
          field={fields.currentPassword}
          type="password"
          autoComplete="current-password"
        />
        <FormField
          label="New password"
          field={fields.newPassword}
          type="password"
          autoComplete="new-password"
        />
        <FormField
          label="Confirm new password"
          field={fields.confirmPassword}
          type="password"
          autoComplete="new-password"
        />
        <StatusButton
          pending={pending}
          pendingText="Updating..."
          className="w-full sm:w-auto sm:self-start"
        >
          Update Password
        </StatusButton>
      </Form>
    </Panel>
  )
}
