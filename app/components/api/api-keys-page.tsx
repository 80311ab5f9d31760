// The agency's API screen (issue 43 point 1, ADR 092): the base URL and the reference, the keys
// (a new one shown once, with its scopes and optional expiry), each key's last use, Revoke.
import { getFormProps, getInputProps } from '@conform-to/react'
import { Form, Link, useActionData, useNavigation } from '@remix-run/react'
import { BookOpen, KeyRound } from 'lucide-react'
import type { ApiKeyView } from '#app/api/manage-api-keys.server'
import { ErrorList, FormField, FormMessage, useSchemaForm } from '#app/components/forms'
import { PageHeader, TD } from '#app/components/people/people-ui'
import { Button } from '#app/components/ui/button'
import { CopyField } from '#app/components/ui/copy-field'
import { actionsColumn, DataTable, TABLE_FRAME } from '#app/components/ui/data-table'
import { ConfirmActions, ConfirmDialog } from '#app/components/ui/dialog'
import { EmptyState } from '#app/components/ui/empty-state'
import type { IntentReply } from '#app/components/ui/intent-reply'
import { Panel } from '#app/components/ui/panel'
import { RowDialogButton } from '#app/components/ui/row-intent-form'
import { StatusButton } from '#app/components/ui/status-button'
import { utcTime } from '#app/components/ui/utc-time'
import { type ApiResource, createApiKeyForm, revokeApiKeyForm } from '#app/validation/api'

export type ApiKeysPageProps = {
  baseUrl: string
  keys: ApiKeyView[]
  resources: { resource: ApiResource; label: string }[]
}

type ActionData = IntentReply & { newKey?: { key: string; name: string } }

const STATE_LABEL: Record<ApiKeyView['state'], string> = {
  active: 'Active',
  expired: 'Expired',
  revoked: 'Revoked',
}

function NewKeyForm({ resources }: Pick<ApiKeysPageProps, 'resources'>) {
  const actionData = useActionData<ActionData>()
  const navigation = useNavigation()
  const [form, fields] = useSchemaForm(createApiKeyForm, {
    id: 'create-key',
    lastResult: actionData?.intent === 'create-key' ? actionData.result : null,
  })
  const pending = navigation.formData?.get('intent') === 'create-key'
  const scopesError = fields.scopes.errors?.length ? fields.scopes.errorId : undefined
  return (
    <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="create-key" />
      <FormField
        label="Key name"
        field={fields.name}
        hint="What uses it, e.g. HubSpot sync or the intranet."
      />
      <fieldset className="flex flex-col gap-2" aria-describedby={scopesError}>
        <legend className="text-sm font-medium">Permissions</legend>
        <div className="flex flex-col gap-2">
          {resources.map(({ resource, label }) => (
            <div
              key={resource}
              className="flex flex-col gap-2 rounded-lg border border-gray-200 p-3 sm:flex-row sm:items-center sm:justify-between dark:border-gray-800"
            >
              <span className="text-sm">{label}</span>
              <div className="flex gap-4">
                {(['read', 'write'] as const).map((access) => (
                  <label key={access} className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      name={fields.scopes.name}
                      value={`${resource}:${access}`}
                      className="h-5 w-5 accent-brand"
                    />
                    {access === 'read' ? 'Read' : 'Write'}
                    <span className="sr-only"> {label}</span>
                  </label>
                ))}
              </div>
            </div>
          ))}
        </div>
        <ErrorList id={scopesError} errors={fields.scopes.errors} />
      </fieldset>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={fields.expiresOn.id} className="text-sm font-medium">
          Expires on (optional)
        </label>
        <input
          {...getInputProps(fields.expiresOn, { type: 'date' })}
          aria-describedby={`${fields.expiresOn.id}-hint ${fields.expiresOn.errors?.length ? fields.expiresOn.errorId : ''}`.trim()}
          className="h-10 w-full max-w-xs rounded-md border border-gray-300 bg-white px-3 text-sm dark:border-gray-700 dark:bg-gray-950"
        />
        <p id={`${fields.expiresOn.id}-hint`} className="text-xs text-gray-600 dark:text-gray-400">
          The key stops working at the end of this day (UTC). Leave empty for no expiry.
        </p>
        <ErrorList id={fields.expiresOn.errorId} errors={fields.expiresOn.errors} />
      </div>
      <div>
        <StatusButton pending={pending} pendingText="Creating…">
          <KeyRound aria-hidden className="h-4 w-4" /> Create key
        </StatusButton>
      </div>
    </Form>
  )
}

