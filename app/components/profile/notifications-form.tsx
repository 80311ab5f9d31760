import {
  type FieldMetadata,
  getFormProps,
  getInputProps,
  type SubmissionResult,
  useForm,
} from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form, useNavigation } from '@remix-run/react'
import { ErrorList, FormMessage, formConstraint } from '#app/components/forms'
import { Panel } from '#app/components/ui/panel'
import { StatusButton } from '#app/components/ui/status-button'
import {
  type NotificationPreferences,
  NotificationsFormSchema,
} from '#app/validation/notifications'

function Choice({
  field,
  label,
  description,
}: {
  field: FieldMetadata<boolean>
  label: string
  description: string
}) {
  const descriptionId = `${field.id}-description`
  const errorId = field.errors?.length ? field.errorId : undefined
  return (
    <div className="flex items-start gap-3 rounded-lg border border-gray-200 p-4 dark:border-gray-800">
      <input
        {...getInputProps(field, { type: 'checkbox' })}
        aria-describedby={[descriptionId, errorId].filter(Boolean).join(' ')}
        className="mt-0.5 h-5 w-5 shrink-0 accent-brand"
      />
      <div className="flex flex-col gap-1">
        <label htmlFor={field.id} className="text-sm font-medium">
          {label}
        </label>
        <p id={descriptionId} className="text-sm text-gray-600 dark:text-gray-400">
          {description}
        </p>
        <ErrorList id={errorId} errors={field.errors} />
      </div>
    </div>
  )
}

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
  const [form, fields] = useForm({
    id: 'notification-preferences',
    lastResult,
    defaultValue: preferences,
    constraint: formConstraint(NotificationsFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NotificationsFormSchema }),
  })
  return (
    <Panel title="Notifications" description="Which emails you get from us.">
      <Form method="POST" className="flex max-w-xl flex-col gap-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="notifications" />
        {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
        <Choice
          field={fields.notifications}
          label="Notifications"
          description="Email me when someone connects with me or shares their details on my card, or adds me to a team or changes my role in one."
        />
        <Choice
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
