// The Domain Settings tab's email sending domain (issue 17 point 2, ADR 026): add a domain, see
// the DNS records the email provider returned, check verification, remove it. Its forms sit
// outside the branding form (forms do not nest); the fields and buttons join them by id.
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { Mail, Trash2 } from 'lucide-react'
import { DnsCheckNote, DnsRecordsTable } from '#app/components/branding/dns-records'
import { Field, useSchemaForm } from '#app/components/forms'
import { Badge } from '#app/components/ui/badge'
import { Button } from '#app/components/ui/button'
import { ConfirmActions, ConfirmDialog } from '#app/components/ui/dialog'
import { StatusButton } from '#app/components/ui/status-button'
import { Subsection } from '#app/components/ui/titled-section'
import type { SendingDomainState } from '#app/domains/sending-domain-verification.server'
import { SendingDomainSchema } from '#app/validation/sending-domain'

const ADD_FORM_ID = 'sending-domain-form'
const CHECK_FORM_ID = 'check-sending-domain-form'

type Tone = 'green' | 'amber' | 'red' | 'gray'

const STATUS: Record<string, { label: string; tone: Tone }> = {
  registering: { label: 'Registering', tone: 'gray' },
  not_started: { label: 'Not verified yet', tone: 'amber' },
  pending: { label: 'Pending verification', tone: 'amber' },
  verified: { label: 'Verified', tone: 'green' },
  partially_verified: { label: 'Partially verified', tone: 'amber' },
  partially_failed: { label: 'Partially failed', tone: 'red' },
  temporary_failure: { label: 'Temporary failure', tone: 'amber' },
  failed: { label: 'Failed', tone: 'red' },
}

const statusOf = (status: string) =>
  STATUS[status] ?? { label: status.replaceAll('_', ' '), tone: 'gray' as const }

function help(state: SendingDomainState, whiteLabelActive: boolean) {
  if (state.sending) return `Your emails leave from ${state.senderAddress}.`
  if (state.status === 'verified' && !whiteLabelActive) {
    return 'Verified. Your emails leave from it once white labeling is on; until then they carry the platform and its address.'
  }
  if (state.lost) {
    return 'The email provider no longer verifies this domain, so your emails leave from the platform address again. Put the records back and check verification.'
  }
  if (state.status === 'registering') {
    return 'The email provider has not answered yet. Remove the domain and add it again if this stays.'
  }
  return 'Publish these records at your DNS provider, then check verification. Until it is verified, your emails leave from the platform address.'
}

/** The add form's state, shared by its outer <Form> and the fields inside the tab. */
export function useSendingDomainForm() {
  const data = useActionData() as
    | { intent: string | null; result?: SubmissionResult<string[]> }
    | undefined
  return useSchemaForm(SendingDomainSchema, {
    id: ADD_FORM_ID,
    // The page's forms share one action: only the add form's own reply is its.
    lastResult: data?.intent === 'add-sending-domain' ? data.result : undefined,
  })
}

type AddForm = ReturnType<typeof useSendingDomainForm>

/** The outer forms; render them outside the branding form. */
export function SendingDomainForms({ form }: { form: AddForm[0] }) {
  return (
    <>
      <Form method="POST" replace preventScrollReset {...getFormProps(form)} />
      <Form id={CHECK_FORM_ID} method="POST" replace preventScrollReset />
    </>
  )
}

