// The super admin's Agencies screen (roles-teams-admin.md §2.11): search, the table Agency Name,
// Status, Owner, Team Size, Subscription, Approval, Actions; add/edit, details and delete dialogs;
// activate/deactivate and approve/reject from each row's Actions menu.

import { getFormProps, getInputProps } from '@conform-to/react'
import * as AlertDialog from '@radix-ui/react-alert-dialog'
import * as Dialog from '@radix-ui/react-dialog'
import * as DropdownMenu from '@radix-ui/react-dropdown-menu'
import { Form, useActionData, useNavigation, useSubmit } from '@remix-run/react'
import { format } from 'date-fns/format'
import {
  Building2,
  CheckCircle2,
  Eye,
  Pencil,
  Plus,
  Power,
  PowerOff,
  Trash2,
  XCircle,
} from 'lucide-react'
import { useState } from 'react'
import type { Agency } from '#app/agencies/manage-agencies.server'
import { TIER_NAMES } from '#app/billing/plan-limits'
import { FormField, FormMessage, FormSelect, useSchemaForm } from '#app/components/forms'
import { Badge } from '#app/components/ui/badge'
import { Button } from '#app/components/ui/button'
import { DataTable, TABLE_FRAME } from '#app/components/ui/data-table'
import { ConfirmActions, DialogActions, FormDialog } from '#app/components/ui/dialog'
import { RowMenu } from '#app/components/ui/row-menu'
import { SearchBox } from '#app/components/ui/search-box'
import { useIntentDialog } from '#app/components/ui/use-intent-dialog'
import { cn } from '#app/utils/cn'
import { CreateAgencySchema, SUBSCRIPTIONS, UpdateAgencySchema } from '#app/validation/agencies'

const OVERLAY = 'fixed inset-0 z-40 bg-black/40'
const CONTENT =
  'fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl dark:bg-gray-900'

const STATUS_LABELS = { active: 'Active', inactive: 'Inactive', pending: 'Pending' } as const
const APPROVAL_LABELS = { approved: 'Approved', pending: 'Pending', rejected: 'Rejected' } as const
const STATUS_TONES = { active: 'green', inactive: 'gray', pending: 'amber' } as const
const APPROVAL_TONES = { approved: 'green', pending: 'amber', rejected: 'red' } as const

type Props = { q: string; searchError: string | null; agencies: Agency[] }

