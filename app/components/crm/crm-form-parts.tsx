// What the CRM screen's three provider forms (GoHighLevel, HubSpot, Salesforce; ADR 094) have
// alike: the 'Enable CRM Integration' switch, the Save Settings button, and the one-button form
// that removes the saved credentials. One copy, so the three providers cannot drift apart.
import { Form } from '@remix-run/react'
import type { ReactNode } from 'react'
import { Button } from '#app/components/ui/button'
import { StatusButton } from '#app/components/ui/status-button'

const SWITCH_CLASS =
  'relative h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full bg-gray-400 transition-colors before:absolute before:top-0.5 before:left-0.5 before:h-5 before:w-5 before:rounded-full before:bg-white before:shadow before:transition-transform checked:bg-brand checked:before:translate-x-5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand disabled:cursor-not-allowed disabled:opacity-50 dark:bg-gray-600'

/** What the CRM switch says: what happens to new contacts in its present position, not the other. */
export function crmSwitchDescription({
  keyMissing,
  on,
  missing = 'Add a valid API key to turn the integration on.',
}: {
  keyMissing: boolean
  on: boolean
  /** Why the switch cannot be turned on yet, in the provider's words for its credentials. */
  missing?: string
}) {
  if (keyMissing) return missing
  return on
    ? 'New contacts are added to your CRM automatically.'
    : 'Off: new contacts are not sent to your CRM. Turn it on to add them automatically.'
}

/** The switch, off and disabled while there are no credentials that could work. */
export function EnableSwitch({
  id,
  disabled,
  checked,
  onChange,
  missing,
}: {
  id: string
  disabled: boolean
  checked: boolean
  onChange: (on: boolean) => void
  missing?: string
}) {
  return (
    <div className="flex items-start justify-between gap-4 rounded-lg border border-gray-200 p-4 dark:border-gray-800">
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="text-sm font-medium">
          Enable CRM Integration
        </label>
        <p id={`${id}-description`} className="text-sm text-gray-600 dark:text-gray-400">
          {crmSwitchDescription({ keyMissing: disabled, on: checked, missing })}
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

/** The form's submit: it names the provider's intent, so the action knows which form it got. */
export function SaveSettingsButton({ intent, pending }: { intent: string; pending: boolean }) {
  return (
    <div className="flex flex-wrap gap-2">
      <StatusButton name="intent" value={intent} pending={pending} pendingText="Saving...">
        Save Settings
      </StatusButton>
    </div>
  )
}

/**
 * Removes the saved credentials: the provider's save, told not to keep them (`keepField` 0).
 * `children` are further hidden fields the provider's save needs.
 */
export function RemoveSavedCredentials({
  intent,
  keepField,
  label,
  children,
}: {
  intent: string
  keepField: string
  label: string
  children?: ReactNode
}) {
  return (
    <Form method="POST" className="border-t border-gray-200 pt-4 dark:border-gray-800">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={keepField} value="0" />
      {children}
      <Button type="submit" variant="ghost" size="sm">
        {label}
      </Button>
    </Form>
  )
}
