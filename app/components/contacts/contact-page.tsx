// One contact's page (issue 41 point 12): how to reach them, what they wrote, the consent they
// gave, how and on which card you met, and the Personal switch with what it means.
import { Link, useLocation } from '@remix-run/react'
import { Mail, Phone, UserX } from 'lucide-react'
import type { ReactNode } from 'react'
import type { contactLoader } from '#app/cards/contacts-route.server'
import { ConsentBadge, Day, PersonalSwitch } from '#app/components/contacts/contact-parts'
import { BackButton } from '#app/components/ui/back-button'
import { Badge } from '#app/components/ui/badge'
import { Button } from '#app/components/ui/button'
import { dialable } from '#app/validation/card-details'
import {
  CONTACT_NOT_FOUND,
  CONTACT_SOURCE_LABELS,
  PERSONAL_MEANING,
} from '#app/validation/contact-filters'

type Contact = Awaited<ReturnType<typeof contactLoader>>['contact']

/** Back to the list as it was left: the list's search and filters ride along in the URL. */
function useListPath() {
  return `/contacts${useLocation().search}`
}

export function ContactPage({ contact }: { contact: Contact }) {
  const listPath = useListPath()
  const subtitle = [contact.jobTitle, contact.company].filter(Boolean).join(' · ')
  return (
    <main className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-10">
      <div className="flex items-start gap-2">
        <BackButton to={listPath} label="Back to contacts" />
        <div className="flex min-w-0 flex-col gap-1">
          <h1 className="break-words text-2xl font-semibold">{contact.fullName}</h1>
          {subtitle ? <p className="text-gray-700 dark:text-gray-300">{subtitle}</p> : null}
        </div>
      </div>

      {contact.phoneNumber || contact.email ? (
        <div className="flex flex-wrap gap-2">
          {contact.phoneNumber ? (
            <Button asChild>
              <a href={`tel:${dialable(contact.phoneNumber)}`}>
                <Phone aria-hidden className="h-4 w-4" /> Call
              </a>
            </Button>
          ) : null}
          {contact.email ? (
            <Button asChild variant="secondary">
              <a href={`mailto:${contact.email}`}>
                <Mail aria-hidden className="h-4 w-4" /> Email
              </a>
            </Button>
          ) : null}
        </div>
      ) : null}

      <section
        aria-labelledby="contact-details"
        className="rounded-xl border border-gray-200 bg-white p-4 shadow-sm sm:p-6 dark:border-gray-800 dark:bg-gray-950"
      >
        <h2 id="contact-details" className="sr-only">
          Details
        </h2>
        <dl className="grid grid-cols-1 gap-4 sm:grid-cols-[10rem_1fr]">
          <Detail term="Phone">
            {contact.phoneNumber ? (
              <a
                className="text-brand-text underline"
                href={`tel:${dialable(contact.phoneNumber)}`}
              >
                {contact.phoneNumber}
              </a>
            ) : (
              <None>No phone number</None>
            )}
          </Detail>
          <Detail term="Email">
            {contact.email ? (
              <a className="break-all text-brand-text underline" href={`mailto:${contact.email}`}>
                {contact.email}
              </a>
            ) : (
              <None>No email</None>
            )}
          </Detail>
          <Detail term="Note">
            {contact.note ? (
              <p className="whitespace-pre-line break-words">{contact.note}</p>
            ) : (
              <None>No note</None>
            )}
          </Detail>
          <Detail term="How you met">
            <span className="flex flex-col items-start gap-1">
              <Badge tone="gray">{CONTACT_SOURCE_LABELS[contact.source]}</Badge>
              <span className="text-sm">
                Added <Day value={contact.createdAt} />
              </span>
            </span>
          </Detail>
          <Detail term="Met on">
            <MetOnCard card={contact.card} />
          </Detail>
          <Detail term="Consent">
            {contact.consentVersion === null || !contact.consentGivenAt ? (
              <None>No consent recorded</None>
            ) : (
              <ConsentBadge
                version={contact.consentVersion}
                givenAt={contact.consentGivenAt}
                page={contact.consentPage}
                withPage
              />
            )}
          </Detail>
        </dl>
      </section>

      <section
        aria-labelledby="contact-personal"
        className="flex flex-col gap-3 rounded-xl border border-gray-200 bg-white p-4 shadow-sm sm:p-6 dark:border-gray-800 dark:bg-gray-950"
      >
        <div className="flex items-center justify-between gap-4">
          <h2 id="contact-personal" className="text-base font-semibold">
            Personal contact
          </h2>
          <PersonalSwitch
            contactId={contact.id}
            name={contact.fullName}
            personal={contact.personal}
            describedBy="contact-personal-meaning"
          />
        </div>
        <p id="contact-personal-meaning" className="text-sm text-gray-700 dark:text-gray-300">
          {PERSONAL_MEANING}
        </p>
      </section>
    </main>
  )
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-sm font-medium text-gray-600 dark:text-gray-400">{term}</dt>
      <dd className="-mt-3 min-w-0 sm:mt-0">{children}</dd>
    </>
  )
}

function None({ children }: { children: ReactNode }) {
  return <span className="text-sm text-gray-600 dark:text-gray-400">{children}</span>
}

/**
 * The card the contact was met on: one of yours (they left their details or connected on it)
 * or theirs (you saved or connected from it). Hand-added contacts have none, and a deleted card
 * leaves none behind.
 */
function MetOnCard({ card }: { card: Contact['card'] }) {
  if (!card) return <None>No card recorded</None>
  const owner = card.yours ? 'Your card' : `${`${card.firstName} ${card.lastName}`.trim()}'s card`
  return (
    <span className="flex flex-col items-start gap-0.5">
      <Link
        to={`/card/${card.id}`}
        className="break-words text-brand-text underline"
        data-testid="contact-card"
      >
        {card.title}
      </Link>
      <span className="text-sm text-gray-600 dark:text-gray-400">{owner}</span>
    </span>
  )
}

/** The page for a contact that is not (or no longer, or not yours) in your list. */
export function ContactNotFound() {
  const listPath = useListPath()
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <UserX aria-hidden className="h-10 w-10 text-gray-400" />
      <h1 className="text-2xl font-semibold">{CONTACT_NOT_FOUND}</h1>
      <p className="text-gray-600 dark:text-gray-400">
        It is not in your contacts: it may have been deleted, or moved with a seat that was handed
        over.
      </p>
      <Button asChild variant="secondary">
        <Link to={listPath}>Back to contacts</Link>
      </Button>
    </main>
  )
}
