// The CRM integration screen (/api-settings, accounts-cards-sharing.md §1, §4, §8): the API key
// with 'Validate API Key' and its green check or red mark, the 'Enable CRM Integration' switch
// (off limits without a usable key), 'Save Settings', a help card, and how each new contact's
// forwarding went, with 'Retry' for the failed ones.
import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import { Form, Link, useActionData, useNavigation } from '@remix-run/react'
import { format } from 'date-fns/format'
import { CheckCircle2, KeyRound, RefreshCw, XCircle } from 'lucide-react'
import { useEffect, useState } from 'react'
import { ErrorList, useSchemaForm } from '#app/components/forms'
import { Badge } from '#app/components/ui/badge'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'
import { TitledSection } from '#app/components/ui/titled-section'
import { toast } from '#app/components/ui/toasts'
import {
  ApiSettingsSchema,
  CRM_PROVIDER_LABELS,
  CRM_PROVIDERS,
  type CrmProviderName,
  type KeyStatus,
} from '#app/validation/api-settings'
import { EnableSwitch, RemoveSavedCredentials, SaveSettingsButton } from './crm-form-parts'
import {
  HubspotSettings,
  type HubspotView,
  SalesforceSettings,
  type SalesforceView,
} from './crm-provider-forms'

export type CrmSyncView = {
  contactId: string
  fullName: string
  email: string
  state: 'pending' | 'synced' | 'failed'
  provider: CrmProviderName
  attempts: number
  lastError: string | null
  syncedAt: string | null
  updatedAt: string
}

export type ApiSettingsView = {
  /** The CRM new contacts go to, the one whose form is shown, and whether forwarding is on. */
  provider: CrmProviderName
  shown: CrmProviderName
  forwarding: boolean
  hubspot: HubspotView
  salesforce: SalesforceView
  hasKey: boolean
  keyLast4: string | null
  locationId: string
  enabled: boolean
  keyStatus: KeyStatus
  syncs: CrmSyncView[]
}

/** The one action reply (ADR 035), and the key's status the action found. */
type ActionData =
  | {
      result?: SubmissionResult<string[]>
      intent: string | null
      keyStatus?: KeyStatus
      error: string | null
    }
  | undefined

const SYNC_BADGES = {
  synced: { tone: 'green', label: 'Synced' },
  pending: { tone: 'amber', label: 'Pending' },
  failed: { tone: 'red', label: 'Failed' },
} as const

function KeyStatusMark({ status }: { status: KeyStatus }) {
  if (status === 'valid') {
    return (
      <p className="flex items-center gap-1.5 text-sm font-medium text-green-700 dark:text-green-400">
        <CheckCircle2 aria-hidden className="h-5 w-5" /> API key is valid
      </p>
    )
  }
  if (status === 'invalid') {
    return (
      <p className="flex items-center gap-1.5 text-sm font-medium text-red-700 dark:text-red-400">
        <XCircle aria-hidden className="h-5 w-5" /> API key is not valid
      </p>
    )
  }
  return null
}

/** Keyed by the saved settings (see the route): after a save the loader's values are the truth. */
export function ApiSettingsPage({ settings }: { settings: ApiSettingsView }) {
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold">CRM Integration</h1>
        <p className="text-sm text-gray-600 dark:text-gray-400">
          Send every new contact you meet straight to your CRM: GoHighLevel, HubSpot or Salesforce,
          one at a time.
        </p>
      </div>
      <CrmChooser settings={settings} />
      {settings.shown === 'hubspot' ? (
        <HubspotSettings settings={settings.hubspot} />
      ) : settings.shown === 'salesforce' ? (
        <SalesforceSettings settings={settings.salesforce} />
      ) : (
        <GoHighLevelSettings settings={settings} />
      )}
      <SyncStatus syncs={settings.syncs} retrying={useRetrying()} />
    </main>
  )
}

function useRetrying() {
  const navigation = useNavigation()
  return navigation.state !== 'idle' && navigation.formData?.get('intent') === 'retry'
}

/**
 * Which CRM's form is shown (links, so each has its address); the connected one says so. Saving
 * another CRM's credentials makes it the one new contacts go to (ADR 094).
 */
function CrmChooser({ settings }: { settings: ApiSettingsView }) {
  return (
    <nav aria-label="Your CRM" className="flex flex-wrap gap-2">
      {CRM_PROVIDERS.map((provider) => {
        const current = provider === settings.shown
        const connected = provider === settings.provider && settings.forwarding
        return (
          <Link
            key={provider}
            to={`?crm=${provider}`}
            aria-current={current ? 'page' : undefined}
            preventScrollReset
            className={`inline-flex items-center gap-2 rounded-full border px-4 py-1.5 text-sm font-medium ${
              current
                ? 'border-brand bg-brand text-white'
                : 'border-gray-300 bg-white text-gray-800 hover:bg-gray-50 dark:border-gray-700 dark:bg-gray-900 dark:text-gray-200'
            }`}
          >
            {CRM_PROVIDER_LABELS[provider]}
            {connected ? <span className="text-xs font-normal">(connected)</span> : null}
          </Link>
        )
      })}
    </nav>
  )
}

