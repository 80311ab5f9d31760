// 'My End Users' (roles-teams-admin.md §2.13): the team member's assigned end users, a QR per
// row and in the details, Add User and Export Data.
import { getFormProps, getInputProps } from '@conform-to/react'
import type { SerializeFrom } from '@remix-run/node'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { formatDistance } from 'date-fns/formatDistance'
import { Download, Eye, QrCode, UserPlus, Users } from 'lucide-react'
import { useState } from 'react'
import { cardLinkPath } from '#app/cards/short-link'
import { useClientFailureToast } from '#app/components/client-failure'
import { FormField, FormMessage, useSchemaForm } from '#app/components/forms'
import { Button } from '#app/components/ui/button'
import { actionsColumn, DataTable, TABLE_FRAME } from '#app/components/ui/data-table'
import { DialogActions, DialogCloseButton, FormDialog } from '#app/components/ui/dialog'
import { SearchBox } from '#app/components/ui/search-box'
import { toast } from '#app/components/ui/toasts'
import { useIntentDialog } from '#app/components/ui/use-intent-dialog'
import type { myEndUsersLoader } from '#app/team-admin/my-end-users-route.server'
import { cn } from '#app/utils/cn'
import { AddEndUserSchema } from '#app/validation/end-users'

type Data = SerializeFrom<typeof myEndUsersLoader>
type Row = Data['users'][number]

const FAILURES = { 'add-user': 'Failed to add user' }

const fullName = (row: Pick<Row, 'firstName' | 'lastName'>) =>
  `${row.firstName} ${row.lastName}`.trim() || 'Unnamed User'

function lastActive(row: Row, now: string) {
  if (!row.lastActiveAt) return 'Never'
  return formatDistance(new Date(row.lastActiveAt), new Date(now), { addSuffix: true })
}

function StatusBadge({ status }: { status: Row['status'] }) {
  const active = status === 'active'
  return (
    <span
      className={cn(
        'rounded-full px-2 py-0.5 text-xs font-medium',
        active
          ? 'bg-green-100 text-green-800 dark:bg-green-900/40 dark:text-green-200'
          : 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300',
      )}
    >
      {active ? 'Active' : 'Inactive'}
    </span>
  )
}

/** Generate QR: the user's card QR (the public card's PNG endpoint), its link and a download. */
function QrDialog({ row, origin, label }: { row: Row; origin: string; label: string }) {
  const [open, setOpen] = useState(false)
  if (!row.cardId) {
    return (
      <Button variant="ghost" size="sm" disabled title="This user has no digital card yet">
        <QrCode aria-hidden className="h-4 w-4" /> {label}
      </Button>
    )
  }
  const link = `${origin}${cardLinkPath({ id: row.cardId }, row.cardSlug)}`
  const png = `/card/${row.cardId}/qr.png`
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next)
        if (next) toast.success('QR Code Generated')
      }}
      trigger={
        <Button variant="ghost" size="sm" aria-label={`${label} for ${fullName(row)}`}>
          <QrCode aria-hidden className="h-4 w-4" /> {label}
        </Button>
      }
      title={`QR code of ${fullName(row)}`}
      description="Scanning it opens their digital business card."
    >
      <div className="flex flex-col items-center gap-4">
        <img
          src={png}
          alt={`QR code linking to ${link}`}
          width={240}
          height={240}
          className="h-60 w-60 rounded-lg border border-gray-200 bg-white p-2 dark:border-gray-700"
        />
        <p className="break-all text-center text-sm text-gray-600 dark:text-gray-400">{link}</p>
        <div className="flex gap-2">
          <Button asChild>
            <a href={png} download={`qr-${row.cardId}.png`}>
              <Download aria-hidden className="h-4 w-4" /> Download PNG
            </a>
          </Button>
          <DialogCloseButton />
        </div>
      </div>
    </FormDialog>
  )
}

function DetailsDialog({ row, origin, now }: { row: Row; origin: string; now: string }) {
  const [open, setOpen] = useState(false)
  return (
    <FormDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="ghost" size="sm" aria-label={`View ${fullName(row)}`}>
          <Eye aria-hidden className="h-4 w-4" />
          <span className="sr-only sm:not-sr-only">View</span>
        </Button>
      }
      title={fullName(row)}
      description={row.email}
    >
      <dl className="grid grid-cols-2 gap-y-2 text-sm">
        <dt className="text-gray-600 dark:text-gray-400">Status</dt>
        <dd>
          <StatusBadge status={row.status} />
        </dd>
        <dt className="text-gray-600 dark:text-gray-400">Last active</dt>
        <dd>{lastActive(row, now)}</dd>
        <dt className="text-gray-600 dark:text-gray-400">Digital cards</dt>
        <dd>{row.cardCount}</dd>
        <dt className="text-gray-600 dark:text-gray-400">Added</dt>
        <dd>{new Date(row.createdAt).toLocaleDateString('en-US', { dateStyle: 'medium' })}</dd>
      </dl>
      <div className="mt-6 flex justify-end gap-2">
        <QrDialog row={row} origin={origin} label="Generate QR" />
        <DialogCloseButton />
      </div>
    </FormDialog>
  )
}

