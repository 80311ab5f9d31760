import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useFetcher, useLoaderData, useNavigation } from '@remix-run/react'
import { Download, Users } from 'lucide-react'
import { intentAction, postedUrl } from '#app/actions/intent-action.server'
import { requireUser } from '#app/auth/guards.server'
import { RouteLoadError } from '#app/components/layout/route-error'
import { SignedInLayout } from '#app/components/layout/signed-in-layout'
import { Badge } from '#app/components/ui/badge'
import { Button } from '#app/components/ui/button'
import { DataTable } from '#app/components/ui/data-table'
import { SearchBox } from '#app/components/ui/search-box'
import { listContacts, setContactPersonal } from '#app/models/contacts.server'
import { Refusal } from '#app/utils/action-error'
import { readSearch } from '#app/validation/search'
import { ContactPersonalSchema } from '#app/validation/seat-forwarding'
import { withTenant } from '#drizzle/db.server'

export const meta: MetaFunction = () => [{ title: 'Contacts' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant, user } = await requireUser(request, context)
  const { q, searchError } = readSearch(new URL(request.url).searchParams)
  const contacts = searchError
    ? []
    : await withTenant(tenant.id, (tx) => listContacts(tx, tenant.id, user.id, q))
  return { q, searchError, contacts }
}

/**
 * Personal or the company's (issue 31, ADR 049): a personal contact stays with its owner when
 * the agency hands their seat over to a successor; the others move with the seat.
 */
export const action = ({ request, context }: ActionFunctionArgs) =>
  intentAction(request, {
    guard: () => requireUser(request, context),
    schema: ContactPersonalSchema,
    redirectTo: postedUrl(request, '/contacts'),
    intents: {
      'set-personal': async ({ contactId, personal }, { tenant, user }) => {
        const done = await withTenant(tenant.id, (tx) =>
          setContactPersonal(tx, tenant.id, user.id, contactId, personal),
        )
        if (!done) return new Refusal('not_found', 'Contact not found')
        return personal ? 'Marked as personal' : 'Marked as a company contact'
      },
    },
  })

const SOURCE_LABELS = {
  connect: 'Connected',
  lead: 'Left details',
  saved: 'Saved',
  manual: 'Added',
} as const

export default function ContactsRoute() {
  return (
    <SignedInLayout>
      <ContactsPage />
    </SignedInLayout>
  )
}

