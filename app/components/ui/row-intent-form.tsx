// A form that acts on one row of a table (rotate, revoke, delete, resend): its hidden intent and
// the row's id. Several rows share a screen, so a row's form counts as pending only while the
// form being sent names both its intent and its row; the other rows' buttons stay idle.
import { type FormMetadata, getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, useNavigation } from '@remix-run/react'
import { type FormEvent, forwardRef, type ReactNode } from 'react'
import type { z } from 'zod'
import { useSchemaForm } from '#app/components/forms'
import { Button, type ButtonProps } from './button'

export type RowIntent = {
  /** The form's hidden intent. */
  intent: string
  /** The name of the hidden field that carries the row's id, e.g. tokenId. */
  rowKey: string
  rowId: string
}

/** The row form's default values (as useSchemaForm takes them), its other fields' after. */
function rowDefaults({ intent, rowKey, rowId }: RowIntent, others?: Record<string, unknown>) {
  // The schema's input type is the caller's; these are its intent, row id and named fields.
  return { intent, [rowKey]: rowId, ...others } as never
}

/** Whether this row's form, and not another row's, is the one being sent. */
function useRowPending({ intent, rowKey, rowId }: RowIntent) {
  const navigation = useNavigation()
  return navigation.formData?.get('intent') === intent && navigation.formData?.get(rowKey) === rowId
}

/**
 * A row's form state: conform's form for the schema, with the row's intent and id (and `others`)
 * as its defaults, and whether it is the form being sent.
 */
export function useRowForm<
  Schema extends z.ZodType<Record<string, unknown>, Record<string, unknown>>,
>(
  schema: Schema,
  row: RowIntent,
  options: {
    id: string
    lastResult?: SubmissionResult<string[]> | null
    others?: Record<string, unknown>
  },
) {
  const pending = useRowPending(row)
  const [form, fields] = useSchemaForm(schema, {
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: rowDefaults(row, options.others),
  })
  return { pending, form, fields }
}

/** The row's form: posted to the page's action with the row's hidden intent and id first. */
export function RowForm<Shape extends Record<string, unknown>>({
  row,
  form,
  className,
  onSubmit,
  children,
}: {
  row: RowIntent
  form: FormMetadata<Shape, string[]>
  className?: string
  /** After conform's checks passed, as the form is sent. */
  onSubmit?: () => void
  children: ReactNode
}) {
  const { intent, rowKey, rowId } = row
  // conform's checks first: a form they refuse is stopped there, and never sent.
  const check = form.onSubmit
  const submit = (event: FormEvent<HTMLFormElement>) => {
    check(event)
    if (!event.defaultPrevented) onSubmit?.()
  }
  return (
    <Form method="POST" className={className} {...getFormProps(form)} onSubmit={submit}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={rowKey} value={rowId} />
      {children}
    </Form>
  )
}

/**
 * A row's small button that opens its dialog: what it does, then, for screen readers, which row
 * (every row has an "Edit"). A dialog's trigger, so it takes the trigger's ref and props.
 */
export const RowDialogButton = forwardRef<
  HTMLButtonElement,
  ButtonProps & { variant: 'secondary' | 'danger'; srText: string }
>(function RowDialogButton({ variant, srText, children, ...props }, ref) {
  return (
    <Button ref={ref} type="button" variant={variant} size="sm" {...props}>
      {children}
      <span className="sr-only"> {srText}</span>
    </Button>
  )
})

/** What a row's dialog says beside its form: the button that opens it, and its title and text. */
export type RowDialogWords = {
  triggerText: string
  /** Names the row for screen readers, after triggerText. */
  triggerSrText: string
  title: string
  description: string
}

/** A row dialog's trigger, title and description, as ConfirmDialog and FormDialog take them. */
export function rowDialogFrame(
  { triggerText, triggerSrText, title, description }: RowDialogWords,
  variant: 'secondary' | 'danger',
) {
  return {
    trigger: (
      <RowDialogButton variant={variant} srText={triggerSrText}>
        {triggerText}
      </RowDialogButton>
    ),
    title,
    description,
  }
}