function AddUserDialog() {
  const dialog = useIntentDialog('add-user', ['name', 'email'])
  const actionData = useActionData<{ error?: string }>()
  useClientFailureToast(actionData, FAILURES, FAILURES['add-user'])
  return (
    <FormDialog
      open={dialog.open}
      onOpenChange={dialog.setOpen}
      trigger={
        <Button>
          <UserPlus aria-hidden className="h-4 w-4" /> Add User
        </Button>
      }
      title="Add User"
      description="A new end user of your organization, assigned to you. They get an email to set their password."
    >
      <AddUserForm dialog={dialog} />
    </FormDialog>
  )
}

// Inside the dialog's content: each opening starts empty, without the last opening's messages.
function AddUserForm({ dialog }: { dialog: ReturnType<typeof useIntentDialog> }) {
  const [form, fields] = useSchemaForm(AddEndUserSchema, {
    id: 'add-user',
    lastResult: dialog.lastResult,
    defaultValue: { active: true },
  })
  return (
    <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="add-user" />
      {dialog.formError ? <FormMessage>{dialog.formError}</FormMessage> : null}
      <FormField label="Name" field={fields.name} autoComplete="off" />
      <FormField label="Email" field={fields.email} type="email" autoComplete="off" />
      <label className="flex items-center gap-2 text-sm">
        <input {...getInputProps(fields.active, { type: 'checkbox' })} className="h-4 w-4" /> Active
      </label>
      <DialogActions pending={dialog.pending} label="Add User" pendingText="Adding..." />
    </Form>
  )
}

const cardCountText = (count: number) => (count === 1 ? '1 digital card' : `${count} digital cards`)

export function MyEndUsersPage({ users, q, searchError, origin, now }: Data) {
  const navigation = useNavigation()
  const searching =
    navigation.state === 'loading' && navigation.location.pathname.endsWith('/users')
  const exportHref = `/dashboard/team-member/users.csv${q ? `?${new URLSearchParams({ q })}` : ''}`
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold">My End Users</h1>
          <p className="text-gray-600 dark:text-gray-400">
            The end users assigned to you, and the QR codes of their cards.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="secondary">
            <a href={exportHref} download>
              <Download aria-hidden className="h-4 w-4" /> Export Data
            </a>
          </Button>
          <AddUserDialog />
        </div>
      </div>
      <SearchBox
        id="end-user-search"
        q={q}
        searchError={searchError}
        label="Search end users"
        placeholder="Search by name or email"
      />
      {users.length === 0 ? (
        <section className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-gray-300 px-6 py-16 text-center dark:border-gray-700">
          <Users aria-hidden className="h-10 w-10 text-gray-400" />
          <h2 className="text-lg font-semibold">
            {q ? 'No end users match your search' : 'No end users yet'}
          </h2>
          <p className="max-w-md text-sm text-gray-600 dark:text-gray-400">
            {q
              ? 'Try another name or email.'
              : 'End users your agency assigns to you, and the ones you add, appear here.'}
          </p>
        </section>
      ) : (
        <DataTable
          frame={cn(TABLE_FRAME, searching && 'opacity-60')}
          columns={[
            { label: 'User' },
            { label: 'Email', className: 'hidden px-4 py-3 font-medium md:table-cell' },
            { label: 'Status' },
            // The dashboard's "Their digital cards" is the sum of this column (ADR 085).
            { label: 'Cards', className: 'hidden px-4 py-3 font-medium sm:table-cell' },
            { label: 'Last Active', className: 'hidden px-4 py-3 font-medium sm:table-cell' },
            actionsColumn(),
          ]}
        >
          {users.map((row) => (
            <tr key={row.id} data-testid="end-user-row">
              <td className="px-4 py-3 font-medium">
                {fullName(row)}
                <div className="break-all text-xs font-normal text-gray-600 md:hidden dark:text-gray-400">
                  {row.email}
                </div>
                <div
                  className="text-xs font-normal text-gray-600 sm:hidden dark:text-gray-400"
                  data-testid="end-user-card-count"
                >
                  {cardCountText(row.cardCount)}
                </div>
              </td>
              <td className="hidden px-4 py-3 text-gray-600 md:table-cell dark:text-gray-400">
                {row.email}
              </td>
              <td className="px-4 py-3">
                <StatusBadge status={row.status} />
              </td>
              <td
                className="hidden px-4 py-3 text-gray-600 sm:table-cell dark:text-gray-400"
                data-testid="end-user-cards"
              >
                {row.cardCount}
              </td>
              <td className="hidden px-4 py-3 text-gray-600 sm:table-cell dark:text-gray-400">
                {lastActive(row, now)}
              </td>
              <td className="px-4 py-3">
                <div className="flex justify-end gap-1">
                  <QrDialog row={row} origin={origin} label="Generate QR" />
                  <DetailsDialog row={row} origin={origin} now={now} />
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </main>
  )
}
