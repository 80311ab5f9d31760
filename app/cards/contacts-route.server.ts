// The signed-in user's Contacts (issue 41 point 12): the list with its search and filters, one
// contact's page, and the Personal switch both of them post (ADR 049).
import type { AppLoadContext } from '@remix-run/node'
import { intentAction, postedUrl } from '#app/actions/intent-action.server'
import { requireUser } from '#app/auth/guards.server'
import { findContactForOwner, listContacts, setContactPersonal } from '#app/models/contacts.server'
import { Refusal } from '#app/utils/action-error'
import {
  CONTACT_NOT_FOUND,
  ContactIdSchema,
  readContactFilters,
} from '#app/validation/contact-filters'
import { readSearch } from '#app/validation/search'
import { ContactPersonalSchema } from '#app/validation/seat-forwarding'
import { withTenant } from '#drizzle/db.server'

export async function contactsLoader(request: Request, context: AppLoadContext) {
  const { tenant, user } = await requireUser(request, context)
  const params = new URL(request.url).searchParams
  const { q, searchError } = readSearch(params)
  const filters = readContactFilters(params)
  const contacts = searchError
    ? []
    : await withTenant(tenant.id, (tx) =>
        listContacts(tx, tenant.id, user.id, { search: q, ...filters }),
      )
  return { q, searchError, filters, contacts }
}

/**
 * One of the user's contacts. Not a uuid, unknown, another user's or another tenant's: the same
 * 404, so the page says nothing of whether it exists (another's row is not found, not forbidden).
 */
export async function contactLoader(request: Request, context: AppLoadContext, contactId: string) {
  const { tenant, user } = await requireUser(request, context)
  const contact = ContactIdSchema.safeParse(contactId).success
    ? await withTenant(tenant.id, (tx) => findContactForOwner(tx, tenant.id, user.id, contactId))
    : undefined
  if (!contact) throw new Response(CONTACT_NOT_FOUND, { status: 404 })
  const { card, ...rest } = contact
  return {
    contact: {
      ...rest,
      // Whose card it was met on, so the page says "your card" or the other person's name.
      card: card ? { ...card, yours: card.userId === user.id } : null,
    },
  }
}

/**
 * Personal or the company's (issue 31, ADR 049): a personal contact stays with its owner when
 * the agency hands their seat over to a successor; the others move with the seat. Posted from
 * the list and from a contact's page; without JavaScript the answer comes back to the same page.
 */
export async function contactsAction(request: Request, context: AppLoadContext) {
  return intentAction(request, {
    guard: () => requireUser(request, context),
    schema: ContactPersonalSchema,
    redirectTo: postedUrl(request),
    intents: {
      'set-personal': async ({ contactId, personal }, { tenant, user }) => {
        const done = await withTenant(tenant.id, (tx) =>
          setContactPersonal(tx, tenant.id, user.id, contactId, personal),
        )
        if (!done) return new Refusal('not_found', CONTACT_NOT_FOUND)
        return personal ? 'Marked as personal' : 'Marked as a company contact'
      },
    },
  })
}
