// Pieces shared by the End Users and staff screens (the super admin's and the agency's): the page frame, the
// search bar, the row actions menu and the confirmation dialog (Radix: focus trap, Escape).
import { getFormProps, getInputProps } from '@conform-to/react'
import * as AlertDialog from '@radix-ui/react-alert-dialog'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { formatDistanceStrict } from 'date-fns/formatDistanceStrict'
import { Search } from 'lucide-react'
import { type ReactNode, useEffect } from 'react'
import { isClientFailure } from '#app/components/client-failure'
import { ErrorList, FormMessage, useSearchForm } from '#app/components/forms'
import { ConfirmActions } from '#app/components/ui/dialog'
import { StatusButton } from '#app/components/ui/status-button'
import { toast } from '#app/components/ui/toasts'
import type { TeamActionData } from '#app/components/ui/use-intent-dialog'

/** Accounts doc §8: the failure toast of "Change a user's role" (§7). */
const ROLE_CHANGE_FAILED = 'Failed to update user role'

/**
 * A role change that was refused (the dialog also shows why, beside the role) or whose request
 * failed (network, 5xx: nothing else on the page says so) shows the spec's failure toast.
 */
export function useRoleChangeFailureToast() {
  const actionData = useActionData<TeamActionData>()
  useEffect(() => {
    if (actionData?.intent !== 'change-role') return
    if (isClientFailure(actionData)) toast.error(ROLE_CHANGE_FAILED)
    else if (actionData.error) toast.error(ROLE_CHANGE_FAILED, { description: actionData.error })
  }, [actionData])
}

/** "about 1 hour ago" (spec §9's distance wording), or "Never" without a sign-in. */
export function lastActive(at: string | null, now: string) {
  if (!at) return 'Never'
  const when = new Date(at)
  const reference = new Date(now)
  if (reference.getTime() - when.getTime() < 60_000) return 'Just now'
  return `${formatDistanceStrict(when, reference)} ago`
}

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string
  description: string
  actions: ReactNode
}) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:flex-wrap sm:items-end sm:justify-between">
      <div>
        <h1 className="text-2xl font-semibold">{title}</h1>
        <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{description}</p>
      </div>
      <div className="flex flex-wrap gap-2">{actions}</div>
    </div>
  )
}

/** The search box and the Filter (its selects apply with the search, with or without JS). */
export function SearchBar({
  q,
  searchError,
  label,
  children,
}: {
  q: string
  /** The loader's answer to a query over the limit typed into the URL. */
  searchError: string | null
  label: string
  children?: ReactNode
}) {
  const navigation = useNavigation()
  const searching = navigation.state === 'loading' && navigation.location?.search !== undefined
  const [form, fields] = useSearchForm('people-search', q, searchError)
  return (
    <Form
      method="GET"
      role="search"
      className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-end"
      {...getFormProps(form)}
    >
      {/* Beside the sidebar a tablet has room for the box, not always for its filters too: they wrap. */}
      <div className="flex min-w-48 flex-1 flex-col gap-1.5">
        <label htmlFor={fields.q.id} className="text-sm font-medium">
          Search
        </label>
        <div className="relative">
          <Search
            aria-hidden
            className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-gray-400"
          />
          <input
            {...getInputProps(fields.q, { type: 'search' })}
            placeholder={label}
            className="h-10 w-full rounded-md border border-gray-300 bg-white pl-9 pr-3 text-sm shadow-sm focus-visible:border-brand aria-[invalid]:border-red-500 dark:border-gray-700 dark:bg-gray-900"
          />
        </div>
        <ErrorList id={fields.q.errorId} errors={fields.q.errors} />
      </div>
      {children}
      <StatusButton pending={searching} pendingText="Filtering…" variant="secondary">
        Filter
      </StatusButton>
    </Form>
  )
}

/** Spec §4: deleting asks first, with Cancel and Delete. */
export function DeleteDialog({
  open,
  onOpenChange,
  title,
  description,
  intent,
  userId,
  organizationId,
  pending,
  error,
  confirmLabel = 'Delete',
  pendingText = 'Deleting…',
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  description: string
  intent: string
  userId: string
  organizationId?: string
  pending: boolean
  error?: string
  /** The confirming button (a removal that is not a deletion says what it does). */
  confirmLabel?: string
  pendingText?: string
}) {
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl dark:bg-gray-900">
          <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-1 text-sm text-gray-600 dark:text-gray-400">
            {description}
          </AlertDialog.Description>
          <Form method="POST" className="mt-6 flex flex-col gap-4">
            <input type="hidden" name="intent" value={intent} />
            <input type="hidden" name="userId" value={userId} />
            {organizationId ? (
              <input type="hidden" name="organizationId" value={organizationId} />
            ) : null}
            {error ? <FormMessage>{error}</FormMessage> : null}
            <div className="flex justify-end gap-2">
              <ConfirmActions pending={pending} label={confirmLabel} pendingText={pendingText} />
            </div>
          </Form>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  )
}

export function EmptyRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={columns} className="px-4 py-10 text-center text-gray-600 dark:text-gray-400">
        {children}
      </td>
    </tr>
  )
}

export const TH = 'px-4 py-3 font-medium'
export const TD = 'px-4 py-3'
