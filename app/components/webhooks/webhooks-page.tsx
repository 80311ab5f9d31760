// The agency's Webhooks screen (issue 43 point 3, ADR 093): endpoints subscribed to event types
// (a new secret shown once, rotated with an overlap), and the delivery log with every attempt's
// status, time, duration, response size and error, and "Resend". Agency admins only.
import { getFormProps } from '@conform-to/react'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { ScrollText, Webhook } from 'lucide-react'
import { ErrorList, FormField, FormMessage, useSchemaForm } from '#app/components/forms'
import { PageHeader, TD } from '#app/components/people/people-ui'
import { actionsColumn, DataTable, TABLE_FRAME } from '#app/components/ui/data-table'
import { DialogActions, FormDialog } from '#app/components/ui/dialog'
import { EmptyState } from '#app/components/ui/empty-state'
import { LogEntry, LogFilter, LogList, LogPages } from '#app/components/ui/event-log'
import type { IntentReply } from '#app/components/ui/intent-reply'
import { Panel } from '#app/components/ui/panel'
import { ConfirmRowDialog, RotateWithOverlapDialog } from '#app/components/ui/row-dialogs'
import { RowForm, rowDialogFrame, useRowForm } from '#app/components/ui/row-intent-form'
import { SecretShownOnce } from '#app/components/ui/secret-shown-once'
import { StatusButton } from '#app/components/ui/status-button'
import { useIntentDialog } from '#app/components/ui/use-intent-dialog'
import { utcTime } from '#app/components/ui/utc-time'
import {
  createEndpointForm,
  deleteEndpointForm,
  editEndpointForm,
  enableEndpointForm,
  resendDeliveryForm,
  rotateSecretForm,
} from '#app/validation/webhooks'
import type { WebhookEndpointView } from '#app/webhooks/webhook-endpoints.server'

type Choice = { value: string; label: string }

type Attempt = {
  id: string
  at: string
  durationMs: number
  statusCode: number | null
  responseBytes: number | null
  error: string | null
  manual: boolean
}

type Delivery = {
  id: string
  endpointId: string
  eventType: string
  status: 'pending' | 'succeeded' | 'failed'
  createdAt: string
  nextAttemptAt: string | null
  attempts: Attempt[]
}

export type WebhooksPageProps = {
  endpoints: WebhookEndpointView[]
  eventChoices: Choice[]
  overlapChoices: Choice[]
  log: {
    endpointId: string | null
    page: number
    pages: number
    total: number
    deliveries: Delivery[]
  }
}

type ActionData = IntentReply & { newSecret?: { secret: string; url: string } }

// Deliveries and their attempts follow each other within seconds: the log shows them.
const when = (iso: string | null) => utcTime(iso, 'medium')

