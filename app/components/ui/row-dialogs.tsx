// The dialogs a table row opens, for rows of credentials and endpoints (the SCIM tokens, the
// webhook endpoints): a destructive action behind a confirmation, and the rotation of a
// credential that another system holds. The screens differ only in their words and fields.

import type { SubmissionResult } from '@conform-to/react'
import { useActionData } from '@remix-run/react'
import { useState } from 'react'
import type { z } from 'zod'
import { FormSelect } from '#app/components/forms'
import { ConfirmActions, ConfirmDialog, DialogActions, FormDialog } from '#app/components/ui/dialog'
import {
  type RowDialogWords,
  RowForm,
  type RowIntent,
  rowDialogFrame,
  useRowForm,
} from '#app/components/ui/row-intent-form'

type RowSchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>

/**
 * A row's danger button and the confirmation it opens (revoke a token, delete an endpoint): its
 * form sends the row's intent and id.
 */
export function ConfirmRowDialog({
  schema,
  row,
  formId,
  confirmLabel,
  pendingText,
  ...words
}: RowDialogWords & {
  schema: RowSchema
  row: RowIntent
  formId: string
  confirmLabel: string
  pendingText: string
}) {
  const { pending, form } = useRowForm(schema, row, { id: formId })
  return (
    <ConfirmDialog {...rowDialogFrame(words, 'danger')}>
      <RowForm row={row} form={form} className="flex justify-end gap-2">
        <ConfirmActions pending={pending} label={confirmLabel} pendingText={pendingText} />
      </RowForm>
    </ConfirmDialog>
  )
}

type Choice = { value: string; label: string }

type SelectField = Parameters<typeof FormSelect>[0]['field']

type ActionData = { intent?: string | null; result?: SubmissionResult<string[]> }

/**
 * A row's Rotate button and its dialog: a new credential is made and the old one keeps working
 * for the hours chosen here, so the other side can switch without a gap.
 */
export function RotateWithOverlapDialog({
  schema,
  row,
  hoursField,
  choices,
  selectLabel,
  submitLabel,
  ...words
}: RowDialogWords & {
  schema: RowSchema
  row: RowIntent
  /** The name of the field with the hours the old credential keeps working. */
  hoursField: string
  choices: Choice[]
  selectLabel: string
  submitLabel: string
}) {
  const [open, setOpen] = useState(false)
  const actionData = useActionData<ActionData>()
  const { pending, form, fields } = useRowForm(schema, row, {
    id: `rotate-${row.rowId}`,
    // Only the open dialog shows the answer: another row's dialog must not.
    lastResult: actionData?.intent === row.intent && open ? actionData.result : null,
    others: { [hoursField]: '24' },
  })
  // The schema is the caller's: its hours field is known here by name only.
  const hours = (fields as Record<string, SelectField>)[hoursField] as SelectField
  return (
    <FormDialog open={open} onOpenChange={setOpen} {...rowDialogFrame(words, 'secondary')}>
      <RowForm
        row={row}
        form={form}
        className="flex flex-col gap-4"
        onSubmit={() => setOpen(false)}
      >
        <FormSelect label={selectLabel} field={hours}>
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </FormSelect>
        <DialogActions pending={pending} label={submitLabel} pendingText="Rotating…" />
      </RowForm>
    </FormDialog>
  )
}
