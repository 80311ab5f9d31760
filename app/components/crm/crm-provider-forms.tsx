// HubSpot's and Salesforce's forms on the CRM integration screen (ADR 094), beside
// GoHighLevel's: the credentials (sealed once saved, never shown again), the same 'Enable CRM
// Integration' switch, a save that checks the credentials with one call and says a refusal at
// the field, and how to get the credentials.
import {
  type FormMetadata,
  getFormProps,
  getInputProps,
  type SubmissionResult,
} from '@conform-to/react'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { type ReactNode, useEffect, useState } from 'react'
import { ErrorList, type FormField, useSchemaForm } from '#app/components/forms'
import { TitledSection } from '#app/components/ui/titled-section'
import { toast } from '#app/components/ui/toasts'
import { ApiSettingsSchema } from '#app/validation/api-settings'
import { EnableSwitch, RemoveSavedCredentials, SaveSettingsButton } from './crm-form-parts'

export type HubspotView = { hasToken: boolean; tokenLast4: string | null; enabled: boolean }
export type SalesforceView = {
  instanceUrl: string
  clientId: string
  hasSecret: boolean
  secretLast4: string | null
  enabled: boolean
}

type ActionData =
  | { result?: SubmissionResult<string[]>; intent: string | null; error: string | null }
  | undefined

const INPUT_CLASS =
  'h-10 w-full min-w-0 rounded-md border border-gray-300 bg-white px-3 text-sm shadow-sm placeholder:text-gray-500 focus-visible:border-brand aria-[invalid]:border-red-500 dark:border-gray-700 dark:bg-gray-900 dark:placeholder:text-gray-400'
// Until the token or secret is saved, HubSpot and Salesforce have nothing to check: say so.
const SAVE_WORKING_CREDENTIALS = 'Save working credentials to turn the integration on.'
const CARD_CLASS =
  'flex flex-col gap-5 rounded-2xl border border-gray-200 bg-white p-6 shadow-sm dark:border-gray-800 dark:bg-gray-950'
const HELP_CLASS =
  'flex flex-col gap-3 rounded-2xl border border-blue-200 bg-blue-50 p-6 text-sm dark:border-blue-900 dark:bg-blue-950/40'

/** The action's answer to one of these forms: a toast for what no field says. */
function useReplyToast(intent: string) {
  const data = useActionData<ActionData>()
  useEffect(() => {
    if (data?.intent === intent && data.error && !data.result) toast.error(data.error)
  }, [data, intent])
  return data?.intent === intent ? data : undefined
}

function usePending(intent: string) {
  const navigation = useNavigation()
  return navigation.state !== 'idle' && navigation.formData?.get('intent') === intent
}

type InputField = Parameters<typeof FormField>[0]['field']

/** A labelled credential input, with its hint when it has one and its errors. */
function CredentialInput({
  field,
  label,
  type,
  hint,
  placeholder,
  onType,
}: {
  field: InputField
  label: string
  type: 'text' | 'url' | 'password'
  hint?: { id: string; text: string }
  placeholder?: string
  /** Told what is typed: an empty secret field keeps the saved one. */
  onType?: (value: string) => void
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={field.id} className="text-sm font-medium">
        {label}
      </label>
      <input
        {...getInputProps(field, { type, ariaDescribedBy: hint?.id })}
        autoComplete="off"
        spellCheck={false}
        onChange={onType ? (event) => onType(event.target.value) : undefined}
        placeholder={placeholder}
        className={INPUT_CLASS}
      />
      {hint ? (
        <p id={hint.id} className="text-xs text-gray-600 dark:text-gray-400">
          {hint.text}
        </p>
      ) : null}
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  )
}

/**
 * One provider's card and its how-to: the credentials form (`children`, the fields), the switch,
 * which can be on once credentials are saved or typed, the save, and the saved ones' removal. A
 * secret left empty keeps the saved one (`keepField`).
 */
function ProviderCard<Schema extends Record<string, unknown>>({
  provider,
  title,
  form,
  saved,
  typed,
  initiallyEnabled,
  keepField,
  removeLabel,
  helpTitle,
  help,
  children,
}: {
  provider: 'hubspot' | 'salesforce'
  title: string
  form: FormMetadata<Schema, string[]>
  /** Whether a token or secret is saved. */
  saved: boolean
  /** The token or secret typed into its field, '' while none is. */
  typed: string
  initiallyEnabled: boolean
  keepField: string
  removeLabel: string
  helpTitle: string
  help: ReactNode
  children: ReactNode
}) {
  const intent = `save-${provider}`
  const pending = usePending(intent)
  const [enabled, setEnabled] = useState(initiallyEnabled)
  const keep = saved && typed === ''
  return (
    <>
      <TitledSection
        id={`crm-${provider}-title`}
        title={title}
        className={CARD_CLASS}
        titleClassName="text-lg font-semibold"
      >
        <Form method="POST" className="flex flex-col gap-5" {...getFormProps(form)}>
          <input type="hidden" name={keepField} value={keep ? '1' : '0'} />
          {children}
          <EnableSwitch
            id={`crm-${provider}-enabled`}
            disabled={!saved && typed === ''}
            checked={typed !== '' || enabled}
            onChange={setEnabled}
            missing={SAVE_WORKING_CREDENTIALS}
          />
          <SaveSettingsButton intent={intent} pending={pending} />
        </Form>
        {saved ? (
          <RemoveSavedCredentials intent={intent} keepField={keepField} label={removeLabel} />
        ) : null}
      </TitledSection>
      <TitledSection
        id={`crm-${provider}-help-title`}
        title={helpTitle}
        className={HELP_CLASS}
        titleClassName="text-base font-semibold"
      >
        {help}
      </TitledSection>
    </>
  )
}