export function AgenciesPage({ q, searchError, agencies }: Props) {
  const navigation = useNavigation()
  const [details, setDetails] = useState<Agency | null>(null)
  const [deleting, setDeleting] = useState<Agency | null>(null)
  const [editing, setEditing] = useState<Agency | null>(null)
  const edit = useIntentDialog('update', FORM_FIELDS)
  const loading =
    navigation.state === 'loading' && navigation.location?.pathname.endsWith('/agencies')
  return (
    <main className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Agencies</h1>
          <p className="text-sm text-gray-600 dark:text-gray-400">
            White-label partners: their status, owner, plan and approval.
          </p>
        </div>
        <AgencyFormDialog />
      </div>
      <SearchBox
        id="agency-search"
        q={q}
        searchError={searchError}
        label="Search agencies"
        placeholder="Search by name, address or owner"
      />
      <div className={cn(TABLE_FRAME, loading && 'opacity-60')} aria-busy={loading}>
        {agencies.length === 0 ? (
          <div
            className="flex flex-col items-center gap-2 p-10 text-center"
            data-testid="agencies-empty"
          >
            <Building2 aria-hidden className="h-8 w-8 text-gray-400" />
            <p className="font-medium">{q ? `No agencies match "${q}"` : 'No agencies yet'}</p>
            <p className="text-sm text-gray-600 dark:text-gray-400">
              {q ? 'Try another name, address or owner.' : 'Add the first agency to get started.'}
            </p>
          </div>
        ) : (
          <DataTable
            frame={false}
            columns={[
              { label: 'Agency Name' },
              { label: 'Status' },
              { label: 'Owner', className: 'hidden px-4 py-3 font-medium md:table-cell' },
              { label: 'Team Size', className: 'hidden px-4 py-3 font-medium lg:table-cell' },
              { label: 'Subscription', className: 'hidden px-4 py-3 font-medium lg:table-cell' },
              { label: 'Approval', className: 'hidden px-4 py-3 font-medium sm:table-cell' },
              { label: 'Actions' },
            ]}
          >
            {agencies.map((agency) => (
              <tr key={agency.id} data-testid="agency-row">
                <td className="px-4 py-3">
                  <div className="font-medium">{agency.name}</div>
                  <div className="break-all text-xs text-gray-600 dark:text-gray-400">
                    {agency.host}
                  </div>
                </td>
                <td className="px-4 py-3">
                  <Badge tone={STATUS_TONES[agency.status]}>{STATUS_LABELS[agency.status]}</Badge>
                </td>
                <td className="hidden px-4 py-3 md:table-cell">
                  <div>{agency.ownerName ?? '—'}</div>
                  <div className="break-all text-xs text-gray-600 dark:text-gray-400">
                    {agency.contactEmail}
                  </div>
                </td>
                <td className="hidden px-4 py-3 tabular-nums lg:table-cell">{agency.teamSize}</td>
                <td className="hidden px-4 py-3 lg:table-cell">
                  {TIER_NAMES[agency.subscriptionTier]}
                </td>
                <td className="hidden px-4 py-3 sm:table-cell">
                  <Badge tone={APPROVAL_TONES[agency.approvalStatus]}>
                    {APPROVAL_LABELS[agency.approvalStatus]}
                  </Badge>
                </td>
                <td className="px-4 py-3">
                  <RowActions
                    agency={agency}
                    onDetails={() => setDetails(agency)}
                    onEdit={() => {
                      setEditing(agency)
                      edit.setOpen(true)
                    }}
                    onDelete={() => setDeleting(agency)}
                  />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </div>
      {editing ? <AgencyFormDialog agency={editing} dialog={edit} /> : null}
      <DetailsDialog agency={details} onClose={() => setDetails(null)} />
      <DeleteDialog agency={deleting} onClose={() => setDeleting(null)} />
    </main>
  )
}

const FORM_FIELDS = ['name', 'slug', 'ownerName', 'email', 'subscription', 'active'] as const

function RowActions({
  agency,
  onDetails,
  onEdit,
  onDelete,
}: {
  agency: Agency
  onDetails: () => void
  onEdit: () => void
  onDelete: () => void
}) {
  const submit = useSubmit()
  const post = (intent: string) =>
    submit({ intent, agencyId: agency.id }, { method: 'POST', preventScrollReset: true })
  const item =
    'flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-gray-100 dark:data-[highlighted]:bg-gray-800'
  return (
    <RowMenu
      label={`Actions for ${agency.name}`}
      modal={false}
      className="z-50 min-w-[12rem] rounded-lg border border-gray-200 bg-white p-1 shadow-lg dark:border-gray-800 dark:bg-gray-900"
    >
      <DropdownMenu.Item className={item} onSelect={onDetails}>
        <Eye aria-hidden className="h-4 w-4" /> View Details
      </DropdownMenu.Item>
      <DropdownMenu.Item className={item} onSelect={onEdit}>
        <Pencil aria-hidden className="h-4 w-4" /> Edit
      </DropdownMenu.Item>
      {/* Spec §4: Activate when not active, Deactivate when active. */}
      {agency.status === 'active' ? (
        <DropdownMenu.Item className={item} onSelect={() => post('deactivate')}>
          <PowerOff aria-hidden className="h-4 w-4" /> Deactivate
        </DropdownMenu.Item>
      ) : (
        <DropdownMenu.Item className={item} onSelect={() => post('activate')}>
          <Power aria-hidden className="h-4 w-4" /> Activate
        </DropdownMenu.Item>
      )}
      {agency.approvalStatus !== 'approved' ? (
        <DropdownMenu.Item className={item} onSelect={() => post('approve')}>
          <CheckCircle2 aria-hidden className="h-4 w-4" /> Approve
        </DropdownMenu.Item>
      ) : null}
      {agency.approvalStatus !== 'rejected' ? (
        <DropdownMenu.Item className={item} onSelect={() => post('reject')}>
          <XCircle aria-hidden className="h-4 w-4" /> Reject
        </DropdownMenu.Item>
      ) : null}
      <DropdownMenu.Separator className="my-1 h-px bg-gray-200 dark:bg-gray-800" />
      <DropdownMenu.Item className={cn(item, 'text-red-600 dark:text-red-400')} onSelect={onDelete}>
        <Trash2 aria-hidden className="h-4 w-4" /> Delete
      </DropdownMenu.Item>
    </RowMenu>
  )
}

type IntentDialog = ReturnType<typeof useIntentDialog>

/** Add Agency, or given an agency its edit form (spec §3 form fields, §5 rules). */
function AgencyFormDialog({ agency, dialog }: { agency?: Agency; dialog?: IntentDialog }) {
  const own = useIntentDialog('create', FORM_FIELDS)
  const d = dialog ?? own
  return (
    <FormDialog
      open={d.open}
      onOpenChange={d.setOpen}
      trigger={
        agency ? undefined : (
          <Button>
            <Plus aria-hidden className="h-4 w-4" /> Add Agency
          </Button>
        )
      }
      title={agency ? 'Edit Agency' : 'Add Agency'}
      description={
        agency
          ? `Change ${agency.name}'s details, plan or status.`
          : 'Creates the agency and its owner, who gets an email to set their password.'
      }
    >
      <AgencyForm key={agency?.id ?? 'new'} agency={agency} dialog={d} />
    </FormDialog>
  )
}

// Inside the dialog's content, so each opening starts from the agency's values without the last
// opening's messages.
function AgencyForm({ agency, dialog }: { agency?: Agency; dialog: IntentDialog }) {
  const intent = agency ? 'update' : 'create'
  const [form, fields] = useSchemaForm(agency ? UpdateAgencySchema : CreateAgencySchema, {
    id: `${intent}-agency`,
    lastResult: dialog.lastResult,
    defaultValue: {
      name: agency?.name ?? '',
      slug: agency?.slug ?? '',
      ownerName: agency?.ownerName ?? '',
      email: agency?.contactEmail ?? '',
      // 'Select a plan' until one is chosen (spec §5: 'Please select a plan').
      subscription: agency?.subscriptionTier ?? '',
      // Spec §5: a new agency is active unless unticked.
      active: !agency || agency.status === 'active' ? 'on' : undefined,
    },
  })
  return (
    <Form method="POST" className="flex flex-col gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={intent} />
      {agency ? <input type="hidden" name="agencyId" value={agency.id} /> : null}
      {dialog.formError ? <FormMessage>{dialog.formError}</FormMessage> : null}
      <FormField label="Agency name" field={fields.name} autoComplete="off" />
      <FormField
        label="Web address"
        hint={
          agency
            ? `Now ${agency.host}; changing it moves the agency's site.`
            : 'Optional: made from the name when left blank.'
        }
        field={fields.slug}
        autoComplete="off"
        autoCapitalize="none"
      />
      <FormField label="Owner name" field={fields.ownerName} autoComplete="off" />
      <FormField
        label="Owner email"
        hint={
          agency
            ? "The agency's contact address; the owner's sign-in email stays theirs to change."
            : undefined
        }
        field={fields.email}
        type="email"
        autoComplete="off"
      />
      <FormSelect label="Subscription" field={fields.subscription} placeholder="Select a plan">
        {SUBSCRIPTIONS.map((tier) => (
          <option key={tier} value={tier}>
            {TIER_NAMES[tier]}
          </option>
        ))}
      </FormSelect>
      <div className="flex items-center gap-2">
        <input
          {...getInputProps(fields.active, { type: 'checkbox' })}
          className="h-4 w-4 rounded border-gray-300"
        />
        <label htmlFor={fields.active.id} className="text-sm font-medium">
          Active
        </label>
      </div>
      <DialogActions
        pending={dialog.pending}
        label={agency ? 'Save Changes' : 'Add Agency'}
        pendingText={agency ? 'Saving...' : 'Adding...'}
      />
    </Form>
  )
}

function DetailsDialog({ agency, onClose }: { agency: Agency | null; onClose: () => void }) {
  const rows: Array<[string, string]> = agency
    ? [
        ['Agency Name', agency.name],
        ['Web address', agency.host],
        ['Status', STATUS_LABELS[agency.status]],
        ['Approval', APPROVAL_LABELS[agency.approvalStatus]],
        ['Owner', agency.ownerName ?? '—'],
        ['Owner email', agency.contactEmail ?? '—'],
        ['Team Size', String(agency.teamSize)],
        ['Subscription', TIER_NAMES[agency.subscriptionTier]],
        ['Created', format(new Date(agency.createdAt), 'PPP')],
      ]
    : []
  return (
    <Dialog.Root open={Boolean(agency)} onOpenChange={(open) => (open ? null : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className={OVERLAY} />
        <Dialog.Content className={CONTENT}>
          <Dialog.Title className="text-lg font-semibold">Agency Details</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-gray-600 dark:text-gray-400">
            {agency?.name}
          </Dialog.Description>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            {rows.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-gray-600 dark:text-gray-400">{label}</dt>
                <dd className="break-all font-medium">{value}</dd>
              </div>
            ))}
          </dl>
          <div className="mt-6 flex justify-end">
            <Dialog.Close asChild>
              <Button type="button" variant="secondary">
                Close
              </Button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

/** Spec §4: delete needs a confirmation with Cancel and Delete. */
function DeleteDialog({ agency, onClose }: { agency: Agency | null; onClose: () => void }) {
  const navigation = useNavigation()
  const actionData = useActionData<{ intent?: string; error?: string }>()
  const pending =
    navigation.state === 'submitting' && navigation.formData?.get('intent') === 'delete'
  const refused = actionData?.intent === 'delete' ? actionData.error : undefined
  return (
    <AlertDialog.Root open={Boolean(agency)} onOpenChange={(open) => (open ? null : onClose())}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={OVERLAY} />
        <AlertDialog.Content className={CONTENT}>
          <AlertDialog.Title className="text-lg font-semibold">Delete Agency</AlertDialog.Title>
          <AlertDialog.Description className="mt-1 text-sm text-gray-600 dark:text-gray-400">
            {`Are you sure you want to delete ${agency?.name ?? 'this agency'}? Its site, people, cards and contacts are deleted with it. This cannot be undone.`}
          </AlertDialog.Description>
          {refused ? <FormMessage>{refused}</FormMessage> : null}
          <Form method="POST" className="mt-6 flex justify-end gap-2" onSubmit={() => onClose()}>
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="agencyId" value={agency?.id ?? ''} />
            <ConfirmActions pending={pending} label="Delete" pendingText="Deleting..." />
          </Form>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  )
}