function ContactsPage() {
  const { q, searchError, contacts } = useLoaderData<typeof loader>()
  const navigation = useNavigation()
  const searching = navigation.state === 'loading' && navigation.location?.pathname === '/contacts'
  return (
    <main className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold">Contacts</h1>
        <div className="flex gap-2">
          <Button asChild variant="secondary" size="sm">
            <a href={`/contacts/export.csv${q ? `?${new URLSearchParams({ q })}` : ''}`} download>
              <Download aria-hidden className="h-4 w-4" /> Export CSV
            </a>
          </Button>
          <Button asChild variant="secondary" size="sm">
            <a href={`/contacts/export.vcf${q ? `?${new URLSearchParams({ q })}` : ''}`} download>
              <Download aria-hidden className="h-4 w-4" /> Export vCards
            </a>
          </Button>
        </div>
      </div>
      {/* Search by name, email or company: the shared limit answered next to the box. */}
      <SearchBox
        id="contact-search"
        q={q}
        searchError={searchError}
        label="Search contacts"
        placeholder="Search by name, email or company"
        busy={searching}
        plain
      />
      {contacts.length === 0 ? (
        <section className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-gray-300 p-12 text-center dark:border-gray-700">
          <Users aria-hidden className="h-10 w-10 text-gray-400" />
          <h2 className="text-lg font-semibold">
            {q ? 'No contacts match your search' : 'No contacts yet'}
          </h2>
          <p className="text-sm text-gray-600 dark:text-gray-400">
            People who connect with you or leave their details on your card appear here.
          </p>
          <Button asChild variant="secondary">
            <Link to="/qrcode">Share your card</Link>
          </Button>
        </section>
      ) : (
        <DataTable
          divided={false}
          columns={[
            { label: 'Name' },
            { label: 'Email' },
            { label: 'Phone', className: 'hidden px-4 py-3 font-medium md:table-cell' },
            { label: 'Company', className: 'hidden px-4 py-3 font-medium md:table-cell' },
            { label: 'Source' },
            { label: 'Added', className: 'hidden px-4 py-3 font-medium sm:table-cell' },
            { label: 'Personal' },
          ]}
        >
          {contacts.map((contact) => (
            <tr
              key={contact.id}
              className="border-t border-gray-200 dark:border-gray-800"
              data-testid="contact-row"
            >
              <td className="px-4 py-3 font-medium">
                {contact.fullName}
                {contact.note ? (
                  <p className="text-xs font-normal text-gray-500">{contact.note}</p>
                ) : null}
              </td>
              <td className="break-all px-4 py-3">{contact.email}</td>
              <td className="hidden px-4 py-3 md:table-cell">{contact.phoneNumber}</td>
              <td className="hidden px-4 py-3 md:table-cell">{contact.company}</td>
              <td className="px-4 py-3">
                {SOURCE_LABELS[contact.source]}
                <ConsentBadge
                  version={contact.consentVersion}
                  givenAt={contact.consentGivenAt}
                  page={contact.consentPage}
                />
              </td>
              <td className="hidden px-4 py-3 sm:table-cell">
                {new Date(contact.createdAt).toLocaleDateString()}
              </td>
              <td className="px-4 py-3">
                <PersonalToggle
                  contactId={contact.id}
                  name={contact.fullName}
                  personal={contact.personal}
                />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </main>
  )
}

/**
 * A lead's consent (ADR 050), for the owner to see what the person agreed to: the badge names
 * the version, the line under it when; both are text, so a screen reader reads them as shown.
 */
function ConsentBadge({
  version,
  givenAt,
  page,
}: {
  version: number | null
  givenAt: Date | string | null
  page: string | null
}) {
  if (version === null || !givenAt) return null
  const at = new Date(givenAt)
  return (
    <span
      className="mt-1 flex flex-col items-start gap-0.5"
      data-testid="contact-consent"
      title={`Consent to version ${version} of your agency's text, given ${at.toISOString()}${page ? ` on ${page}` : ''}`}
    >
      <Badge tone="green">{`Consent v${version}`}</Badge>
      <span className="text-xs text-gray-600 dark:text-gray-400">
        given <time dateTime={at.toISOString()}>{at.toLocaleDateString()}</time>
      </span>
    </span>
  )
}

/**
 * One contact's Personal switch: a form of its own (it works without JavaScript), posted at
 * once when changed with it.
 */
function PersonalToggle({
  contactId,
  name,
  personal,
}: {
  contactId: string
  name: string
  personal: boolean
}) {
  const fetcher = useFetcher()
  const pending = fetcher.formData?.get('contactId') === contactId
  const shown = pending ? fetcher.formData?.get('personal') === 'true' : personal
  return (
    <fetcher.Form method="POST">
      <input type="hidden" name="intent" value="set-personal" />
      <input type="hidden" name="contactId" value={contactId} />
      <input type="hidden" name="personal" value={shown ? 'false' : 'true'} />
      <button
        type="submit"
        role="switch"
        aria-checked={shown}
        aria-label={`${name}: personal contact`}
        title={shown ? 'Personal: stays with you' : 'Company contact: moves with your seat'}
        className="inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-gray-300 p-0.5 transition-colors aria-checked:bg-brand dark:bg-gray-700"
      >
        <span
          aria-hidden
          className={`h-5 w-5 rounded-full bg-white shadow transition-transform ${shown ? 'translate-x-5' : ''}`}
        />
      </button>
    </fetcher.Form>
  )
}

/** What a failed load says, here or in a layout's boundary (single fetch loads a navigation at once). */
export const handle = { loadError: 'Failed to load your contacts' }

export function ErrorBoundary() {
  return <RouteLoadError message={handle.loadError} />
}
