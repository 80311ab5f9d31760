import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form, useNavigation } from '@remix-run/react'
import {
  FORM_VALIDATION,
  FormField,
  FormMessage,
  formConstraint,
  withEveryError,
} from '#app/components/forms'
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
  const [form, fields] = withEveryError(
    useForm({
      id: 'change-password',
      lastResult,
      constraint: formConstraint(ChangePasswordSchema),
      ...FORM_VALIDATION,
      onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangePasswordSchema }),
    }),
  )
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
