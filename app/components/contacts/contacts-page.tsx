// The Contacts list (issue 41 point 12): one card per contact at every width (a phone sees name,
// company, how and when they came; a wider screen the email and phone as well), each opening
// the contact's page, with a search and filters that are plain GET params.
import { getFormProps } from '@conform-to/react'
import { Form, Link, useNavigation, useSubmit } from '@remix-run/react'
import { ChevronRight, Download, ScanText, SearchX, Users } from 'lucide-react'
import type { contactsLoader } from '#app/cards/contacts-route.server'
import { ConsentBadge, Day, PersonalSwitch } from '#app/components/contacts/contact-parts'
import { useSearchForm } from '#app/components/forms'
import { Badge } from '#app/components/ui/badge'
import { Button } from '#app/components/ui/button'
import { EmptyState } from '#app/components/ui/empty-state'
import { LabelledSelect, SelectOptions } from '#app/components/ui/labelled-select'
import { SearchInput } from '#app/components/ui/search-box'
import {
  CONTACT_KIND_LABELS,
  CONTACT_SOURCE_LABELS,
  type ContactFilters,
  contactListQuery,
  PERSONAL_MEANING,
} from '#app/validation/contact-filters'

type ContactsData = Awaited<ReturnType<typeof contactsLoader>>
type ListedContact = ContactsData['contacts'][number]

const SOURCE_OPTIONS = Object.entries(CONTACT_SOURCE_LABELS).map(([value, label]) => ({
  value,
  label,
}))
const KIND_OPTIONS = Object.entries(CONTACT_KIND_LABELS).map(([value, label]) => ({
  value,
  label: `${label} contacts`,
}))

/** The id of the text saying what Personal means: every switch on the page is described by it. */
const PERSONAL_MEANING_ID = 'personal-meaning'

export function ContactsPage({ q, searchError, filters, contacts }: ContactsData) {
  const navigation = useNavigation()
  const searching = navigation.state === 'loading' && navigation.location?.pathname === '/contacts'
  const query = contactListQuery(q, filters)
  const narrowed = Boolean(q || filters.source || filters.kind)
  return (
    <main className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold">Contacts</h1>
        {/* The exports take what the list shows: the same search and filters. */}
        <div className="flex flex-wrap gap-2">
          <Button asChild size="sm">
            <Link to="/contacts/scan">
              <ScanText aria-hidden className="h-4 w-4" /> Scan a card
            </Link>
          </Button>
          <Button asChild variant="secondary" size="sm">
            <a href={`/contacts/export.csv${query}`} download>
              <Download aria-hidden className="h-4 w-4" /> Export CSV
            </a>
          </Button>
          <Button asChild variant="secondary" size="sm">
            <a href={`/contacts/export.vcf${query}`} download>
              <Download aria-hidden className="h-4 w-4" /> Export vCards
            </a>
          </Button>
        </div>
      </div>
      <ContactsSearch q={q} searchError={searchError} filters={filters} busy={searching} />
      <p
        id={PERSONAL_MEANING_ID}
        className="rounded-lg bg-gray-50 px-3 py-2 text-sm text-gray-700 dark:bg-gray-900 dark:text-gray-300"
      >
        {PERSONAL_MEANING}
      </p>
      {contacts.length === 0 ? (
        narrowed ? (
          <NoMatch searchOnly={Boolean(q) && !filters.source && !filters.kind} />
        ) : (
          <EmptyState
            icon={Users}
            title="No contacts yet"
            action={
              <Button asChild variant="secondary">
                <Link to="/qrcode">Share your card</Link>
              </Button>
            }
          >
            People who connect with you or leave their details on your card appear here.
          </EmptyState>
        )
      ) : (
        <>
          <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="contacts-count">
            {contacts.length === 1 ? '1 contact' : `${contacts.length} contacts`}
            {narrowed ? ' shown' : ''}
          </p>
          <ul aria-label="Contacts" className="flex flex-col gap-3">
            {contacts.map((contact) => (
              <ContactRow key={contact.id} contact={contact} query={query} />
            ))}
          </ul>
        </>
      )}
    </main>
  )
}

/**
 * The search box and the filters in one GET form, so each keeps the others: with JavaScript a
 * filter applies when chosen, without it the Search button applies all of them.
 */
