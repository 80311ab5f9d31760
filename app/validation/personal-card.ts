// A personal card that follows a person who leaves (issue 45 point 2, ADR 103): the claim form's
// schema, shared by the form and the action, and the texts the screens and emails share.
import { z } from 'zod'
import { PHONE_CHARACTERS, PHONE_MAX_LENGTH, PHONE_TOO_LONG } from './card-details'
import { requiredNameField } from './names'

/** The personal cards' public path on the platform's host. */
export const PERSONAL_CARD_PREFIX = '/p/'
export const personalCardPath = (slug: string) => `${PERSONAL_CARD_PREFIX}${slug}`
/** Where an emailed offer is claimed, on the agency's own host. */
export const PERSONAL_CARD_CLAIM_PATH = '/personal-card/claim'

export const EMAIL_INVALID = 'Please enter a valid email address'
export const PHONE_INVALID = 'Please enter a valid phone number'
export const EMAIL_OR_PHONE_REQUIRED =
  'Please enter a personal email or phone, so people can reach you'

/** The Hand Over dialog's choice: offer the departing person a personal card. */
export const OFFER_PERSONAL_CARD_LABEL = 'Offer a personal card'
export const OFFER_PERSONAL_CARD_HINT =
  'We email them a link to create a card of their own: their name and the personal email or phone they choose, nothing of the company. Followers of their cards are told where to find them once they have left.'
/** The hand-over's toast line when the offer went out. */
export const PERSONAL_CARD_OFFERED = 'We emailed them a link to create a personal card.'

/** The card's own fields: a name and the personal email or phone the person chooses. */
const personalCardFields = {
  firstName: requiredNameField('First name'),
  lastName: requiredNameField('Last name'),
  email: z
    .string()
    .trim()
    .max(254, EMAIL_INVALID)
    .optional()
    .transform((value) => value ?? '')
    .refine((value) => value === '' || z.email().safeParse(value).success, EMAIL_INVALID),
  phone: z
    .string()
    .trim()
    .max(PHONE_MAX_LENGTH, PHONE_TOO_LONG)
    .optional()
    .transform((value) => value ?? '')
    .refine((value) => value === '' || PHONE_CHARACTERS.test(value), PHONE_INVALID),
}

const emailOrPhone = (value: { email: string; phone: string }, ctx: z.RefinementCtx) => {
  if (!value.email && !value.phone) {
    ctx.addIssue({ code: 'custom', path: ['email'], message: EMAIL_OR_PHONE_REQUIRED })
  }
}

/**
 * The claim form: the name (prefilled from the account, which the person may change) and the
 * personal email and phone the person chooses to show; nothing of the agency's.
 */
export const ClaimPersonalCardSchema = z
  .object({ intent: z.literal('claim'), ...personalCardFields })
  .superRefine(emailOrPhone)

/** Where a personal card's owner asks for a link to edit or remove it (the platform's host). */
export const personalCardManageRequestPath = (slug: string) => `${personalCardPath(slug)}/manage`
/** Where that emailed link opens the card's edit form. */
export const PERSONAL_CARD_MANAGE_PATH = '/personal-card/manage'

/** The card page's way to its owner's edit form. */
export const MANAGE_PERSONAL_CARD_LINK = 'Edit or remove this card'
/** The answer to every request for a link, whether the address is the card's or not. */
export const MANAGE_LINK_SENT = (words: string) =>
  `If that is the email on this card, we sent it a link to edit or remove the card. The link works for ${words}.`
export const MANAGE_LINK_INVALID =
  'This link no longer works: it has expired, a newer one was sent, or the card was removed.'
export const PERSONAL_CARD_SAVED = 'Your personal card is saved.'
export const PERSONAL_CARD_REMOVED = 'Your personal card is removed.'

/** Asking for that link: the card's personal email (the answer is the same for any address). */
export const RequestManageLinkSchema = z.object({
  email: z
    .string({ error: EMAIL_INVALID })
    .trim()
    .max(254, EMAIL_INVALID)
    .pipe(z.email(EMAIL_INVALID)),
})

/** The emailed link's form: save the card's fields, or remove the card. */
export const ManagePersonalCardSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('save'), ...personalCardFields }).superRefine(emailOrPhone),
  z.object({ intent: z.literal('remove') }),
])