export function HubspotSettings({ settings }: { settings: HubspotView }) {
  const data = useReplyToast('save-hubspot')
  const [typed, setTyped] = useState('')
  const [form, fields] = useSchemaForm(ApiSettingsSchema, {
    id: 'crm-hubspot',
    lastResult: data?.result,
  })
  return (
    <ProviderCard
      provider="hubspot"
      title="HubSpot"
      form={form}
      saved={settings.hasToken}
      typed={typed}
      initiallyEnabled={settings.enabled}
      keepField="keepStoredHubspotToken"
      removeLabel="Remove saved token"
      helpTitle="How to get your HubSpot token"
      help={
        <>
          <ol className="list-decimal space-y-1 pl-5 text-gray-800 dark:text-gray-200">
            <li>
              In HubSpot, open <strong>Settings</strong>, then <strong>Integrations</strong>,{' '}
              <strong>Private Apps</strong>, and create a private app.
            </li>
            <li>
              Under <strong>Scopes</strong>, tick <code>crm.objects.contacts.read</code> and{' '}
              <code>crm.objects.contacts.write</code>.
            </li>
            <li>
              Create a contact property with the internal name <code>lead_consent</code>{' '}
              (single-line text): leads who agreed to be contacted carry their consent there.
            </li>
            <li>Copy the app's access token, paste it above and save.</li>
          </ol>
          <p className="text-gray-700 dark:text-gray-300">
            Contacts are matched by email, so a person you meet twice stays one contact; each gets a
            note naming the card and how you met.
          </p>
        </>
      }
    >
      <CredentialInput
        field={fields.hubspotToken}
        label="Private app access token"
        type="password"
        hint={{
          id: 'crm-hubspot-token-hint',
          text: settings.hasToken
            ? `A token ending in ${settings.tokenLast4} is saved. It is stored encrypted and never shown again; type a new one to replace it.`
            : 'Saving checks the token with HubSpot. It is stored encrypted and never shown again.',
        }}
        placeholder={
          settings.hasToken ? `Saved token ending in ${settings.tokenLast4}` : 'pat-na1-...'
        }
        onType={setTyped}
      />
    </ProviderCard>
  )
}

export function SalesforceSettings({ settings }: { settings: SalesforceView }) {
  const data = useReplyToast('save-salesforce')
  const [typed, setTyped] = useState('')
  const [form, fields] = useSchemaForm(ApiSettingsSchema, {
    id: 'crm-salesforce',
    lastResult: data?.result,
    defaultValue: {
      salesforceUrl: settings.instanceUrl,
      salesforceClientId: settings.clientId,
    },
  })
  return (
    <ProviderCard
      provider="salesforce"
      title="Salesforce"
      form={form}
      saved={settings.hasSecret}
      typed={typed}
      initiallyEnabled={settings.enabled}
      keepField="keepStoredSalesforceSecret"
      removeLabel="Remove saved credentials"
      helpTitle="How to connect Salesforce"
      help={
        <ol className="list-decimal space-y-1 pl-5 text-gray-800 dark:text-gray-200">
          <li>
            In Setup, create an external client app (or connected app) with OAuth on, the{' '}
            <strong>api</strong> scope, and <strong>Enable Client Credentials Flow</strong>.
          </li>
          <li>
            Under its policies, choose a <strong>Run As</strong> user who may create, edit and
            delete leads: leads are created as that user.
          </li>
          <li>
            Add a text field to Lead with the API name <code>Lead_Consent__c</code>: leads who
            agreed to be contacted carry their consent there.
          </li>
          <li>Copy the consumer key and secret and your My Domain URL here, and save.</li>
        </ol>
      }
    >
      <CredentialInput
        field={fields.salesforceUrl}
        label="My Domain URL"
        type="url"
        hint={{
          id: 'crm-salesforce-url-hint',
          text: 'From Setup, My Domain: the address your org signs in at.',
        }}
        placeholder="https://yourcompany.my.salesforce.com"
      />
      <CredentialInput field={fields.salesforceClientId} label="Consumer key" type="text" />
      <CredentialInput
        field={fields.salesforceClientSecret}
        label="Consumer secret"
        type="password"
        hint={{
          id: 'crm-salesforce-secret-hint',
          text: 'Saving asks Salesforce for a token with these credentials. The secret is stored encrypted and never shown again.',
        }}
        placeholder={
          settings.hasSecret ? `Saved secret ending in ${settings.secretLast4}` : undefined
        }
        onType={setTyped}
      />
    </ProviderCard>
  )
}
