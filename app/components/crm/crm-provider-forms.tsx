// HubSpot's and Salesforce's forms on the CRM integration screen (ADR 094), beside
// GoHighLevel's: the credentials (sealed once saved, never shown again), the same 'Enable CRM
// Integration' switch, a save that checks the credentials with one call and says a refusal at
// the field, and how to get the credentials.
import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { ErrorList, useSchemaForm } from '#app/components/forms'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'
import { TitledSection } from '#app/components/ui/titled-section'
import { toast } from '#app/components/ui/toasts'
import { ApiSettingsSchema } from '#app/validation/api-settings'

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
const SWITCH_CLASS =
  'relative h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full bg-gray-400 transition-colors before:absolute before:top-0.5 before:left-0.5 before:h-5 before:w-5 before:rounded-full before:bg-white before:shadow before:transition-transform checked:bg-brand checked:before:translate-x-5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand disabled:cursor-not-allowed disabled:opacity-50 dark:bg-gray-600'
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

function EnableSwitch({
  id,
  disabled,
  checked,
  onChange,
}: {
  id: string
  disabled: boolean
  checked: boolean
  onChange: (on: boolean) => void
}) {
  return (
    <div className="flex items-start justify-between gap-4 rounded-lg border border-gray-200 p-4 dark:border-gray-800">
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="text-sm font-medium">
          Enable CRM Integration
        </label>
        <p id={`${id}-description`} className="text-sm text-gray-600 dark:text-gray-400">
          {disabled
            ? 'Save working credentials to turn the integration on.'
            : checked
              ? 'New contacts are added to your CRM automatically.'
              : 'Off: new contacts are not sent to your CRM. Turn it on to add them automatically.'}
        </p>
      </div>
      <input
        id={id}
        name="enabled"
        type="checkbox"
        role="switch"
        aria-checked={checked && !disabled}
        checked={checked && !disabled}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={`${id}-description`}
        className={SWITCH_CLASS}
      />
    </div>
  )
}

export function HubspotSettings({ settings }: { settings: HubspotView }) {
  const data = useReplyToast('save-hubspot')
  const pending = usePending('save-hubspot')
  const [typed, setTyped] = useState('')
  const [enabled, setEnabled] = useState(settings.enabled)
  const keep = settings.hasToken && typed === ''
  const [form, fields] = useSchemaForm(ApiSettingsSchema, {
    id: 'crm-hubspot',
    lastResult: data?.result,
  })
  return (
    <>
      <TitledSection
        id="crm-hubspot-title"
        title="HubSpot"
        className={CARD_CLASS}
        titleClassName="text-lg font-semibold"
      >
        <Form method="POST" className="flex flex-col gap-5" {...getFormProps(form)}>
          <input type="hidden" name="keepStoredHubspotToken" value={keep ? '1' : '0'} />
          <div className="flex flex-col gap-1.5">
            <label htmlFor={fields.hubspotToken.id} className="text-sm font-medium">
              Private app access token
            </label>
            <input
              {...getInputProps(fields.hubspotToken, {
                type: 'password',
                ariaDescribedBy: 'crm-hubspot-token-hint',
              })}
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => setTyped(event.target.value)}
              placeholder={
                settings.hasToken ? `Saved token ending in ${settings.tokenLast4}` : 'pat-na1-...'
              }
              className={INPUT_CLASS}
            />
            <p id="crm-hubspot-token-hint" className="text-xs text-gray-600 dark:text-gray-400">
              {settings.hasToken
                ? `A token ending in ${settings.tokenLast4} is saved. It is stored encrypted and never shown again; type a new one to replace it.`
                : 'Saving checks the token with HubSpot. It is stored encrypted and never shown again.'}
            </p>
            <ErrorList id={fields.hubspotToken.errorId} errors={fields.hubspotToken.errors} />
          </div>
          <EnableSwitch
            id="crm-hubspot-enabled"
            disabled={!settings.hasToken && typed === ''}
            checked={typed !== '' || enabled}
            onChange={setEnabled}
          />
          <div className="flex flex-wrap gap-2">
            <StatusButton
              name="intent"
              value="save-hubspot"
              pending={pending}
              pendingText="Saving..."
            >
              Save Settings
            </StatusButton>
          </div>
        </Form>
        {settings.hasToken ? (
          <Form method="POST" className="border-t border-gray-200 pt-4 dark:border-gray-800">
            <input type="hidden" name="intent" value="save-hubspot" />
            <input type="hidden" name="keepStoredHubspotToken" value="0" />
            <Button type="submit" variant="ghost" size="sm">
              Remove saved token
            </Button>
          </Form>
        ) : null}
      </TitledSection>
      <TitledSection
        id="crm-hubspot-help-title"
        title="How to get your HubSpot token"
        className={HELP_CLASS}
        titleClassName="text-base font-semibold"
      >
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
            Create a contact property with the internal name <code>lead_consent</code> (single-line
            text): leads who agreed to be contacted carry their consent there.
          </li>
          <li>Copy the app's access token, paste it above and save.</li>
        </ol>
        <p className="text-gray-700 dark:text-gray-300">
          Contacts are matched by email, so a person you meet twice stays one contact; each gets a
          note naming the card and how you met.
        </p>
      </TitledSection>
    </>
  )
}

