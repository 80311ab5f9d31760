// The agency's Directory Sync screen (issue 42 point 2, ADR 089): the SCIM base URL, the tokens
// (a new one shown once), the role new people get, and the provisioning log with each call's
// request, changes and error. Agency admins only.
import { getFormProps } from '@conform-to/react'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { KeyRound, ScrollText } from 'lucide-react'
import { ErrorList, FormField, FormMessage, FormSelect, useSchemaForm } from '#app/components/forms'
import { PageHeader, TD } from '#app/components/people/people-ui'
import { CopyField } from '#app/components/ui/copy-field'
import { actionsColumn, DataTable, TABLE_FRAME } from '#app/components/ui/data-table'
import { EmptyState } from '#app/components/ui/empty-state'
import { LogEntry, LogFilter, LogList, LogPages } from '#app/components/ui/event-log'
import type { IntentReply } from '#app/components/ui/intent-reply'
import { Panel } from '#app/components/ui/panel'
import { ConfirmRowDialog, RotateWithOverlapDialog } from '#app/components/ui/row-dialogs'
import { SecretShownOnce } from '#app/components/ui/secret-shown-once'
import { StatusButton } from '#app/components/ui/status-button'
import { utcTime } from '#app/components/ui/utc-time'
import type { ScimTokenView } from '#app/scim/scim-tokens.server'
import {
  createTokenForm,
  directoryCardFieldsForm,
  revokeTokenForm,
  rotateTokenForm,
  SCIM_LOG_STATUSES,
  scimRoleForm,
} from '#app/validation/scim'

type Choice = { value: string; label: string }

type LogEvent = {
  id: string
  at: string
  method: string
  path: string
  status: number
  resourceType: string | null
  resourceId: string | null
  token: string | null
  request: string | null
  changes: string | null
  error: string | null
}

export type ScimPageProps = {
  baseUrl: string
  tokens: ScimTokenView[]
  role: string
  roleChoices: Choice[]
  cardFields: string[]
  cardFieldChoices: Choice[]
  graceChoices: Choice[]
  log: {
    status: (typeof SCIM_LOG_STATUSES)[number]
    page: number
    pages: number
    total: number
    events: LogEvent[]
  }
}

type ActionData = IntentReply & { newToken?: { token: string; name: string } }

const STATE_LABEL: Record<ScimTokenView['state'], string> = {
  active: 'Active',
  expiring: 'Working until its overlap ends',
  expired: 'Expired',
  revoked: 'Revoked',
}

function NewTokenForm({ actionData }: { actionData: ActionData | undefined }) {
  const navigation = useNavigation()
  const [form, fields] = useSchemaForm(createTokenForm, {
    id: 'create-token',
    lastResult: actionData?.intent === 'create-token' ? actionData.result : null,
  })
  const pending = navigation.formData?.get('intent') === 'create-token'
  return (
    <Form
      method="POST"
      className="flex flex-col gap-3 sm:flex-row sm:items-start"
      {...getFormProps(form)}
    >
      <input type="hidden" name="intent" value="create-token" />
      <FormField
        label="Token name"
        field={fields.name}
        hint="Who uses it, e.g. Microsoft Entra or Okta."
        className="min-w-0 flex-1"
      />
      <StatusButton pending={pending} pendingText="Creating…" className="sm:mt-6">
        <KeyRound aria-hidden className="h-4 w-4" /> Create token
      </StatusButton>
    </Form>
  )
}

