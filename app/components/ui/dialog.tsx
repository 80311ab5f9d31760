// Dialogs share one look (Radix dialogs: focus trap, Escape, labelled).
import * as AlertDialog from '@radix-ui/react-alert-dialog'
import * as Dialog from '@radix-ui/react-dialog'
import type { ReactNode } from 'react'
import { Button } from './button'
import { StatusButton } from './status-button'

const overlay = 'fixed inset-0 z-40 bg-black/40'
const content =
  'fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl dark:bg-gray-900'

export function FormDialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  children,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  trigger?: ReactNode
  title: string
  description: string
  children: ReactNode
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <Dialog.Trigger asChild>{trigger}</Dialog.Trigger> : null}
      <Dialog.Portal>
        <Dialog.Overlay className={overlay} />
        <Dialog.Content className={content}>
          <Dialog.Title className="text-lg font-semibold">{title}</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-gray-600 dark:text-gray-400">
            {description}
          </Dialog.Description>
          <div className="mt-4">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

export const DialogClose = Dialog.Close

/** A dialog's Close button (a dialog that only shows). */
export function DialogCloseButton() {
  return (
    <DialogClose asChild>
      <Button type="button" variant="secondary">
        Close
      </Button>
    </DialogClose>
  )
}

/**
 * A destructive step's confirmation: Cancel and the action, which submits `children`' form. Opened
 * by its trigger, or by its owner through `open` (a navigation held until the person answers).
 */
export function ConfirmDialog({
  trigger,
  open,
  onOpenChange,
  title,
  description,
  children,
}: {
  trigger?: ReactNode
  open?: boolean
  onOpenChange?: (open: boolean) => void
  title: string
  description: string
  children: ReactNode
}) {
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger> : null}
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlay} />
        <AlertDialog.Content className={content}>
          <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-1 text-sm text-gray-600 dark:text-gray-400">
            {description}
          </AlertDialog.Description>
          <div className="mt-6">{children}</div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  )
}

/** A form dialog's buttons: Cancel (closes) and the submit, which says it is busy while pending. */
export function DialogActions({
  pending,
  label,
  pendingText = 'Saving…',
  disabled,
}: {
  pending: boolean
  label: string
  pendingText?: string
  /** The submit cannot be pressed (the reason is said beside it). */
  disabled?: boolean
}) {
  return (
    <div className="flex justify-end gap-2">
      <DialogClose asChild>
        <Button type="button" variant="secondary">
          Cancel
        </Button>
      </DialogClose>
      <StatusButton pending={pending} pendingText={pendingText} disabled={disabled}>
        {label}
      </StatusButton>
    </div>
  )
}

/**
 * A confirmation's buttons, inside its form: Cancel and the submit, destructive unless `variant`
 * says otherwise (a rewrite that loses nothing for good).
 */
export function ConfirmActions({
  pending,
  label,
  pendingText,
  variant = 'danger',
}: {
  pending: boolean
  label: string
  pendingText: string
  variant?: 'danger' | 'primary'
}) {
  return (
    <>
      <AlertDialog.Cancel asChild>
        <Button type="button" variant="secondary">
          Cancel
        </Button>
      </AlertDialog.Cancel>
      <StatusButton variant={variant} pending={pending} pendingText={pendingText}>
        {label}
      </StatusButton>
    </>
  )
}

/** The Cancel of a confirmation that is not a form (it closes the dialog and does nothing). */
export const ConfirmCancel = AlertDialog.Cancel