/** GoHighLevel's key, location, switch and help (the spec's screen, unchanged). */
function GoHighLevelSettings({ settings }: { settings: ApiSettingsView }) {
  const data = useActionData<ActionData>()
  const navigation = useNavigation()
  const submitting = (intent: string) =>
    navigation.state !== 'idle' && navigation.formData?.get('intent') === intent
  // What the key field holds now: empty and untouched keeps the saved key.
  const [typedKey, setTypedKey] = useState('')
  const [localStatus, setLocalStatus] = useState<KeyStatus | null>(null)
  const [enabled, setEnabled] = useState(settings.enabled)
  const keepStoredKey = settings.hasKey && typedKey === ''
  // The action's schema: its messages on blur and submit, the action's (a key the CRM refused,
  // none to validate) next to the same fields.
  const [form, fields] = useSchemaForm(ApiSettingsSchema, {
    id: 'crm-settings',
    lastResult: data?.result,
    defaultValue: { locationId: settings.locationId },
  })

  const fieldError = data?.result?.error?.apiKey?.[0] ?? data?.result?.error?.locationId?.[0]
  // Each answer of the action sets what the page shows of the key.
  useEffect(() => {
    if (!data) return
    if (data.keyStatus) setLocalStatus(data.keyStatus)
    if (data.keyStatus === 'valid') setEnabled(true)
    if (data.keyStatus === 'invalid') setEnabled(false)
    // A refused key or location is said next to its field; a toast is for what the field cannot
    // say (a save that removed a refused key says so besides the field's message).
    if (data.error && !(data.intent === 'validate' && fieldError)) toast.error(data.error)
  }, [data, fieldError])

  const status: KeyStatus = localStatus ?? (typedKey ? 'unknown' : settings.keyStatus)
  const hasAnyKey = typedKey !== '' || keepStoredKey
  const switchDisabled = !hasAnyKey || status === 'invalid'

  return (
    <>
      <TitledSection
        id="crm-key-title"
        title={
          <>
            <KeyRound aria-hidden className="h-5 w-5" /> GoHighLevel
          </>
        }
        className="flex flex-col gap-5 rounded-2xl border border-gray-200 bg-white p-6 shadow-sm dark:border-gray-800 dark:bg-gray-950"
        titleClassName="flex items-center gap-2 text-lg font-semibold"
      >
        <Form method="POST" className="flex flex-col gap-5" {...getFormProps(form)}>
          <input type="hidden" name="keepStoredKey" value={keepStoredKey ? '1' : '0'} />
          <div className="flex flex-col gap-1.5">
            <label htmlFor={fields.apiKey.id} className="text-sm font-medium">
              API Key
            </label>
            <div className="flex flex-col gap-2 sm:flex-row">
              <input
                {...getInputProps(fields.apiKey, {
                  type: 'password',
                  ariaDescribedBy: 'crm-api-key-hint',
                })}
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => {
                  setTypedKey(event.target.value)
                  setLocalStatus(null)
                }}
                placeholder={
                  settings.hasKey
                    ? `Saved key ending in ${settings.keyLast4}`
                    : 'Enter your API key'
                }
                className="h-10 w-full min-w-0 rounded-md border sm:flex-1 border-gray-300 bg-white px-3 text-sm shadow-sm placeholder:text-gray-500 dark:placeholder:text-gray-400 focus-visible:border-brand aria-[invalid]:border-red-500 dark:border-gray-700 dark:bg-gray-900 dark:placeholder:text-gray-400"
              />
              <StatusButton
                name="intent"
                value="validate"
                variant="secondary"
                pending={submitting('validate')}
                pendingText="Validating..."
              >
                Validate API Key
              </StatusButton>
            </div>
            <p id="crm-api-key-hint" className="text-xs text-gray-600 dark:text-gray-400">
              {settings.hasKey
                ? `A key ending in ${settings.keyLast4} is saved. It is stored encrypted and never shown again; type a new one to replace it.`
                : 'Your key is stored encrypted and never shown again after saving.'}
            </p>
            <ErrorList id={fields.apiKey.errorId} errors={fields.apiKey.errors} />
            <div aria-live="polite">
              <KeyStatusMark status={status} />
            </div>
          </div>

          <div className="flex flex-col gap-1.5">
            <label htmlFor={fields.locationId.id} className="text-sm font-medium">
              Location ID{' '}
              <span className="font-normal text-gray-600 dark:text-gray-400">(optional)</span>
            </label>
            <input
              {...getInputProps(fields.locationId, {
                type: 'text',
                ariaDescribedBy: 'crm-location-id-hint',
              })}
              autoComplete="off"
              spellCheck={false}
              onChange={() => setLocalStatus(null)}
              className="h-10 w-full min-w-0 rounded-md border border-gray-300 bg-white px-3 text-sm shadow-sm focus-visible:border-brand aria-[invalid]:border-red-500 dark:border-gray-700 dark:bg-gray-900"
            />
            <p id="crm-location-id-hint" className="text-xs text-gray-600 dark:text-gray-400">
              The sub-account your contacts go to. GoHighLevel asks for it with a Private
              Integration token.
            </p>
            <ErrorList id={fields.locationId.errorId} errors={fields.locationId.errors} />
          </div>

          <EnableSwitch
            id="crm-enabled"
            disabled={switchDisabled}
            checked={enabled}
            onChange={setEnabled}
          />

          <SaveSettingsButton intent="save" pending={submitting('save')} />
        </Form>
        {settings.hasKey ? (
          <RemoveSavedCredentials intent="save" keepField="keepStoredKey" label="Remove saved key">
            <input type="hidden" name="apiKey" value="" />
          </RemoveSavedCredentials>
        ) : null}
      </TitledSection>

      <TitledSection
        id="crm-help-title"
        title="How to get your API key"
        className="flex flex-col gap-3 rounded-2xl border border-blue-200 bg-blue-50 p-6 text-sm dark:border-blue-900 dark:bg-blue-950/40"
        titleClassName="text-base font-semibold"
      >
        <ol className="list-decimal space-y-1 pl-5 text-gray-800 dark:text-gray-200">
          <li>Sign in to your GoHighLevel sub-account.</li>
          <li>
            Open <strong>Settings</strong>, then <strong>Private Integrations</strong>.
          </li>
          <li>
            Create a new integration with access to <strong>Contacts</strong> (view and edit).
          </li>
          <li>Copy the token it shows and paste it above, then choose Validate API Key.</li>
          <li>
            Copy the sub-account's Location ID from <strong>Settings</strong>, then{' '}
            <strong>Business Profile</strong>, into Location ID.
          </li>
        </ol>
        <p className="text-gray-700 dark:text-gray-300">
          Contacts are matched by email or phone, so a person you meet twice stays one contact in
          your CRM.
        </p>
      </TitledSection>
    </>
  )
}

