// The departing person's claim of a personal card (ADR 103): their name, prefilled from the
// account, and the personal email and phone they choose to show. Nothing of the agency's is
// asked or shown; the finished card lives on the platform's host.
import { getFormProps } from '@conform-to/react'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { FormField, FormMessage, NameFields, useSchemaForm } from '#app/components/forms'
import { AuthCard } from '#app/components/layout/auth-card'
import { LinkNotice } from '#app/components/layout/link-page'
import { StatusButton } from '#app/components/ui/status-button'
import type {
  personalCardClaimAction,
  personalCardClaimLoader,
} from '#app/people/personal-card-route.server'
import { ClaimPersonalCardSchema, MANAGE_PERSONAL_CARD_LINK } from '#app/validation/personal-card'

export function PersonalCardClaimPage() {
  const data = useLoaderData<typeof personalCardClaimLoader>()
  const actionData = useActionData<typeof personalCardClaimAction>() as
    | { claimed?: boolean; url?: string; error?: string | null; result?: unknown }
    | undefined
  const navigation = useNavigation()
  const [form, fields] = useSchemaForm(ClaimPersonalCardSchema, {
    id: 'claim-personal-card',
    // biome-ignore lint/suspicious/noExplicitAny: conform's reply, as the action answers it
    lastResult: actionData?.result as any,
    defaultValue:
      data.status === 'open' ? { firstName: data.firstName, lastName: data.lastName } : undefined,
  })
  if (actionData?.claimed && actionData.url) {
    return (
      <AuthCard
        title="Your personal card is ready"
        description="People who asked to be kept updated about your card will be told where to find you once you have left."
      >
        <a
          href={actionData.url}
          className="font-medium text-brand-text underline underline-offset-4 break-all"
        >
          Open my personal card
        </a>
        <p className="mt-2 text-sm text-gray-600 dark:text-gray-400 break-all">{actionData.url}</p>
        <p className="mt-4 text-sm text-gray-600 dark:text-gray-400">
          To change or remove it later, open it and choose “{MANAGE_PERSONAL_CARD_LINK}”: we email a
          link to the personal email on it.
        </p>
      </AuthCard>
    )
  }
  if (data.status === 'invalid') {
    return <LinkNotice title="Invalid link" description={data.message} />
  }
  return (
    <AuthCard
      title="Keep a personal card"
      description="A card of your own to keep after you leave: your name and the personal email or phone you choose. Nothing of the company is on it, and the company does not see what you enter."
    >
      <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="claim" />
        {form.errors?.length || actionData?.error ? (
          <FormMessage>{form.errors?.join(' ') || actionData?.error}</FormMessage>
        ) : null}
        <NameFields fields={fields} />
        <FormField label="Personal email" field={fields.email} type="email" autoComplete="email" />
        <FormField label="Personal phone" field={fields.phone} type="tel" autoComplete="tel" />
        <StatusButton
          pending={navigation.state === 'submitting'}
          pendingText="Creating..."
          className="w-full"
        >
          Create my personal card
        </StatusButton>
      </Form>
    </AuthCard>
  )
}
