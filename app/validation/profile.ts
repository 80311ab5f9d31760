// Profile, wizard and card forms (spec §5), shared by conform and the actions.
import { z } from 'zod'
import {
  CardExtrasSchema,
  COMPANY_MAX_LENGTH,
  JOB_TITLE_MAX_LENGTH,
  PHONE_MAX_LENGTH,
} from './card-details'
import { videoUrlField } from './card-video'
import {
  BOTH_NAMES_REQUIRED,
  hasBothNames,
  PERSON_NAME_MAX_LENGTH,
  requiredNameField,
} from './names'
import {
  confirmPasswordField,
  PASSWORD_MAX_LENGTH,
  PASSWORD_TOO_LONG,
  PASSWORDS_DO_NOT_MATCH,
  passwordField,
  typedPasswordField,
} from './passwords'
import { plainText } from './text'

const text = (max: number) => plainText(max)
const optionalText = (max: number) => text(max).optional().default('')

const optionalEmail = z
  .string()
  .trim()
  .max(254, 'Please enter a valid email address')
  .optional()
  .default('')
  .refine((v) => v === '' || z.email().safeParse(v).success, 'Please enter a valid email address')

/** A website: empty, or an http(s) URL (a bare domain gets https://). Never javascript: etc. */
export const WEBSITE_MAX_LENGTH = 300

export const websiteSchema = z
  .string()
  .trim()
  .max(WEBSITE_MAX_LENGTH, 'Please enter a valid URL')
  .optional()
  .default('')
  .transform((v) => (v === '' || /^https?:\/\//i.test(v) ? v : `https://${v}`))
  .refine((v) => {
    if (v === '') return true
    // The stored string is what is judged: the URL parser drops tabs and newlines inside a
    // URL, so `https://a.test\n/x` would pass as parsed and be stored with its newline.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    if (/[\s\u0000-\u001f\u007f]/.test(v)) return false
    try {
      const url = new URL(v)
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.')
    } catch {
      return false
    }
  }, 'Please enter a valid URL')

export const ProfileSchema = z.object({
  firstName: requiredNameField('First name'),
  lastName: requiredNameField('Last name'),
  email: z
    .string({ error: 'Please enter a valid email address' })
    .trim()
    .max(254)
    .pipe(z.email({ error: 'Please enter a valid email address' })),
  workEmail: optionalEmail,
  phoneNumber: optionalText(PHONE_MAX_LENGTH),
  company: optionalText(COMPANY_MAX_LENGTH),
  jobTitle: optionalText(JOB_TITLE_MAX_LENGTH),
  website: websiteSchema,
  // Needed only when the email changes: the server checks it (the browser cannot).
  currentPassword: z.string().max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG).optional(),
})

export const CHANGE_EMAIL_PASSWORD_MESSAGE =
  'Please enter your current password to change your email'

export const ChangePasswordSchema = z
  .object({
    currentPassword: typedPasswordField('Please enter your current password'),
    newPassword: passwordField(),
    confirmPassword: confirmPasswordField(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: PASSWORDS_DO_NOT_MATCH,
    path: ['confirmPassword'],
  })

// Wizard steps (spec §5): step 1 needs both names; step 2 a valid work email if filled.
export const WizardNameSchema = z
  .object({
    firstName: text(PERSON_NAME_MAX_LENGTH).optional().default(''),
    lastName: text(PERSON_NAME_MAX_LENGTH).optional().default(''),
  })
  .refine((v) => hasBothNames(v.firstName, v.lastName), {
    message: BOTH_NAMES_REQUIRED,
    path: ['firstName'],
  })
// Issue 28's details, optional, in the steps where they belong: the second phone and the address
// with the contact step, pronouns, bio and links with the work step.
export const WizardContactSchema = z.object({
  workEmail: optionalEmail,
  phoneNumber: optionalText(PHONE_MAX_LENGTH),
  ...CardExtrasSchema.pick({
    phoneType: true,
    phone2: true,
    phone2Type: true,
    addressStreet: true,
    addressCity: true,
    addressRegion: true,
    addressPostalCode: true,
    addressCountry: true,
  }).shape,
})
export const WizardWorkSchema = z.object({
  company: optionalText(COMPANY_MAX_LENGTH),
  jobTitle: optionalText(JOB_TITLE_MAX_LENGTH),
  website: websiteSchema,
  ...CardExtrasSchema.pick({ department: true, pronouns: true, bio: true, links: true }).shape,
})

export const CardDetailsSchema = z.object({
  title: plainText(100, undefined, 'Title is required').min(1, 'Title is required'),
  // A checkbox: present ('on') hides the public page from search engines.
  noindex: z
    .literal('on')
    .optional()
    .transform((v) => v === 'on'),
  firstName: requiredNameField('First name'),
  lastName: requiredNameField('Last name'),
  email: optionalEmail,
  workEmail: optionalEmail,
  phoneNumber: optionalText(PHONE_MAX_LENGTH),
  company: optionalText(COMPANY_MAX_LENGTH),
  jobTitle: optionalText(JOB_TITLE_MAX_LENGTH),
  website: websiteSchema,
  // Issue 28: bio, pronouns, typed phones, address and links (their one module).
  ...CardExtrasSchema.shape,
  // Issue 41 point 6: a YouTube or Vimeo address, stored as provider and id (ADR 083).
  videoUrl: videoUrlField,
})