function TokensPanel({ tokens, graceChoices }: Pick<ScimPageProps, 'tokens' | 'graceChoices'>) {
  const actionData = useActionData<ActionData>()
  const newToken = actionData?.newToken
  return (
    <Panel
      title="Tokens"
      description="Your identity provider sends one with every call. A token is shown once, when it is made; only its last four characters are kept to tell it apart."
    >
      {newToken ? (
        <SecretShownOnce
          message={`Copy the token for ${newToken.name} now: it is not shown again.`}
          id="new-scim-token"
          label="Secret token"
          value={newToken.token}
          hint="Paste it as the Secret Token (Entra), the API token (Okta) or the bearer token (Google Workspace)."
        />
      ) : null}
      <NewTokenForm actionData={actionData} />
      {tokens.length === 0 ? (
        <EmptyState icon={KeyRound} title="No tokens yet">
          Create one, then paste it with the SCIM base URL into your identity provider.
        </EmptyState>
      ) : (
        <DataTable
          // Positioned, so the buttons' screen-reader text stays inside the scrolling frame.
          frame={`${TABLE_FRAME} relative`}
          columns={[
            { label: 'Name' },
            { label: 'Token' },
            { label: 'State' },
            { label: 'Last used', className: 'hidden px-4 py-3 font-medium sm:table-cell' },
            actionsColumn(),
          ]}
        >
          {tokens.map((token) => (
            <tr key={token.id}>
              <td className={`${TD} [overflow-wrap:anywhere]`}>{token.name}</td>
              <td className={`${TD} whitespace-nowrap font-mono`}>
                <span className="sr-only">ending in </span>
                <span aria-hidden>…</span>
                {token.lastFour}
              </td>
              <td className={TD}>
                {STATE_LABEL[token.state]}
                {token.state === 'expiring' ? (
                  <span className="block text-xs text-gray-600 dark:text-gray-400">
                    until {utcTime(token.expiresAt)}
                  </span>
                ) : null}
              </td>
              <td className={`${TD} hidden whitespace-nowrap sm:table-cell`}>
                {utcTime(token.lastUsedAt)}
              </td>
              <td className={TD}>
                {token.state === 'active' || token.state === 'expiring' ? (
                  <div className="flex flex-wrap justify-end gap-2">
                    {token.state === 'active' ? (
                      <RotateWithOverlapDialog
                        schema={rotateTokenForm}
                        row={{ intent: 'rotate-token', rowKey: 'tokenId', rowId: token.id }}
                        hoursField="graceHours"
                        choices={graceChoices}
                        triggerText="Rotate"
                        triggerSrText={token.name}
                        title={`Rotate ${token.name}`}
                        description="A new token replaces this one. The old one keeps working for the time you choose, so you can paste the new one into your identity provider without a gap."
                        selectLabel="The old token keeps working for"
                        submitLabel="Rotate token"
                      />
                    ) : null}
                    <ConfirmRowDialog
                      schema={revokeTokenForm}
                      row={{ intent: 'revoke-token', rowKey: 'tokenId', rowId: token.id }}
                      formId={`revoke-${token.id}`}
                      triggerText="Revoke"
                      triggerSrText={token.name}
                      title={`Revoke ${token.name}?`}
                      description="Your identity provider's next call with this token is refused. Nothing it provisioned is removed."
                      confirmLabel="Revoke token"
                      pendingText="Revoking…"
                    />
                  </div>
                ) : null}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {actionData?.error &&
      actionData.intent !== 'create-token' &&
      actionData.intent !== 'set-role' ? (
        <FormMessage>{actionData.error}</FormMessage>
      ) : null}
    </Panel>
  )
}

function RolePanel({ role, roleChoices }: Pick<ScimPageProps, 'role' | 'roleChoices'>) {
  const actionData = useActionData<ActionData>()
  const navigation = useNavigation()
  const [form, fields] = useSchemaForm(scimRoleForm, {
    id: 'set-role',
    lastResult: actionData?.intent === 'set-role' ? actionData.result : null,
    defaultValue: { intent: 'set-role', role },
  })
  const pending = navigation.formData?.get('intent') === 'set-role'
  return (
    <Panel
      title="New people's role"
      description="The role a person your directory adds gets here. People who already have an account keep theirs."
    >
      <Form
        method="POST"
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
        {...getFormProps(form)}
      >
        <input type="hidden" name="intent" value="set-role" />
        <div className="min-w-0 flex-1">
          <FormSelect label="Role" field={fields.role}>
            {roleChoices.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </FormSelect>
        </div>
        <StatusButton pending={pending} pendingText="Saving…">
          Save role
        </StatusButton>
      </Form>
    </Panel>
  )
}

function CardFieldsPanel({
  cardFields,
  cardFieldChoices,
}: Pick<ScimPageProps, 'cardFields' | 'cardFieldChoices'>) {
  const actionData = useActionData<ActionData>()
  const navigation = useNavigation()
  const [form, fields] = useSchemaForm(directoryCardFieldsForm, {
    id: 'set-card-fields',
    lastResult: actionData?.intent === 'set-card-fields' ? actionData.result : null,
    defaultValue: { intent: 'set-card-fields', fields: cardFields },
  })
  const pending = navigation.formData?.get('intent') === 'set-card-fields'
  const errorId = fields.fields.errors?.length ? fields.fields.errorId : undefined
  return (
    <Panel
      title="Directory fields on cards"
      description="The card fields that follow your directory: saving brings every card of the people it manages to it now, and each change there is written to the person's cards (their pages and wallet passes refresh). People see these fields read only in the card editor. A field a card template locks keeps the template's value."
    >
      <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="set-card-fields" />
        <fieldset className="flex flex-col gap-2" aria-describedby={errorId}>
          <legend className="mb-1 text-sm font-medium">Cards follow</legend>
          {cardFieldChoices.map((choice) => (
            <label key={choice.value} className="flex items-start gap-3 text-sm">
              <input
                type="checkbox"
                name={fields.fields.name}
                value={choice.value}
                defaultChecked={cardFields.includes(choice.value)}
                className="mt-0.5 h-5 w-5 shrink-0 accent-brand"
              />
              {choice.label}
            </label>
          ))}
          <ErrorList id={errorId} errors={fields.fields.errors} />
        </fieldset>
        <StatusButton pending={pending} pendingText="Saving…" className="self-start">
          Save fields
        </StatusButton>
      </Form>
    </Panel>
  )
}

const FILTER_LABEL: Record<ScimPageProps['log']['status'], string> = {
  all: 'All calls',
  ok: 'Succeeded',
  error: 'Failed',
}

const logHref = (status: string, page: number) =>
  `?${new URLSearchParams({ ...(status === 'all' ? {} : { status }), ...(page > 1 ? { page: String(page) } : {}) })}`

function Detail({ title, text }: { title: string; text: string | null }) {
  if (!text) return null
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <h4 className="text-xs font-semibold uppercase tracking-wide text-gray-600 dark:text-gray-400">
        {title}
      </h4>
      <pre className="max-h-72 overflow-auto rounded-md bg-gray-50 p-3 text-xs [overflow-wrap:anywhere] whitespace-pre-wrap dark:bg-gray-900">
        {text}
      </pre>
    </div>
  )
}

function LogPanel({ log }: Pick<ScimPageProps, 'log'>) {
  const navigation = useNavigation()
  const loading = navigation.state === 'loading' && navigation.location.pathname.endsWith('/scim')
  return (
    <Panel
      title="Provisioning log"
      description="Every call your identity provider made, newest first. Open a row to see what came, what changed and the error."
    >
      <LogFilter
        links={SCIM_LOG_STATUSES.map((status) => ({
          key: status,
          label: FILTER_LABEL[status],
          href: logHref(status, 1),
          current: log.status === status,
        }))}
      />
      <div aria-busy={loading} className={loading ? 'opacity-60' : undefined}>
        {log.events.length === 0 ? (
          <EmptyState icon={ScrollText} title="No calls yet">
            {log.status === 'all'
              ? 'Calls appear here as soon as your identity provider uses a token.'
              : `No ${FILTER_LABEL[log.status].toLowerCase()} calls.`}
          </EmptyState>
        ) : (
          <LogList>
            {log.events.map((event) => (
              <LogEntry
                key={event.id}
                summary={
                  <>
                    <span
                      className={
                        event.status >= 400
                          ? 'rounded bg-red-100 px-2 py-0.5 font-mono text-red-900 dark:bg-red-950 dark:text-red-100'
                          : 'rounded bg-green-100 px-2 py-0.5 font-mono text-green-900 dark:bg-green-950 dark:text-green-100'
                      }
                    >
                      {event.status}
                    </span>
                    <span className="font-mono">{event.method}</span>
                    <span className="min-w-0 flex-1 font-mono [overflow-wrap:anywhere]">
                      {event.path}
                    </span>
                    <time dateTime={event.at} className="text-gray-600 dark:text-gray-400">
                      {utcTime(event.at)}
                    </time>
                  </>
                }
              >
                <p className="text-gray-600 dark:text-gray-400">
                  {event.token ? `Token: ${event.token}` : 'No accepted token'}
                  {event.resourceType ? ` · ${event.resourceType}` : ''}
                  {event.resourceId ? ` ${event.resourceId}` : ''}
                </p>
                {event.error ? <FormMessage>{event.error}</FormMessage> : null}
                <Detail title="What came" text={event.request} />
                <Detail title="What changed" text={event.changes} />
                {!event.request && !event.changes && !event.error ? (
                  <p className="text-gray-600 dark:text-gray-400">A read: nothing changed.</p>
                ) : null}
              </LogEntry>
            ))}
          </LogList>
        )}
      </div>
      <LogPages log={log} noun="calls" hrefOf={(page) => logHref(log.status, page)} />
    </Panel>
  )
}

export function ScimPage(props: ScimPageProps) {
  return (
    <main className="flex flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title="Directory Sync"
        description="Let Microsoft Entra, Okta or Google Workspace create, update and deactivate your people and teams over SCIM 2.0."
        actions={null}
      />
      <Panel
        title="Connection"
        description="Your identity provider calls this address with a token from below."
      >
        <CopyField
          id="scim-base-url"
          label="SCIM base URL"
          value={props.baseUrl}
          hint="Paste it as the Tenant URL (Entra), the SCIM connector base URL (Okta) or the endpoint URL (Google Workspace). See the set-up guide in the docs for each."
        />
      </Panel>
      <TokensPanel tokens={props.tokens} graceChoices={props.graceChoices} />
      <RolePanel key={props.role} role={props.role} roleChoices={props.roleChoices} />
      <CardFieldsPanel
        key={props.cardFields.join()}
        cardFields={props.cardFields}
        cardFieldChoices={props.cardFieldChoices}
      />
      <LogPanel log={props.log} />
    </main>
  )
}
