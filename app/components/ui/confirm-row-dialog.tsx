// A destructive action on one row (revoke a token, delete an endpoint) behind a confirmation:
// the row's button opens it, and its form sends the row's intent and id.
import { getFormProps } from '@conform-to/react'
import { Form } from '@remix-run/react'
import type { z } from 'zod'
import { useSchemaForm } from '#app/components/forms'
import { ConfirmActions, ConfirmDialog } from '#app/components/ui/dialog'
import {
  RowDialogButton,
  type RowIntent,
  RowIntentInputs,
  rowDefaults,
  useRowPending,
} from '#app/components/ui/row-intent-form'

/** A row's danger button and the confirmation it opens. */
export function ConfirmRowDialog({
  schema,
  row,
  formId,
  triggerText,
  triggerSrText,
  title,
  description,
  confirmLabel,
  pendingText,
}: {
  schema: z.ZodType<Record<string, unknown>, Record<string, unknown>>
  row: RowIntent
  formId: string
  triggerText: string
  /** Names the row for screen readers, after triggerText. */
  triggerSrText: string
  title: string
  description: string
  confirmLabel: string
  pendingText: string
}) {
  const pending = useRowPending(row)
  const [form] = useSchemaForm(schema, { id: formId, defaultValue: rowDefaults(row) })
  return (
    <ConfirmDialog
      trigger={
        <RowDialogButton variant="danger" srText={triggerSrText}>
          {triggerText}
        </RowDialogButton>
      }
      title={title}
      description={description}
    >
      <Form method="POST" className="flex justify-end gap-2" {...getFormProps(form)}>
        <RowIntentInputs {...row} />
        <ConfirmActions pending={pending} label={confirmLabel} pendingText={pendingText} />
      </Form>
    </ConfirmDialog>
  )
}
