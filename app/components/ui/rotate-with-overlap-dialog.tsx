// Rotating a credential that another system holds (a SCIM token, a webhook signing secret): a
// new one is made and the old one keeps working for a time chosen here, so the other side can
// switch without a gap. The SCIM and Webhooks screens differ only in their words and fields.
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, useActionData } from '@remix-run/react'
import { useState } from 'react'
import type { z } from 'zod'
import { FormSelect, useSchemaForm } from '#app/components/forms'
import { DialogActions, FormDialog } from '#app/components/ui/dialog'
import {
  RowDialogButton,
  type RowIntent,
  RowIntentInputs,
  rowDefaults,
  useRowPending,
} from '#app/components/ui/row-intent-form'

type Choice = { value: string; label: string }

type SelectField = Parameters<typeof FormSelect>[0]['field']

type ActionData = { intent?: string | null; result?: SubmissionResult<string[]> }

/** A row's Rotate button and its dialog, which asks how long the old credential keeps working. */
export function RotateWithOverlapDialog({
  schema,
  row,
  hoursField,
  choices,
  triggerText,
  triggerSrText,
  title,
  description,
  selectLabel,
  submitLabel,
}: {
  schema: z.ZodType<Record<string, unknown>, Record<string, unknown>>
  row: RowIntent
  /** The name of the field with the hours the old credential keeps working. */
  hoursField: string
  choices: Choice[]
  triggerText: string
  /** Names the row for screen readers, after triggerText. */
  triggerSrText: string
  title: string
  description: string
  selectLabel: string
  submitLabel: string
}) {
  const [open, setOpen] = useState(false)
  const actionData = useActionData<ActionData>()
  const pending = useRowPending(row)
  const [form, fields] = useSchemaForm(schema, {
    id: `rotate-${row.rowId}`,
    // Only the open dialog shows the answer: another row's dialog must not.
    lastResult: actionData?.intent === row.intent && open ? actionData.result : null,
    defaultValue: rowDefaults(row, { [hoursField]: '24' }),
  })
  // The schema is the caller's: its hours field is known here by name only.
  const hours = (fields as Record<string, SelectField>)[hoursField] as SelectField
  return (
    <FormDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <RowDialogButton variant="secondary" srText={triggerSrText}>
          {triggerText}
        </RowDialogButton>
      }
      title={title}
      description={description}
    >
      <Form
        method="POST"
        className="flex flex-col gap-4"
        {...getFormProps(form)}
        onSubmit={() => setOpen(false)}
      >
        <RowIntentInputs {...row} />
        <FormSelect label={selectLabel} field={hours}>
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </FormSelect>
        <DialogActions pending={pending} label={submitLabel} pendingText="Rotating…" />
      </Form>
    </FormDialog>
  )
}
