import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, useNavigation } from '@remix-run/react'
import { FormCheckbox, FormMessage, useSchemaForm } from '#app/components/forms'
import { Panel } from '#app/components/ui/panel'
import { StatusButton } from '#app/components/ui/status-button'
import {
  type NotificationPreferences,
  NotificationsFormSchema,
} from '#app/validation/notifications'

/** The user's notification preferences (spec §3): a plain form, so it works without JavaScript. */
export function NotificationsForm({
  preferences,
  lastResult,
}: {
  preferences: NotificationPreferences
  lastResult?: SubmissionResult<string[]> | null
}) {
  const navigation = useNavigation()
  const pending =
    navigation.state === 'submitting' && navigation.formData?.get('intent') === 'notifications'
  const [form, fields] = useSchemaForm(NotificationsFormSchema, {
    id: 'notification-preferences',
    lastResult,
    defaultValue: preferences,
  })
  return (
    <Panel title="Notifications" description="Which emails you get from us.">
      <Form method="POST" className="flex max-w-xl flex-col gap-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="notifications" />
        {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <FormCheckbox
          field={fields.notifications}
          label="Notifications"
          description="Email me when someone connects with me or shares their details on my card, or adds me to a team or changes my role in one."
        />
        <FormCheckbox
          field={fields.marketingEmails}
          label="Marketing emails"
          description="Announcements your agency writes to its users, off unless you turn it on. Each one has a one-click unsubscribe link."
        />
        <StatusButton
          pending={pending}
          pendingText="Saving..."
          className="w-full sm:w-auto sm:self-start"
        >
          Save Preferences
        </StatusButton>
      </Form>
    </Panel>
  )
}
