// "Scan a card" (issue 45 point 3, ADR 101): the photo the person takes or picks, and the
// contact proposed from it, which they correct before saving. One schema for the page's form and
// the action.
import { z } from 'zod'
import { JOB_TITLE_MAX_LENGTH } from './card-details'
import { typedContactFields } from './contact-fields'
import { singleLineText } from './text'

export const CHOOSE_CARD_PHOTO = 'Please take or choose a photo of the card'

/** The photo: a file the browser sends; its bytes are checked by the server (size, image). */
export const ReadCardSchema = z.object({
  intent: z.literal('read'),
  photo: z
    .instanceof(File, { error: CHOOSE_CARD_PHOTO })
    .refine((file) => file.size > 0, CHOOSE_CARD_PHOTO),
})

/** The contact as the person corrected it; only the name is required. */
export const SaveScannedSchema = z.object({
  intent: z.literal('save'),
  ...typedContactFields,
  jobTitle: singleLineText(
    JOB_TITLE_MAX_LENGTH,
    `Title must be at most ${JOB_TITLE_MAX_LENGTH} characters`,
  )
    .optional()
    .default(''),
  website: singleLineText(200, 'Website must be at most 200 characters').optional().default(''),
})

export const ScanCardSchema = z.discriminatedUnion('intent', [ReadCardSchema, SaveScannedSchema])

/** What the page shows when a reading found nothing it could propose. */
export const NOTHING_READ =
  'No text could be read on this photo. Please try a sharper, well-lit photo, or type the details.'

/** The toast once the contact is saved. */
export const SCANNED_SAVED = 'Contact saved'
export const SCANNED_DUPLICATE = 'This contact is already in your list'
