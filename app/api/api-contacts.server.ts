// Contacts and leads through the REST API (ADR 092). A lead is a contact whose source is
// `lead`: it came from a card's form with its consent. The API adds contacts by hand (source
// `manual`, forwarded to the owner's CRM like any new contact); only a visitor gives a lead's
// consent, on the card. Deleting a lead follows the lead's own deletion (ADR 050): the CRM copy
// goes by a job and the receipt email leaves the outbox, in the same transaction.
import { addContactAndForward, queueCrmDeletion } from '#app/crm/forwarding.server'
import { deleteLeadReceiptsIn } from '#app/leads/lead-consent.server'
import {
  type Contact,
  deleteOrganizationContact,
  findOrganizationContact,
  listOrganizationContacts,
} from '#app/models/contacts.server'
import {
  ContactCreateSchema,
  ContactIdParams,
  ContactListQuery,
  ContactPageSchema,
  ContactSchema,
} from '#app/validation/api'
import { emitContactDeleted } from '#app/webhooks/webhook-events.server'
import {
  type ApiCall,
  answerPage,
  auditApiWrite,
  notFound,
  requireOwner,
  route,
  timestamps,
} from './api-call.server'
import { ApiProblem } from './problem'

type ListedContact = Omit<Contact, 'dataTokenHash'> & { consentVersion: number | null }

export function toApiContact(contact: ListedContact) {
  return {
    id: contact.id,
    owner_id: contact.userId,
    full_name: contact.fullName,
    email: contact.email,
    phone_number: contact.phoneNumber,
    company: contact.company,
    job_title: contact.jobTitle,
    note: contact.note,
    source: contact.source,
    source_card_id: contact.sourceCardId,
    personal: contact.personal,
    consent: contact.consentGivenAt
      ? {
          given_at: contact.consentGivenAt.toISOString(),
          page: contact.consentPage,
          text_version: contact.consentVersion,
        }
      : null,
    ...timestamps(contact),
  }
}

async function requireContact(call: ApiCall, contactId: string) {
  const contact = await findOrganizationContact(call.tx, call.tenant.id, contactId)
  if (!contact) throw notFound('contact')
  return contact
}

export const CONTACT_ROUTES = [
  route({
    method: 'GET',
    path: '/contacts',
    operationId: 'listContacts',
    summary: "List the agency's contacts and leads, oldest change first",
    tag: 'Contacts',
    scope: 'contacts:read',
    query: ContactListQuery,
    success: { status: 200, description: 'A page of contacts', schema: ContactPageSchema },
    handle: (call, { query }) =>
      answerPage(
        query,
        (page) =>
          listOrganizationContacts(call.tx, call.tenant.id, {
            ...page,
            source: query.source ?? null,
          }),
        (contact) => toApiContact(contact),
      ),
  }),
  route({
    method: 'GET',
    path: '/contacts/{contactId}',
    operationId: 'getContact',
    summary: 'Read a contact or lead, with its consent',
    tag: 'Contacts',
    scope: 'contacts:read',
    params: ContactIdParams,
    success: { status: 200, description: 'The contact', schema: ContactSchema },
    handle: async (call, { params }) => ({
      status: 200,
      body: toApiContact(await requireContact(call, params.contactId)),
    }),
  }),
  route({
    method: 'POST',
    path: '/contacts',
    operationId: 'createContact',
    summary: "Add a contact to a user's list (forwarded to their CRM when it is on)",
    tag: 'Contacts',
    scope: 'contacts:write',
    body: ContactCreateSchema,
    create: true,
    success: { status: 201, description: 'The contact added', schema: ContactSchema },
    handle: async (call, { body }) => {
      const owner = await requireOwner(call, body.owner_id)
      const added = await addContactAndForward(call.tx, call.tenant.id, owner.id, {
        fullName: body.full_name,
        email: body.email ?? '',
        phoneNumber: body.phone_number ?? '',
        company: body.company ?? '',
        jobTitle: body.job_title ?? '',
        note: body.note ?? '',
        source: 'manual',
      })
      if (added.status === 'duplicate') {
        throw new ApiProblem(409, "This email is already in the user's contacts")
      }
      await auditApiWrite(call, 'contact.created', 'contact', added.contact.id, {
        ownerId: owner.id,
      })
      return { status: 201, body: toApiContact({ ...added.contact, consentVersion: null }) }
    },
  }),
  route({
    method: 'DELETE',
    path: '/contacts/{contactId}',
    operationId: 'deleteContact',
    summary: "Delete a contact; a lead's copy in the owner's CRM and its receipt go with it",
    tag: 'Contacts',
    scope: 'contacts:write',
    params: ContactIdParams,
    success: { status: 204, description: 'Deleted' },
    handle: async (call, { params }) => {
      const contact = await requireContact(call, params.contactId)
      const lead = contact.source === 'lead'
      // Before the delete: the CRM's id goes with the contact's sync row.
      const crm = lead ? await queueCrmDeletion(call.tx, call.tenant.id, contact.id) : false
      const row = await deleteOrganizationContact(call.tx, call.tenant.id, contact.id)
      if (!row) throw notFound('contact')
      const receipts =
        lead && row.dataTokenHash
          ? await deleteLeadReceiptsIn(call.tx, call.tenant.id, row.email, row.dataTokenHash)
          : 0
      await emitContactDeleted(call.tx, call.tenant.id, row, 'api')
      // Nothing of the person in the log: which contact of whose list.
      await auditApiWrite(call, lead ? 'lead.deleted' : 'contact.deleted', 'contact', row.id, {
        ownerId: row.userId,
        ...(lead ? { crm, receipts } : {}),
      })
      return { status: 204 }
    },
  }),
]
