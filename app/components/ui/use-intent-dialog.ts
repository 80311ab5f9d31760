import type { SubmissionResult } from '@conform-to/react'
import { useActionData, useNavigation } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import type { RowIntent } from './row-intent-form'

export type TeamActionData = {
  intent?: string | null
  error?: string
  result?: SubmissionResult<string[]>
}

/**
 * A dialog whose form posts `intent`: it stays open (showing the server's messages) when the
 * answer is a refusal, and closes when the post succeeded (the action redirected).
 *
 * The refusal is decided when it arrives, not when the navigation ends: React Router shows the
 * action's data while it still revalidates, so a person can read the refusal and close the
 * dialog before the navigation is idle, and the end of it must not open the dialog again.
 *
 * On a table whose rows each have the dialog (`row`), only the row whose form was sent follows
 * its answer: the others stay as they are.
 */
export function useIntentDialog(
  intent: string,
  fields: readonly string[] = [],
  row?: Pick<RowIntent, 'rowKey' | 'rowId'>,
) {
  const [open, setOpen] = useState(false)
  const actionData = useActionData<TeamActionData>()
  const navigation = useNavigation()
  const submittedHere =
    navigation.formData?.get('intent') === intent &&
    (!row || navigation.formData?.get(row.rowKey) === row.rowId)
  const inFlight = useRef(false)
  const refused = actionData?.intent === intent ? actionData : null
  // The refusal already answered (or there before this dialog was mounted).
  const answered = useRef(refused)
  useEffect(() => {
    if (navigation.state !== 'idle' && submittedHere) inFlight.current = true
    if (!inFlight.current) return
    if (refused?.error && refused !== answered.current) {
      // Refused: the dialog stays open with the messages; closing it from here is the user's.
      answered.current = refused
      inFlight.current = false
      setOpen(true)
      return
    }
    if (navigation.state === 'idle') {
      // Done without a new refusal: the post succeeded.
      inFlight.current = false
      setOpen(false)
    }
  }, [navigation.state, submittedHere, refused])
  const errors = (field: string) => refused?.result?.error?.[field] ?? undefined
  return {
    open,
    setOpen,
    pending: navigation.state === 'submitting' && submittedHere,
    // What no field of the form shows (a permission or plan refusal, a missing team id).
    formError:
      refused?.error && !fields.some((field) => refused.result?.error?.[field]?.length)
        ? refused.error
        : undefined,
    errors,
    /** The refusal for a conform form in the dialog (useSchemaForm's lastResult). */
    lastResult: refused?.result,
  }
}

/** What useIntentDialog answers: the dialog's state, handed to the component that renders it. */
export type IntentDialog = ReturnType<typeof useIntentDialog>
