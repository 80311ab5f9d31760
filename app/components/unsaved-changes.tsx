import { useBeforeUnload, useBlocker, useNavigation } from '@remix-run/react'
import { useCallback, useEffect, useRef } from 'react'
import { Button } from '#app/components/ui/button'
import { ConfirmCancel, ConfirmDialog } from '#app/components/ui/dialog'

const UNSAVED_TITLE = 'Leave without saving?'
const UNSAVED_DESCRIPTION =
  'Your changes to this card are not saved yet. If you leave now, they are lost.'

/**
 * Asks before a person leaves a form with changes they have not saved (issue 41 point 5): an
 * in-app link waits for their answer in a dialog, and closing or reloading the tab gets the
 * browser's own question. The form's own submission is never held: `onSubmit` marks it.
 */
export function useUnsavedChanges(dirty: boolean) {
  const submitting = useRef(false)
  // A refused post leaves the form as it was, still unsaved: ask again from then on.
  const idle = useNavigation().state === 'idle'
  useEffect(() => {
    if (idle) submitting.current = false
  }, [idle])
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      !submitting.current &&
      (currentLocation.pathname !== nextLocation.pathname ||
        currentLocation.search !== nextLocation.search),
  )
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (!dirty || submitting.current) return
        event.preventDefault()
        // Older browsers ask only when a value is returned.
        event.returnValue = ''
      },
      [dirty],
    ),
  )
  const dialog = (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      onOpenChange={(open) => {
        if (!open && blocker.state === 'blocked') blocker.reset()
      }}
      title={UNSAVED_TITLE}
      description={UNSAVED_DESCRIPTION}
    >
      <div className="flex flex-wrap justify-end gap-2">
        <ConfirmCancel asChild>
          <Button type="button" variant="secondary">
            Keep editing
          </Button>
        </ConfirmCancel>
        <Button
          type="button"
          variant="danger"
          onClick={() => {
            if (blocker.state === 'blocked') blocker.proceed()
          }}
        >
          Discard changes
        </Button>
      </div>
    </ConfirmDialog>
  )
  return {
    dialog,
    /** For the form's onSubmit: its own post (and the redirect after it) is let through. */
    markSubmitting: () => {
      submitting.current = true
    },
  }
}