function ContactsSearch({
  q,
  searchError,
  filters,
  busy,
}: {
  q: string
  searchError: string | null
  filters: ContactFilters
  busy: boolean
}) {
  const [form, fields] = useSearchForm('contact-search', q, searchError)
  const submit = useSubmit()
  return (
    <Form
      method="GET"
      role="search"
      className="flex flex-col gap-3"
      {...getFormProps(form)}
      onChange={(event) => {
        // A filter applies at once; the text box waits for Enter or the Search button.
        if (event.target instanceof HTMLSelectElement) submit(event.currentTarget)
      }}
    >
      <div className="flex flex-col gap-1">
        <label htmlFor={fields.q.id} className="sr-only">
          Search contacts
        </label>
        <SearchInput
          field={fields.q}
          placeholder="Name, email or company"
          busy={busy}
          className="h-10 min-w-0 flex-1 rounded-md border border-gray-300 px-3 text-sm aria-[invalid]:border-red-500 dark:border-gray-700 dark:bg-gray-900"
        />
      </div>
      <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap">
        <LabelledSelect
          id="contact-source"
          name="source"
          label="Source"
          defaultValue={filters.source ?? ''}
          key={`source-${filters.source ?? ''}`}
        >
          <SelectOptions options={SOURCE_OPTIONS} empty="All sources" />
        </LabelledSelect>
        <LabelledSelect
          id="contact-kind"
          name="kind"
          label="Personal or company"
          defaultValue={filters.kind ?? ''}
          key={`kind-${filters.kind ?? ''}`}
        >
          <SelectOptions options={KIND_OPTIONS} empty="All contacts" />
        </LabelledSelect>
      </div>
    </Form>
  )
}

/**
 * One contact as a card: its name is the link to its page, stretched over the card so a tap
 * anywhere opens it; the Personal switch sits above that link and keeps its own tap.
 */
function ContactRow({ contact, query }: { contact: ListedContact; query: string }) {
  return (
    <li
      className="relative flex items-start gap-3 rounded-xl border border-gray-200 bg-white p-4 shadow-sm focus-within:ring-2 focus-within:ring-brand hover:border-gray-300 dark:border-gray-800 dark:bg-gray-950 dark:hover:border-gray-700"
      data-testid="contact-row"
    >
      <Initials name={contact.fullName} />
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <Link
          to={`/contacts/${contact.id}${query}`}
          className="break-words font-medium after:absolute after:inset-0 after:rounded-xl focus-visible:outline-none"
        >
          {contact.fullName}
        </Link>
        {contact.company || contact.jobTitle ? (
          <p className="truncate text-sm text-gray-700 dark:text-gray-300">
            {[contact.jobTitle, contact.company].filter(Boolean).join(' · ')}
          </p>
        ) : null}
        <p className="truncate text-sm text-gray-600 dark:text-gray-400">
          {contact.email}
          {contact.phoneNumber ? (
            <span className="hidden sm:inline">
              {contact.email ? ' · ' : ''}
              {contact.phoneNumber}
            </span>
          ) : null}
        </p>
        {contact.note ? (
          <p className="line-clamp-2 break-words text-xs text-gray-600 dark:text-gray-400">
            {contact.note}
          </p>
        ) : null}
        <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-gray-600 dark:text-gray-400">
          <Badge tone="gray">{CONTACT_SOURCE_LABELS[contact.source]}</Badge>
          <span>
            Added <Day value={contact.createdAt} />
          </span>
          <ConsentBadge
            version={contact.consentVersion}
            givenAt={contact.consentGivenAt}
            page={contact.consentPage}
          />
        </div>
      </div>
      <div className="flex shrink-0 flex-col items-end gap-3">
        <PersonalSwitch
          contactId={contact.id}
          name={contact.fullName}
          personal={contact.personal}
          describedBy={PERSONAL_MEANING_ID}
          className="relative z-10"
        />
        <ChevronRight aria-hidden className="h-5 w-5 text-gray-400" />
      </div>
    </li>
  )
}

/** Nothing matches the search or the filters: said as which, with the whole list one tap away. */
function NoMatch({ searchOnly }: { searchOnly: boolean }) {
  return (
    <EmptyState
      icon={SearchX}
      title={searchOnly ? 'No contacts match your search' : 'No contacts match these filters'}
      action={
        <Button asChild variant="secondary" size="sm">
          <Link to="/contacts">Show all contacts</Link>
        </Button>
      }
    >
      {searchOnly
        ? 'Try part of a name, an email or a company.'
        : 'Try fewer filters, or a shorter search.'}
    </EmptyState>
  )
}

function Initials({ name }: { name: string }) {
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('')
  return (
    <span
      aria-hidden
      className="hidden h-10 w-10 shrink-0 items-center justify-center rounded-full bg-gray-200 text-sm font-semibold text-gray-800 min-[400px]:flex dark:bg-gray-700 dark:text-gray-100"
    >
      {initials || '?'}
    </span>
  )
}