function RevokeDialog({ apiKey }: { apiKey: ApiKeyView }) {
  const navigation = useNavigation()
  const [form] = useSchemaForm(revokeApiKeyForm, {
    id: `revoke-${apiKey.id}`,
    defaultValue: { intent: 'revoke-key', keyId: apiKey.id },
  })
  const pending =
    navigation.formData?.get('intent') === 'revoke-key' &&
    navigation.formData?.get('keyId') === apiKey.id
  return (
    <ConfirmDialog
      trigger={
        <RowDialogButton variant="danger" srText={apiKey.name}>
          Revoke
        </RowDialogButton>
      }
      title={`Revoke ${apiKey.name}?`}
      description="The next request with this key is refused. Nothing it wrote is removed."
    >
      <Form method="POST" className="flex justify-end gap-2" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="revoke-key" />
        <input type="hidden" name="keyId" value={apiKey.id} />
        <ConfirmActions pending={pending} label="Revoke key" pendingText="Revoking…" />
      </Form>
    </ConfirmDialog>
  )
}

export function ApiKeysPage({ baseUrl, keys, resources }: ApiKeysPageProps) {
  const actionData = useActionData<ActionData>()
  const newKey = actionData?.newKey
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="API"
        description="Keys let your own systems read and change your agency's cards, contacts, users and teams through the REST API."
        actions={
          <Button asChild variant="secondary">
            <Link to="/dashboard/agency/api/reference">
              <BookOpen aria-hidden className="h-4 w-4" /> API reference
            </Link>
          </Button>
        }
      />
      <Panel title="Base URL" description="Every request goes below this address.">
        <CopyField
          id="api-base-url"
          label="API base URL"
          value={baseUrl}
          hint="Send the key as Authorization: Bearer followed by the key."
        />
      </Panel>
      <Panel
        title="Keys"
        description="A key is shown once, when it is made; only its last four characters are kept to tell it apart. Keys belong to the agency: they keep working when the admin who made them leaves."
      >
        {newKey ? (
          <div
            role="status"
            className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
          >
            <p className="text-sm font-medium">
              {`Copy the key for ${newKey.name} now: it is not shown again.`}
            </p>
            <CopyField
              id="new-api-key"
              label="API key"
              value={newKey.key}
              hint="Keep it in your integration's secret store, never in code or a page."
            />
          </div>
        ) : null}
        <NewKeyForm resources={resources} />
        {keys.length === 0 ? (
          <EmptyState icon={KeyRound} title="No keys yet">
            Create one for each system that calls the API, with only the permissions it needs.
          </EmptyState>
        ) : (
          <DataTable
            frame={`${TABLE_FRAME} relative`}
            columns={[
              { label: 'Name' },
              { label: 'Key' },
              { label: 'State' },
              { label: 'Last used', className: 'hidden px-4 py-3 font-medium sm:table-cell' },
              actionsColumn(),
            ]}
          >
            {keys.map((apiKey) => (
              <tr key={apiKey.id}>
                <td className={`${TD} [overflow-wrap:anywhere]`}>
                  {apiKey.name}
                  <span className="block text-xs text-gray-600 dark:text-gray-400">
                    {apiKey.scopes.join(', ')}
                  </span>
                </td>
                <td className={`${TD} whitespace-nowrap font-mono`}>
                  <span className="sr-only">ending in </span>
                  <span aria-hidden>…</span>
                  {apiKey.lastFour}
                </td>
                <td className={TD}>
                  {STATE_LABEL[apiKey.state]}
                  {apiKey.expiresAt && apiKey.state === 'active' ? (
                    <span className="block text-xs text-gray-600 dark:text-gray-400">
                      until {utcTime(apiKey.expiresAt)}
                    </span>
                  ) : null}
                </td>
                <td className={`${TD} hidden sm:table-cell`}>
                  {utcTime(apiKey.lastUsedAt)}
                  {apiKey.lastUsedIp ? (
                    <span className="block text-xs text-gray-600 dark:text-gray-400">
                      from {apiKey.lastUsedIp}
                    </span>
                  ) : null}
                </td>
                <td className={TD}>
                  {apiKey.state === 'active' ? (
                    <div className="flex justify-end">
                      <RevokeDialog apiKey={apiKey} />
                    </div>
                  ) : null}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
        {actionData?.error && actionData.intent !== 'create-key' ? (
          <FormMessage>{actionData.error}</FormMessage>
        ) : null}
      </Panel>
    </div>
  )
}