const hostOf = (url: string) => {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

type EndpointFields = ReturnType<typeof useSchemaForm<typeof createEndpointForm>>[1]

/** The URL, description and event checkboxes, shared by the add form and the edit dialog. */
function EndpointFieldset({
  fields,
  eventChoices,
  checked,
  idPrefix,
}: {
  fields: EndpointFields
  eventChoices: Choice[]
  checked: string[]
  idPrefix: string
}) {
  const errorId = fields.eventTypes.errors?.length ? fields.eventTypes.errorId : undefined
  return (
    <>
      <FormField
        label="Endpoint URL"
        field={fields.url}
        type="url"
        hint="Where events are POSTed. Public https addresses only; redirects are not followed."
      />
      <FormField
        label="Description (optional)"
        field={fields.description}
        hint="What receives them, e.g. our CRM sync."
      />
      <fieldset className="flex flex-col gap-2" aria-describedby={errorId}>
        <legend className="mb-1 text-sm font-medium">Events</legend>
        {eventChoices.map((choice) => (
          <label key={choice.value} className="flex items-start gap-3 text-sm">
            <input
              type="checkbox"
              id={`${idPrefix}-${choice.value}`}
              name={fields.eventTypes.name}
              value={choice.value}
              defaultChecked={checked.includes(choice.value)}
              className="mt-0.5 h-5 w-5 shrink-0 accent-brand"
            />
            {choice.label}
          </label>
        ))}
        <ErrorList id={errorId} errors={fields.eventTypes.errors} />
      </fieldset>
    </>
  )
}

function AddEndpointPanel({ eventChoices }: { eventChoices: Choice[] }) {
  const actionData = useActionData<ActionData>()
  const navigation = useNavigation()
  const [form, fields] = useSchemaForm(createEndpointForm, {
    id: 'create-endpoint',
    lastResult: actionData?.intent === 'create-endpoint' ? actionData.result : null,
  })
  const pending = navigation.formData?.get('intent') === 'create-endpoint'
  return (
    <Panel
      title="Add an endpoint"
      description="Each event is POSTed as JSON, signed per the Standard Webhooks specification, and retried with growing waits for up to three days until your endpoint answers 2xx."
    >
      <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="create-endpoint" />
        <EndpointFieldset
          fields={fields}
          eventChoices={eventChoices}
          checked={[]}
          idPrefix="new-event"
        />
        <StatusButton pending={pending} pendingText="Adding…" className="self-start">
          <Webhook aria-hidden className="h-4 w-4" /> Add endpoint
        </StatusButton>
      </Form>
    </Panel>
  )
}

function EditDialog({
  endpoint,
  eventChoices,
}: {
  endpoint: WebhookEndpointView
  eventChoices: Choice[]
}) {
  const row = { intent: 'edit-endpoint', rowKey: 'endpointId', rowId: endpoint.id }
  // Saved, the dialog closes; refused, it stays open with the messages beside the fields.
  const dialog = useIntentDialog(row.intent, ['url', 'description', 'eventTypes'], row)
  const { form, fields } = useRowForm(editEndpointForm, row, {
    id: `edit-${endpoint.id}`,
    lastResult: dialog.open ? dialog.lastResult : null,
    others: { url: endpoint.url, description: endpoint.description },
  })
  const host = hostOf(endpoint.url)
  return (
    <FormDialog
      open={dialog.open}
      onOpenChange={dialog.setOpen}
      {...rowDialogFrame(
        {
          triggerText: 'Edit',
          triggerSrText: host,
          title: `Edit ${host}`,
          description: 'Its secret stays the same.',
        },
        'secondary',
      )}
    >
      <RowForm row={row} form={form} className="flex flex-col gap-4">
        <EndpointFieldset
          fields={fields as unknown as EndpointFields}
          eventChoices={eventChoices}
          checked={endpoint.eventTypes}
          idPrefix={`edit-${endpoint.id}`}
        />
        {dialog.formError ? <FormMessage>{dialog.formError}</FormMessage> : null}
        <DialogActions pending={dialog.pending} label="Save endpoint" />
      </RowForm>
    </FormDialog>
  )
}

function EnableButton({ endpoint }: { endpoint: WebhookEndpointView }) {
  const row = { intent: 'enable-endpoint', rowKey: 'endpointId', rowId: endpoint.id }
  const { pending, form } = useRowForm(enableEndpointForm, row, { id: `enable-${endpoint.id}` })
  return (
    <RowForm row={row} form={form}>
      <StatusButton pending={pending} pendingText="Turning on…" size="sm">
        Turn on<span className="sr-only"> {hostOf(endpoint.url)}</span>
      </StatusButton>
    </RowForm>
  )
}

function EndpointState({ endpoint }: { endpoint: WebhookEndpointView }) {
  if (!endpoint.enabled) {
    return (
      <span className="text-red-700 dark:text-red-300">
        Disabled {when(endpoint.disabledAt)}
        {endpoint.disabledReason ? (
          <span className="block text-xs">{endpoint.disabledReason}</span>
        ) : null}
      </span>
    )
  }
  return (
    <span>
      {endpoint.failingSince ? `Failing since ${when(endpoint.failingSince)}` : 'On'}
      {endpoint.previousSecretUntil ? (
        <span className="block text-xs text-gray-600 dark:text-gray-400">
          Old secret signs too until {when(endpoint.previousSecretUntil)}
        </span>
      ) : null}
    </span>
  )
}

function EndpointsPanel({
  endpoints,
  eventChoices,
  overlapChoices,
}: Pick<WebhooksPageProps, 'endpoints' | 'eventChoices' | 'overlapChoices'>) {
  const actionData = useActionData<ActionData>()
  const newSecret = actionData?.newSecret
  return (
    <Panel
      title="Endpoints"
      description="Your receiver verifies each message with the endpoint's secret. A secret is shown once, when it is made."
    >
      {newSecret ? (
        <SecretShownOnce
          message={`Copy the signing secret for ${hostOf(newSecret.url)} now: it is not shown again.`}
          id="new-webhook-secret"
          label="Signing secret"
          value={newSecret.secret}
          hint="Give it to your receiver's Standard Webhooks library (new Webhook(secret).verify(body, headers))."
        />
      ) : null}
      {endpoints.length === 0 ? (
        <EmptyState icon={Webhook} title="No endpoints yet">
          Add one above to have events sent to it.
        </EmptyState>
      ) : (
        <DataTable
          frame={`${TABLE_FRAME} relative`}
          columns={[
            { label: 'Endpoint' },
            { label: 'Events', className: 'hidden px-4 py-3 font-medium md:table-cell' },
            { label: 'State' },
            actionsColumn(),
          ]}
        >
          {endpoints.map((endpoint) => (
            <tr key={endpoint.id}>
              <td className={`${TD} [overflow-wrap:anywhere]`}>
                <span className="font-mono">{endpoint.url}</span>
                {endpoint.description ? (
                  <span className="block text-xs text-gray-600 dark:text-gray-400">
                    {endpoint.description}
                  </span>
                ) : null}
              </td>
              <td className={`${TD} hidden font-mono text-xs md:table-cell`}>
                {endpoint.eventTypes.join(', ')}
              </td>
              <td className={TD}>
                <EndpointState endpoint={endpoint} />
              </td>
              <td className={TD}>
                <div className="flex flex-wrap justify-end gap-2">
                  {endpoint.enabled ? null : <EnableButton endpoint={endpoint} />}
                  <EditDialog endpoint={endpoint} eventChoices={eventChoices} />
                  <RotateWithOverlapDialog
                    schema={rotateSecretForm}
                    row={{ intent: 'rotate-secret', rowKey: 'endpointId', rowId: endpoint.id }}
                    hoursField="overlapHours"
                    choices={overlapChoices}
                    triggerText="Rotate secret"
                    triggerSrText={`of ${hostOf(endpoint.url)}`}
                    title={`Rotate the secret of ${hostOf(endpoint.url)}`}
                    description="A new secret signs from now on. The old one keeps signing beside it for the time you choose (both signatures are sent), so your receiver can switch without refusing a message."
                    selectLabel="The old secret keeps signing for"
                    submitLabel="Rotate secret"
                  />
                  <ConfirmRowDialog
                    schema={deleteEndpointForm}
                    row={{ intent: 'delete-endpoint', rowKey: 'endpointId', rowId: endpoint.id }}
                    formId={`delete-${endpoint.id}`}
                    triggerText="Delete"
                    triggerSrText={hostOf(endpoint.url)}
                    title={`Delete ${hostOf(endpoint.url)}?`}
                    description="Nothing more is sent to it, and its delivery log is deleted with it."
                    confirmLabel="Delete endpoint"
                    pendingText="Deleting…"
                  />
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {actionData?.error && actionData.intent !== 'create-endpoint' ? (
        <FormMessage>{actionData.error}</FormMessage>
      ) : null}
    </Panel>
  )
}

const STATUS_LABEL: Record<Delivery['status'], string> = {
  pending: 'Retrying',
  succeeded: 'Delivered',
  failed: 'Failed',
}

const STATUS_CLASS: Record<Delivery['status'], string> = {
  pending: 'rounded bg-amber-100 px-2 py-0.5 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
  succeeded:
    'rounded bg-green-100 px-2 py-0.5 text-green-900 dark:bg-green-950 dark:text-green-100',
  failed: 'rounded bg-red-100 px-2 py-0.5 text-red-900 dark:bg-red-950 dark:text-red-100',
}

function ResendButton({ delivery }: { delivery: Delivery }) {
  const row = { intent: 'resend', rowKey: 'deliveryId', rowId: delivery.id }
  const { pending, form } = useRowForm(resendDeliveryForm, row, { id: `resend-${delivery.id}` })
  return (
    <RowForm row={row} form={form}>
      <StatusButton pending={pending} pendingText="Resending…" size="sm" variant="secondary">
        Resend
      </StatusButton>
    </RowForm>
  )
}

const logHref = (endpointId: string | null, page: number) =>
  `?${new URLSearchParams({ ...(endpointId ? { endpoint: endpointId } : {}), ...(page > 1 ? { page: String(page) } : {}) })}`

function LogPanel({ log, endpoints }: Pick<WebhooksPageProps, 'log' | 'endpoints'>) {
  const hosts = new Map(endpoints.map((endpoint) => [endpoint.id, hostOf(endpoint.url)]))
  return (
    <Panel
      title="Delivery log"
      description="Every message sent to your endpoints, newest first. Open one to see each attempt: its answer, how long it took, the size of the answer's body and the error."
    >
      {endpoints.length > 1 ? (
        <LogFilter
          links={[
            { id: null, host: 'All endpoints' },
            ...endpoints.map((e) => ({ id: e.id, host: hostOf(e.url) })),
          ].map((choice) => ({
            key: choice.id ?? 'all',
            label: choice.host,
            href: logHref(choice.id, 1),
            current: log.endpointId === choice.id,
          }))}
        />
      ) : null}
      {log.deliveries.length === 0 ? (
        <EmptyState icon={ScrollText} title="No deliveries yet">
          Messages appear here as soon as an event your endpoints subscribe to happens.
        </EmptyState>
      ) : (
        <LogList label="Deliveries">
          {log.deliveries.map((delivery) => (
            <LogEntry
              key={delivery.id}
              summary={
                <>
                  <span className={STATUS_CLASS[delivery.status]}>
                    {STATUS_LABEL[delivery.status]}
                  </span>
                  <span className="font-mono">{delivery.eventType}</span>
                  <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">
                    to {hosts.get(delivery.endpointId) ?? 'a deleted endpoint'}
                  </span>
                  <span>
                    {delivery.attempts.length}{' '}
                    {delivery.attempts.length === 1 ? 'attempt' : 'attempts'}
                  </span>
                  <time dateTime={delivery.createdAt} className="text-gray-600 dark:text-gray-400">
                    {when(delivery.createdAt)}
                  </time>
                </>
              }
            >
              {delivery.status === 'pending' && delivery.nextAttemptAt ? (
                <p>Next attempt {when(delivery.nextAttemptAt)}</p>
              ) : null}
              <DataTable
                columns={[
                  { label: 'Attempted' },
                  { label: 'Answer' },
                  { label: 'Took' },
                  { label: 'Body' },
                  { label: 'Error' },
                ]}
              >
                {delivery.attempts.map((attempt) => (
                  <tr key={attempt.id}>
                    <td className={`${TD} whitespace-nowrap`}>
                      {when(attempt.at)}
                      {attempt.manual ? ' (resent)' : ''}
                    </td>
                    <td className={`${TD} font-mono`}>{attempt.statusCode ?? '—'}</td>
                    <td className={`${TD} whitespace-nowrap`}>{attempt.durationMs} ms</td>
                    <td className={`${TD} whitespace-nowrap`}>
                      {attempt.responseBytes === null ? '—' : `${attempt.responseBytes} B`}
                    </td>
                    <td className={`${TD} [overflow-wrap:anywhere]`}>{attempt.error ?? '—'}</td>
                  </tr>
                ))}
              </DataTable>
              <div>
                <ResendButton delivery={delivery} />
              </div>
            </LogEntry>
          ))}
        </LogList>
      )}
      <LogPages log={log} noun="deliveries" hrefOf={(page) => logHref(log.endpointId, page)} />
    </Panel>
  )
}

export function WebhooksPage(props: WebhooksPageProps) {
  return (
    <main className="flex flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title="Webhooks"
        description="Send your other systems signed events as they happen: new leads and contacts, deleted leads, card edits, hourly card views and deactivated people."
        actions={null}
      />
      <AddEndpointPanel eventChoices={props.eventChoices} />
      <EndpointsPanel
        endpoints={props.endpoints}
        eventChoices={props.eventChoices}
        overlapChoices={props.overlapChoices}
      />
      <LogPanel log={props.log} endpoints={props.endpoints} />
    </main>
  )
}
