// Seat forwarding on the agency's End Users screen (ADR 049): the agency's default for a departed
// person's card links (When Someone Leaves), the list of handed-over seats, and clearing one.
import { getFormProps, getTextareaProps } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { ErrorList, FormField, FormMessage, useSchemaForm } from '#app/components/forms'
import { Button } from '#app/components/ui/button'
import { DialogActions, FormDialog } from '#app/components/ui/dialog'
import type { IntentDialog } from '#app/components/ui/use-intent-dialog'
import { type SeatForwarding, SetForwardingSchema } from '#app/validation/seat-forwarding'
import type { HandOverRow } from './end-user-types'
import { DeleteDialog } from './people-ui'

/** What visitors of a departed person's card see: the radio choices, in order. */
const KIND_CHOICES: { value: SeatForwarding['kind']; label: string }[] = [
  { value: 'message', label: 'A message' },
  { value: 'contact_page', label: 'Our contact page' },
]

/** "When Someone Leaves" (ADR 049): the agency's default for departed people's card links. */
export function ForwardingDialog({
  dialog,
  forwarding,
}: {
  dialog: IntentDialog
  forwarding: SeatForwarding
}) {
  const [form, fields] = useSchemaForm(SetForwardingSchema, {
    id: 'set-forwarding',
    lastResult: dialog.lastResult,
    defaultValue: forwarding,
  })
  return (
    <FormDialog
      open={dialog.open}
      onOpenChange={dialog.setOpen}
      title="When Someone Leaves"
      description="What the links, QR codes and NFC tags of a deactivated person's cards open when nobody took their seat over."
    >
      <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="set-forwarding" />
        {dialog.formError ? <FormMessage>{dialog.formError}</FormMessage> : null}
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium">Visitors see</legend>
          {KIND_CHOICES.map(({ value, label }) => (
            <label key={value} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="kind"
                value={value}
                defaultChecked={forwarding.kind === value}
                className="h-4 w-4"
              />
              {label}
            </label>
          ))}
          <ErrorList id={fields.kind.errorId} errors={fields.kind.errors} />
        </fieldset>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={fields.message.id} className="text-sm font-medium">
            Message
          </label>
          <textarea
            {...getTextareaProps(fields.message)}
            rows={3}
            className="rounded-md border border-gray-300 px-3 py-2 text-sm aria-[invalid]:border-red-500 dark:border-gray-700 dark:bg-gray-900"
          />
          <ErrorList id={fields.message.errorId} errors={fields.message.errors} />
        </div>
        <FormField
          label="Contact page URL"
          field={fields.contactPageUrl}
          type="url"
          placeholder="https://"
        />
        <DialogActions pending={dialog.pending} label="Save" />
      </Form>
    </FormDialog>
  )
}

/**
 * Forwarding (ADR 049): whose card links forward to whom. A seat forwards while its person is
 * inactive and its successor active; otherwise the row says what answers instead. Clear takes
 * the successor away (confirmed), so the agency's default answers.
 */
export function ForwardingOverview({
  handOvers,
  canEdit,
  onClear,
}: {
  handOvers: HandOverRow[]
  canEdit: boolean
  onClear: (row: HandOverRow) => void
}) {
  return (
    <section aria-labelledby="forwarding-heading" className="flex flex-col gap-3">
      <h2 id="forwarding-heading" className="text-lg font-semibold">
        Forwarding
      </h2>
      {handOvers.length === 0 ? (
        <p className="text-sm text-gray-600 dark:text-gray-400">
          Nobody's seat has been handed over: a deactivated person's card links answer your agency's
          default (When Someone Leaves).
        </p>
      ) : (
        <ul className="divide-y divide-gray-200 rounded-xl border border-gray-200 dark:divide-gray-800 dark:border-gray-800">
          {handOvers.map((row) => (
            <li
              key={row.userId}
              data-testid="forwarding-row"
              className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm"
            >
              <div className="min-w-0">
                <p className="break-words">
                  <span className="font-medium">{row.name}</span>{' '}
                  {row.status === 'inactive' ? 'forwards to' : 'will forward, once deactivated, to'}{' '}
                  <span className="font-medium">{row.successorName}</span>
                </p>
                {row.successorActive ? null : (
                  <p className="text-xs text-amber-800 dark:text-amber-200">
                    {row.successorName} is inactive: your agency's default answers instead.
                  </p>
                )}
              </div>
              {canEdit ? (
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => onClear(row)}
                  aria-label={`Clear the successor of ${row.name}`}
                >
                  Clear
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** Clear Successor (ADR 049): asked first; the agency's default answers for the seat again. */
export function ClearSuccessorDialog({
  dialog,
  clearing,
}: {
  dialog: IntentDialog
  clearing: HandOverRow | null
}) {
  return (
    <DeleteDialog
      open={dialog.open}
      onOpenChange={dialog.setOpen}
      title="Clear Successor"
      description={
        clearing
          ? `${clearing.name}'s card links will no longer open ${clearing.successorName}'s card: while ${clearing.name} is inactive they answer your agency's default. The contacts already handed over stay with ${clearing.successorName}.`
          : ''
      }
      intent="clear-successor"
      userId={clearing?.userId ?? ''}
      pending={dialog.pending}
      error={dialog.formError}
      confirmLabel="Clear Successor"
      pendingText="Clearing…"
    />
  )
}