function SyncStatus({ syncs, retrying }: { syncs: CrmSyncView[]; retrying: boolean }) {
  return (
    <section aria-labelledby="crm-sync-title" className="flex flex-col gap-3">
      <h2 id="crm-sync-title" className="text-lg font-semibold">
        Sync status
      </h2>
      {syncs.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-gray-300 p-6 text-center text-sm text-gray-600 dark:border-gray-700 dark:text-gray-400">
          No contacts sent yet. While the integration is on, each new contact appears here with the
          result of sending it to your CRM.
        </p>
      ) : (
        <ul className="flex flex-col divide-y divide-gray-200 rounded-2xl border border-gray-200 dark:divide-gray-800 dark:border-gray-800">
          {syncs.map((sync) => {
            const badge = SYNC_BADGES[sync.state]
            return (
              <li
                key={sync.contactId}
                data-testid="crm-sync"
                className="flex flex-wrap items-center justify-between gap-3 p-4"
              >
                <div className="flex min-w-0 flex-col gap-0.5">
                  <span className="font-medium">{sync.fullName}</span>
                  <span className="text-xs text-gray-600 dark:text-gray-400">
                    {CRM_PROVIDER_LABELS[sync.provider]}
                  </span>
                  <span className="truncate text-sm text-gray-600 dark:text-gray-400">
                    {sync.email || 'No email'}
                  </span>
                  {sync.state === 'failed' && sync.lastError ? (
                    <span className="text-sm text-red-700 dark:text-red-400">{sync.lastError}</span>
                  ) : null}
                </div>
                <div className="flex items-center gap-3">
                  <span className="text-xs text-gray-600 dark:text-gray-400">
                    {sync.state === 'synced' && sync.syncedAt
                      ? `Sent ${format(new Date(sync.syncedAt), 'd MMM yyyy, HH:mm')}`
                      : `${sync.attempts} ${sync.attempts === 1 ? 'attempt' : 'attempts'}`}
                  </span>
                  <Badge tone={badge.tone}>{badge.label}</Badge>
                  {sync.state === 'failed' ? (
                    <Form method="POST">
                      <input type="hidden" name="intent" value="retry" />
                      <input type="hidden" name="contactId" value={sync.contactId} />
                      <Button
                        type="submit"
                        variant="secondary"
                        size="sm"
                        disabled={retrying}
                        aria-label={`Retry ${sync.fullName}`}
                      >
                        <RefreshCw aria-hidden className="h-4 w-4" /> Retry
                      </Button>
                    </Form>
                  ) : null}
                </div>
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
