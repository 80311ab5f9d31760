// "Edit or remove this card" (ADR 106): the owner of a personal card types its personal email,
// and a link goes there when it is the card's. The answer is the same for any address.
import { getFormProps } from '@conform-to/react'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { FormField, FormMessage, useSchemaForm } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { StatusButton } from '#app/components/ui/status-button'
import type {
  manageLinkRequestAction,
  manageLinkRequestLoader,
} from '#app/people/personal-card-route.server'
import {
  MANAGE_PERSONAL_CARD_LINK,
  personalCardPath,
  RequestManageLinkSchema,
} from '#app/validation/personal-card'

export function ManageLinkRequestPage() {
  const { card } = useLoaderData<typeof manageLinkRequestLoader>()
  const actionData = useActionData<typeof manageLinkRequestAction>() as
    | { sent?: string; error?: string | null; result?: unknown }
    | undefined
  const navigation = useNavigation()
  const [form, fields] = useSchemaForm(RequestManageLinkSchema, {
    id: 'personal-card-manage-link',
    // biome-ignore lint/suspicious/noExplicitAny: conform's reply, as the action answers it
    lastResult: actionData?.result as any,
  })
  const name = `${card.firstName} ${card.lastName}`.trim()
  const back = (
    <Link
      to={personalCardPath(card.slug)}
      className="text-sm font-medium underline underline-offset-4"
    >
      Back to the card
    </Link>
  )
  if (actionData?.sent) {
    return (
      <AuthCard title="Check your email" description={actionData.sent}>
        {back}
      </AuthCard>
    )
  }
  return (
    <AuthCard
      title={MANAGE_PERSONAL_CARD_LINK}
      description={`Is this your card, ${name}? Enter the personal email on it and we will send you a link to edit or remove it.`}
    >
      <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
        {form.errors?.length || actionData?.error ? (
          <FormMessage>{form.errors?.join(' ') || actionData?.error}</FormMessage>
        ) : null}
        <FormField label="Personal email" field={fields.email} type="email" autoComplete="email" />
        <StatusButton
          pending={navigation.state === 'submitting'}
          pendingText="Sending..."
          className="w-full"
        >
          Email me a link
        </StatusButton>
      </Form>
      <div className="mt-4">{back}</div>
    </AuthCard>
  )
}