export function SalesforceSettings({ settings }: { settings: SalesforceView }) {
  const data = useReplyToast('save-salesforce')
  const pending = usePending('save-salesforce')
  const [typed, setTyped] = useState('')
  const [enabled, setEnabled] = useState(settings.enabled)
  const keep = settings.hasSecret && typed === ''
  const [form, fields] = useSchemaForm(ApiSettingsSchema, {
    id: 'crm-salesforce',
    lastResult: data?.result,
    defaultValue: {
      salesforceUrl: settings.instanceUrl,
      salesforceClientId: settings.clientId,
    },
  })
  return (
    <>
      <TitledSection
        id="crm-salesforce-title"
        title="Salesforce"
        className={CARD_CLASS}
        titleClassName="text-lg font-semibold"
      >
        <Form method="POST" className="flex flex-col gap-5" {...getFormProps(form)}>
          <input type="hidden" name="keepStoredSalesforceSecret" value={keep ? '1' : '0'} />
          <div className="flex flex-col gap-1.5">
            <label htmlFor={fields.salesforceUrl.id} className="text-sm font-medium">
              My Domain URL
            </label>
            <input
              {...getInputProps(fields.salesforceUrl, {
                type: 'url',
                ariaDescribedBy: 'crm-salesforce-url-hint',
              })}
              autoComplete="off"
              spellCheck={false}
              placeholder="https://yourcompany.my.salesforce.com"
              className={INPUT_CLASS}
            />
            <p id="crm-salesforce-url-hint" className="text-xs text-gray-600 dark:text-gray-400">
              From Setup, My Domain: the address your org signs in at.
            </p>
            <ErrorList id={fields.salesforceUrl.errorId} errors={fields.salesforceUrl.errors} />
          </div>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={fields.salesforceClientId.id} className="text-sm font-medium">
              Consumer key
            </label>
            <input
              {...getInputProps(fields.salesforceClientId, { type: 'text' })}
              autoComplete="off"
              spellCheck={false}
              className={INPUT_CLASS}
            />
            <ErrorList
              id={fields.salesforceClientId.errorId}
              errors={fields.salesforceClientId.errors}
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={fields.salesforceClientSecret.id} className="text-sm font-medium">
              Consumer secret
            </label>
            <input
              {...getInputProps(fields.salesforceClientSecret, {
                type: 'password',
                ariaDescribedBy: 'crm-salesforce-secret-hint',
              })}
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => setTyped(event.target.value)}
              placeholder={
                settings.hasSecret ? `Saved secret ending in ${settings.secretLast4}` : undefined
              }
              className={INPUT_CLASS}
            />
            <p id="crm-salesforce-secret-hint" className="text-xs text-gray-600 dark:text-gray-400">
              Saving asks Salesforce for a token with these credentials. The secret is stored
              encrypted and never shown again.
            </p>
            <ErrorList
              id={fields.salesforceClientSecret.errorId}
              errors={fields.salesforceClientSecret.errors}
            />
          </div>
          <EnableSwitch
            id="crm-salesforce-enabled"
            disabled={!settings.hasSecret && typed === ''}
            checked={typed !== '' || enabled}
            onChange={setEnabled}
          />
          <div className="flex flex-wrap gap-2">
            <StatusButton
              name="intent"
              value="save-salesforce"
              pending={pending}
              pendingText="Saving..."
            >
              Save Settings
            </StatusButton>
          </div>
        </Form>
        {settings.hasSecret ? (
          <Form method="POST" className="border-t border-gray-200 pt-4 dark:border-gray-800">
            <input type="hidden" name="intent" value="save-salesforce" />
            <input type="hidden" name="keepStoredSalesforceSecret" value="0" />
            <Button type="submit" variant="ghost" size="sm">
              Remove saved credentials
            </Button>
          </Form>
        ) : null}
      </TitledSection>
      <TitledSection
        id="crm-salesforce-help-title"
        title="How to connect Salesforce"
        className={HELP_CLASS}
        titleClassName="text-base font-semibold"
      >
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
      </TitledSection>
    </>
  )
}
