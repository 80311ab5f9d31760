import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import { Form, useNavigation } from '@remix-run/react'
import type { CardExtrasView } from '#app/cards/card-extras'
import { CardExtrasFields, withBlankLinkRows } from '#app/components/cards/card-details-fields'
import { FormMessage, useSchemaForm } from '#app/components/forms'
import { Panel } from '#app/components/ui/panel'
import { StatusButton } from '#app/components/ui/status-button'
import { ProfileCardDetailsSchema } from '#app/validation/profile-form'

/**
 * The default card's details (issue 28) in the profile: the card editor's fields and rules
 * (card-details-fields, card-details.ts), posted to the profile's one action as `card-details`.
 * A plain form, so it works without JavaScript, moving links included.
 */
export function CardDetailsForm({
  card,
  lastResult,
}: {
  card: { id: string; title: string; extras: CardExtrasView }
  lastResult?: SubmissionResult<string[]> | null
}) {
  const navigation = useNavigation()
  const pending =
    navigation.state === 'submitting' && navigation.formData?.get('intent') === 'card-details'
  const [form, fields] = useSchemaForm(ProfileCardDetailsSchema, {
    id: 'profile-card-details',
    lastResult,
    defaultValue: {
      ...card.extras,
      cardId: card.id,
      links: withBlankLinkRows(card.extras.links),
    },
  })
  return (
    <Panel
      title="Card Details"
      description={`Your bio, pronouns, phones, address and links, shown on ${card.title}.`}
    >
      <Form method="POST" className="grid gap-4 sm:grid-cols-2" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="card-details" />
        <input {...getInputProps(fields.cardId, { type: 'hidden' })} />
        {form.errors?.length ? (
          <div className="sm:col-span-2">
            <FormMessage>{form.errors.join(' ')}</FormMessage>
          </div>
        ) : null}
        <CardExtrasFields fields={fields} intents={form} />
        <StatusButton pending={pending} className="sm:col-span-2 sm:justify-self-end">
          Save Card Details
        </StatusButton>
      </Form>
    </Panel>
  )
}