export function SendingDomainSection({
  state,
  canManage,
  whiteLabelActive,
  addForm,
}: {
  state: SendingDomainState
  canManage: boolean
  whiteLabelActive: boolean
  addForm: AddForm
}) {
  const [form, fields] = addForm
  // Both fields are typed as they are: no spell check, capitals or autofill.
  const asTyped = (field: { id: string; name: string }) => ({
    id: field.id,
    name: field.name,
    form: form.id,
    spellCheck: false,
    autoCapitalize: 'none',
    autoComplete: 'off',
  })
  const navigation = useNavigation()
  const busy = (intent: string) =>
    navigation.state !== 'idle' && navigation.formData?.get('intent') === intent
  const status = state.status ? statusOf(state.status) : null
  return (
    <Subsection
      id="sending-domain-title"
      icon={Mail}
      title="Email sending domain"
      testId="sending-domain"
    >
      <p className="text-sm text-gray-600 dark:text-gray-400">
        Send your sign-up, password and notification emails from an address on your own domain, such
        as hello@mail.example.com. Used while white labeling is on.
      </p>
      {!state.providerConfigured ? (
        <p className="text-sm text-amber-800 dark:text-amber-300">
          Sending domains need an email provider. Ask the platform administrator to set one up.
        </p>
      ) : !state.domain || !status ? (
        canManage ? (
          <div className="flex flex-col gap-3">
            <div className="grid gap-4 sm:grid-cols-2">
              <Field
                label="Sending Domain"
                errors={fields.sendingDomain.errors}
                hint="A subdomain you use for nothing else is best, such as mail.example.com"
                inputProps={{
                  ...asTyped(fields.sendingDomain),
                  required: true,
                  placeholder: 'mail.example.com',
                }}
              />
              <Field
                label="Sender Name"
                errors={fields.senderLocalPart.errors}
                hint="The part before the @ of the address your emails leave from"
                inputProps={{ ...asTyped(fields.senderLocalPart), defaultValue: 'hello' }}
              />
            </div>
            {form.errors?.length ? (
              <p className="text-sm text-red-700 dark:text-red-400">{form.errors.join(' ')}</p>
            ) : null}
            <StatusButton
              type="submit"
              form={form.id}
              name="intent"
              value="add-sending-domain"
              variant="secondary"
              pending={busy('add-sending-domain')}
              pendingText="Adding..."
              className="self-start"
            >
              Add sending domain
            </StatusButton>
          </div>
        ) : (
          <p className="text-sm text-gray-600 dark:text-gray-400">No sending domain yet.</p>
        )
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-medium">{state.domain}</span>
            <span data-testid="sending-status">
              <Badge tone={status.tone}>{status.label}</Badge>
            </span>
          </div>
          <p className="text-sm">
            Sender address: <code data-testid="sender-address">{state.senderAddress}</code>
          </p>
          <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="sending-help">
            {help(state, whiteLabelActive)}
          </p>
          {state.records.length > 0 ? (
            <DnsRecordsTable
              caption={<>Email DNS records for {state.domain}</>}
              columns={['Type', 'Name', 'Value', 'Priority', 'Status']}
            >
              {state.records.map((record) => (
                <tr
                  key={`${record.type}-${record.name}-${record.value}`}
                  className="border-t border-gray-200 align-top dark:border-gray-800"
                >
                  <td className="py-2 pr-3 font-medium">{record.type}</td>
                  <td className="py-2 pr-3">
                    <code className="break-all">{record.name}</code>
                  </td>
                  <td className="py-2 pr-3">
                    <code className="break-all">{record.value}</code>
                  </td>
                  <td className="py-2 pr-3">{record.priority ?? ''}</td>
                  <td className="py-2 whitespace-nowrap">{statusOf(record.status).label}</td>
                </tr>
              ))}
            </DnsRecordsTable>
          ) : null}
          <DnsCheckNote checkedAt={state.checkedAt} shownAt={state.shownAt} />
          {canManage ? (
            <div className="flex flex-wrap gap-2">
              {state.status !== 'registering' ? (
                <StatusButton
                  type="submit"
                  form={CHECK_FORM_ID}
                  name="intent"
                  value="check-sending-domain"
                  variant="secondary"
                  pending={busy('check-sending-domain')}
                  pendingText="Checking..."
                >
                  Check verification
                </StatusButton>
              ) : null}
              <ConfirmDialog
                trigger={
                  <Button type="button" variant="secondary">
                    <Trash2 aria-hidden className="h-4 w-4" /> Remove
                  </Button>
                }
                title={`Remove ${state.domain}?`}
                description="Your emails leave from the platform address again, and the domain is removed from the email provider. You can add it again later."
              >
                <Form method="POST" replace preventScrollReset className="flex justify-end gap-2">
                  <input type="hidden" name="intent" value="remove-sending-domain" />
                  <ConfirmActions
                    pending={busy('remove-sending-domain')}
                    label="Remove domain"
                    pendingText="Removing..."
                  />
                </Form>
              </ConfirmDialog>
            </div>
          ) : null}
        </>
      )}
    </Subsection>
  )
}
