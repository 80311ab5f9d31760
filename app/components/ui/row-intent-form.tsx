// A form that acts on one row of a table (rotate, revoke, delete, resend): its hidden intent and
// the row's id. Several rows share a screen, so a row's form counts as pending only while the
// form being sent names both its intent and its row; the other rows' buttons stay idle.
import { useNavigation } from '@remix-run/react'
import { forwardRef } from 'react'
import { Button, type ButtonProps } from './button'

export type RowIntent = {
  /** The form's hidden intent. */
  intent: string
  /** The name of the hidden field that carries the row's id, e.g. tokenId. */
  rowKey: string
  rowId: string
}

/** The row form's default values (as useSchemaForm takes them), its other fields' after. */
export function rowDefaults({ intent, rowKey, rowId }: RowIntent, others?: Record<string, string>) {
  // The schema's input type is the caller's; these are its intent, row id and named fields.
  return { intent, [rowKey]: rowId, ...others } as never
}

/** Whether this row's form, and not another row's, is the one being sent. */
export function useRowPending({ intent, rowKey, rowId }: RowIntent) {
  const navigation = useNavigation()
  return navigation.formData?.get('intent') === intent && navigation.formData?.get(rowKey) === rowId
}

/** The row form's hidden intent and row id. */
export function RowIntentInputs({ intent, rowKey, rowId }: RowIntent) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={rowKey} value={rowId} />
    </>
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
