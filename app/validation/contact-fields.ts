// The fields of a contact someone types in for another person (a scanned card, a lead captured
// offline): one home for their rules and messages, so the two forms cannot drift apart.
import { z } from 'zod'
import {
  COMPANY_MAX_LENGTH,
  COMPANY_TOO_LONG,
  PHONE_MAX_LENGTH,
  PHONE_TOO_LONG,
} from './card-details'
import { NAME_MAX_LENGTH, NAME_MIN_LENGTH, nameTooLong } from './names'
import { isSingleLine, plainText, SINGLE_LINE_MESSAGE, singleLineText } from './text'

export const ENTER_CONTACT_NAME = "Please enter the person's name"
const ENTER_EMAIL = 'Please enter a valid email address'

/** The person's full name: the one field a contact needs. */
export const contactFullName = z
  .string({ error: ENTER_CONTACT_NAME })
  .trim()
  .min(NAME_MIN_LENGTH, ENTER_CONTACT_NAME)
  .max(NAME_MAX_LENGTH.fullName, nameTooLong('Name', NAME_MAX_LENGTH.fullName))
  .refine(isSingleLine, SINGLE_LINE_MESSAGE)

/** An email, or nothing. */
export const optionalContactEmail = z
  .union([
    z.literal(''),
    z
      .string()
      .trim()
      .max(254, ENTER_EMAIL)
      .pipe(z.email({ error: ENTER_EMAIL })),
  ])
  .optional()
  .default('')

export const optionalContactCompany = singleLineText(COMPANY_MAX_LENGTH, COMPANY_TOO_LONG)
  .optional()
  .default('')

export const optionalContactPhone = singleLineText(PHONE_MAX_LENGTH, PHONE_TOO_LONG)
  .optional()
  .default('')

/** What a stored contact says of the person. */
export type ContactPerson = {
  fullName: string
  email: string
  phoneNumber: string
  company: string
  jobTitle: string
  note: string
}

/** The person's fields of a contact, as the data export and the webhooks' payloads name them. */
export function contactPerson(contact: ContactPerson): ContactPerson {
  return {
    fullName: contact.fullName,
    email: contact.email,
    phoneNumber: contact.phoneNumber,
    company: contact.company,
    jobTitle: contact.jobTitle,
    note: contact.note,
  }
}

/** The longest note the owner may write on a contact they type in. */
export const CONTACT_NOTE_MAX_LENGTH = 2000

/** The owner's note on the contact (where they met, what to follow up), or nothing. */
export const optionalContactNote = plainText(CONTACT_NOTE_MAX_LENGTH, 'The note is too long')
  .optional()
  .default('')

/**
 * The fields both forms that type in another person ask for (a scanned card adds a job title and
 * a website): spread into each form's schema, so a field added to one reaches the other.
 */
export const typedContactFields = {
  fullName: contactFullName,
  company: optionalContactCompany,
  email: optionalContactEmail,
  phoneNumber: optionalContactPhone,
  note: optionalContactNote,
}
