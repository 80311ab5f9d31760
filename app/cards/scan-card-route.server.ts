// "Scan a card" (issue 45 point 3, ADR 101): the photo of a paper business card is read on this
// server (card-ocr.server.ts) and never stored; what was read comes back as a proposal the person
// corrects, and saving it adds a contact with the source "scan" through the one path every new
// contact takes (CRM and webhooks included).
import type { AppLoadContext } from '@remix-run/node'
import { intentAction } from '#app/actions/intent-action.server'
import { requireUser } from '#app/auth/guards.server'
import { CardReadError, readCardPhoto } from '#app/cards/card-ocr.server'
import { type CardProposal, parseCardText } from '#app/cards/card-text'
import { addContactAndForward } from '#app/crm/forwarding.server'
import { Refusal } from '#app/utils/action-error'
import {
  NOTHING_READ,
  SCANNED_DUPLICATE,
  SCANNED_SAVED,
  ScanCardSchema,
} from '#app/validation/scan-card'
import { withTenant } from '#drizzle/db.server'

export const SCAN_CARD_PATH = '/contacts/scan'

export async function scanCardLoader(request: Request, context: AppLoadContext) {
  await requireUser(request, context)
  return {}
}

/** The form's fields as proposed: the first email and phone in their fields, the others in the note. */
export function proposedFields(proposal: CardProposal) {
  const [email = '', ...otherEmails] = proposal.emails
  const [phoneNumber = '', ...otherPhones] = proposal.phones
  const note = [
    ...otherPhones.map((phone) => `Phone: ${phone}`),
    ...otherEmails.map((other) => `Email: ${other}`),
  ].join('\n')
  return {
    fullName: proposal.fullName,
    jobTitle: proposal.jobTitle,
    company: proposal.company,
    email,
    phoneNumber,
    website: proposal.website,
    note,
  }
}

export async function scanCardAction(request: Request, context: AppLoadContext) {
  return intentAction(request, {
    guard: () => requireUser(request, context),
    schema: ScanCardSchema,
    redirectTo: SCAN_CARD_PATH,
    multipart: { intent: 'read' },
    intents: {
      read: async ({ photo }) => {
        let text: string
        try {
          text = await readCardPhoto(new Uint8Array(await photo.arrayBuffer()))
        } catch (error) {
          if (!(error instanceof CardReadError)) throw error
          if (error.reason === 'busy') {
            return new Refusal('rate_limited', error.message, {
              field: 'photo',
              retryAfterSeconds: 5,
            })
          }
          return new Refusal(
            error.reason === 'timeout' ? 'unprocessable' : 'invalid',
            error.message,
            {
              field: 'photo',
            },
          )
        }
        const proposal = proposedFields(parseCardText(text))
        const found = Object.values(proposal).some(Boolean)
        return {
          reply: { proposal, found, message: found ? null : NOTHING_READ },
          result: { resetForm: true },
        }
      },
      save: async (value, { tenant, user }) => {
        const note = [value.website ? `Website: ${value.website}` : '', value.note]
          .filter(Boolean)
          .join('\n')
        const added = await withTenant(tenant.id, (tx) =>
          addContactAndForward(tx, tenant.id, user.id, {
            fullName: value.fullName,
            jobTitle: value.jobTitle,
            company: value.company,
            email: value.email,
            phoneNumber: value.phoneNumber,
            note,
            source: 'scan',
          }),
        )
        if (added.status === 'duplicate') {
          return new Refusal('conflict', SCANNED_DUPLICATE, { field: 'email' })
        }
        return { toast: SCANNED_SAVED, redirectTo: `/contacts/${added.contact.id}` }
      },
    },
  })
}
