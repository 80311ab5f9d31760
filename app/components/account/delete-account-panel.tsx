// "Delete my account" (issue 31 point 4, ADR 053): the profile's danger zone, for every role. The
// confirmation is a Radix alert dialog that says what goes and when, and asks for the password;
// its form posts to /account/delete with a fetcher, so a refusal stays in the dialog next to the
// field and a done request lands on the sign-in page with the date.
import { getFormProps } from '@conform-to/react'
import * as AlertDialog from '@radix-ui/react-alert-dialog'
import { useFetcher } from '@remix-run/react'
import { TriangleAlert } from 'lucide-react'
import { useEffect, useState } from 'react'
import { isClientFailure } from '#app/components/client-failure'
import { FormField, FormMessage, useSchemaForm } from '#app/components/forms'
import { Button } from '#app/components/ui/button'
import { ConfirmActions } from '#app/components/ui/dialog'
import { toast } from '#app/components/ui/toasts'
import {
  ACCOUNT_DELETION_GRACE_DAYS,
  DeleteAccountSchema,
  deletionDateFrom,
  deletionDay,
} from '#app/validation/account-deletion'

type DeleteReply = {
  result?: { status?: string; error?: Record<string, string[] | null> } | null
  error?: string | null
}

export function DeleteAccountPanel() {
  const [open, setOpen] = useState(false)
  const fetcher = useFetcher<DeleteReply>()
  const reply = fetcher.data && !isClientFailure(fetcher.data) ? fetcher.data : undefined
  const [form, fields] = useSchemaForm(DeleteAccountSchema, {
    id: 'delete-account',
    lastResult: (reply?.result as never) ?? undefined,
  })
  // A refusal without a field (the last admin) is said above the field.
  const refusal = reply?.error && !reply.result?.error?.password ? reply.error : null
  const pending = fetcher.state !== 'idle'

  useEffect(() => {
    if (fetcher.state === 'idle' && isClientFailure(fetcher.data)) {
      toast.error('Failed to delete your account. Please try again.')
    }
  }, [fetcher.state, fetcher.data])

  return (
    <section
      aria-labelledby="delete-account-heading"
      className="flex flex-col gap-3 rounded-xl border border-red-200 p-4 sm:p-6 dark:border-red-900"
    >
      <h2
        id="delete-account-heading"
        className="text-base font-semibold text-red-700 dark:text-red-400"
      >
        Delete My Account
      </h2>
      <p className="text-sm text-gray-600 dark:text-gray-400">
        Your profile, cards, contacts and images are deleted {ACCOUNT_DELETION_GRACE_DAYS} days
        after you ask. Until then you can sign in to download your data or keep your account.
      </p>
      <AlertDialog.Root open={open} onOpenChange={setOpen}>
        <AlertDialog.Trigger asChild>
          <Button variant="danger" className="w-full sm:w-auto sm:self-start">
            Delete My Account
          </Button>
        </AlertDialog.Trigger>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
          <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl dark:bg-gray-900">
            <AlertDialog.Title className="flex items-center gap-2 text-lg font-semibold">
              <TriangleAlert aria-hidden className="h-5 w-5 text-red-600 dark:text-red-400" />
              Delete your account?
            </AlertDialog.Title>
            <AlertDialog.Description asChild>
              <div className="mt-2 flex flex-col gap-2 text-sm text-gray-600 dark:text-gray-400">
                <p>
                  Your account will be deleted on{' '}
                  <strong className="text-gray-900 dark:text-gray-100">
                    {deletionDay(deletionDateFrom(new Date()))}
                  </strong>
                  : your profile, cards, contacts and images. You are signed out everywhere now, and
                  we email you the date.
                </p>
                <p>
                  Changed your mind, or want your data first? Sign in before that date: you can
                  download it and keep your account.
                </p>
              </div>
            </AlertDialog.Description>
            <fetcher.Form
              method="POST"
              action="/account/delete"
              className="mt-4 flex flex-col gap-4"
              {...getFormProps(form)}
            >
              {form.errors?.length || refusal ? (
                <FormMessage>{refusal ?? form.errors?.join(' ')}</FormMessage>
              ) : null}
              <FormField
                label="Your password"
                field={fields.password}
                type="password"
                autoComplete="current-password"
              />
              <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                <ConfirmActions
                  pending={pending}
                  label="Delete My Account"
                  pendingText="Deleting..."
                />
              </div>
            </fetcher.Form>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </section>
  )
}
