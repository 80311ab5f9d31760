// A personal card's owner edits or removes it, through the link emailed to the card's address
// (ADR 106): the same fields as the claim, and a removal behind a confirmation.
import { getFormProps } from '@conform-to/react'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { FormField, FormMessage, NameFields, useSchemaForm } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { LinkNotice } from '#app/components/layout/link-page'
import { Button } from '#app/components/ui/button'
import { ConfirmActions, ConfirmDialog } from '#app/components/ui/dialog'
import { StatusButton } from '#app/components/ui/status-button'
import type {
  personalCardManageAction,
  personalCardManageLoader,
} from '#app/people/personal-card-route.server'
import { ManagePersonalCardSchema } from '#app/validation/personal-card'

type ManageReply = {
  saved?: string
  removed?: string
  url?: string
  error?: string | null
  result?: unknown
  intent?: string | null
}

export function PersonalCardManagePage() {
  const data = useLoaderData<typeof personalCardManageLoader>()
  const actionData = useActionData<typeof personalCardManageAction>() as ManageReply | undefined
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null
  const [form, fields] = useSchemaForm(ManagePersonalCardSchema, {
    id: 'manage-personal-card',
    // biome-ignore lint/suspicious/noExplicitAny: conform's reply, as the action answers it
    lastResult: actionData?.intent === 'remove' ? undefined : (actionData?.result as any),
    defaultValue: data.status === 'open' ? { intent: 'save', ...data.card } : undefined,
  })
  if (actionData?.removed) {
    return <LinkNotice title="Card removed" description={actionData.removed} />
  }
  if (data.status === 'invalid') {
    return <LinkNotice title="Invalid link" description={data.message} />
  }
  const url = actionData?.url ?? data.url
  return (
    <AuthCard
      title="Edit your personal card"
      description="Change your name or the personal email and phone people see, or take the card down."
    >
      {actionData?.saved ? (
        <p
          role="status"
          className="mb-4 rounded-lg bg-green-50 px-3 py-2 text-sm text-green-800 dark:bg-green-950 dark:text-green-200"
        >
          {actionData.saved}
        </p>
      ) : null}
      <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="save" />
        {form.errors?.length || (actionData?.error && actionData.intent !== 'remove') ? (
          <FormMessage>{form.errors?.join(' ') || actionData?.error}</FormMessage>
        ) : null}
        <NameFields fields={fields} />
        <FormField label="Personal email" field={fields.email} type="email" autoComplete="email" />
        <FormField label="Personal phone" field={fields.phone} type="tel" autoComplete="tel" />
        <StatusButton pending={busy === 'save'} pendingText="Saving..." className="w-full">
          Save my card
        </StatusButton>
      </Form>
      <a
        href={url}
        className="mt-4 block text-sm font-medium underline underline-offset-4 break-all"
      >
        Open my personal card
      </a>
      <div className="mt-6 border-t border-gray-200 pt-4 dark:border-gray-800">
        {actionData?.error && actionData.intent === 'remove' ? (
          <FormMessage>{actionData.error}</FormMessage>
        ) : null}
        <ConfirmDialog
          trigger={
            <Button type="button" variant="danger" className="w-full">
              Remove my card
            </Button>
          }
          title="Remove your personal card?"
          description="Its page stops working for everyone, and nobody is told about it any more. This cannot be undone."
        >
          <Form method="POST" className="flex justify-end gap-2">
            <input type="hidden" name="intent" value="remove" />
            <ConfirmActions
              pending={busy === 'remove'}
              label="Remove my card"
              pendingText="Removing..."
            />
          </Form>
        </ConfirmDialog>
      </div>
    </AuthCard>
  )
}
