// One tab's form on the settings pages (roles-teams-admin.md §2.6): toggles, selects and inputs
// described as data, posted with an `intent`, validated by the same zod schema on both sides.
import { getFormProps, getInputProps, getSelectProps } from '@conform-to/react'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { useEffect } from 'react'
import type { z } from 'zod'
import { ErrorList, Field, FormCheckbox, FormMessage, useSchemaForm } from '#app/components/forms'
import { StatusButton } from '#app/components/ui/status-button'
import { toast } from '#app/components/ui/toasts'

export type SettingsField =
  | { kind: 'toggle'; name: string; label: string; description: string; note?: string }
  | { kind: 'select'; name: string; label: string; options: { value: string; label: string }[] }
  | {
      kind: 'input'
      name: string
      label: string
      type: 'text' | 'email' | 'url' | 'number'
      hint?: string
    }

type ActionData = { intent: string | null; error: string; result: never } | undefined

function asFormDefaults(values: Record<string, unknown>) {
  const defaults: Record<string, string | boolean> = {}
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === 'number') defaults[key] = String(value)
    else if (typeof value === 'string' || typeof value === 'boolean') defaults[key] = value
  }
  return defaults
}

export function SettingsForm({
  intent,
  schema,
  fields,
  defaultValue,
  readOnly = false,
  submitLabel = 'Save Changes',
}: {
  intent: string
  schema: z.ZodType<Record<string, unknown>, Record<string, unknown>>
  fields: SettingsField[]
  defaultValue: Record<string, unknown>
  readOnly?: boolean
  submitLabel?: string
}) {
  const data = useActionData<ActionData>()
  const lastResult = data?.intent === intent ? data.result : undefined
  const navigation = useNavigation()
  const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') === intent
  const [form, formFields] = useSchemaForm(schema, {
    id: `settings-${intent}`,
    lastResult,
    // conform's defaults are strings (and booleans for its checkboxes); numbers are shown as text.
    defaultValue: asFormDefaults(defaultValue) as Record<string, string>,
  })
  useEffect(() => {
    if (data?.intent === intent && data.error) toast.error(data.error)
  }, [data, intent])

  return (
    <Form method="POST" className="flex max-w-xl flex-col gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={intent} />
      {form.errors?.length ? <FormMessage>{form.errors.join(' ')}</FormMessage> : null}
      <fieldset disabled={readOnly} className="flex min-w-0 flex-col gap-4">
        {fields.map((field) => {
          const meta = formFields[field.name as keyof typeof formFields]
          if (!meta) return null
          if (field.kind === 'toggle') {
            return (
              <FormCheckbox
                key={field.name}
                field={meta}
                label={field.label}
                note={
                  field.note ? (
                    <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100">
                      {field.note}
                    </span>
                  ) : null
                }
                description={field.description}
              />
            )
          }
          if (field.kind === 'select') {
            const errorId = meta.errors?.length ? meta.errorId : undefined
            return (
              <div key={field.name} className="flex flex-col gap-1.5">
                <label htmlFor={meta.id} className="text-sm font-medium">
                  {field.label}
                </label>
                <select
                  {...getSelectProps(meta)}
                  aria-describedby={errorId}
                  className="h-10 w-full min-w-0 rounded-md border border-gray-300 bg-white px-3 text-sm shadow-sm focus-visible:border-brand dark:border-gray-700 dark:bg-gray-900"
                >
                  {field.options.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
                <ErrorList id={errorId} errors={meta.errors} />
              </div>
            )
          }
          return (
            <Field
              key={field.name}
              label={field.label}
              hint={field.hint}
              errors={meta.errors}
              inputProps={getInputProps(meta, { type: field.type })}
            />
          )
        })}
      </fieldset>
      {readOnly ? (
        <p className="text-sm text-gray-600 dark:text-gray-400">
          Only an agency admin can change these settings.
        </p>
      ) : (
        <StatusButton
          pending={pending}
          pendingText="Saving..."
          className="w-full sm:w-auto sm:self-start"
        >
          {submitLabel}
        </StatusButton>
      )}
    </Form>
  )
}
