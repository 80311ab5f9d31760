// An agency's announcement to its end users (issue 30 point 2, ADR 046): one schema for the
// form and the action, and the daily limit's number and message in one place for both.
import { z } from 'zod'
import { plainText } from './text'

export const SUBJECT_MAX = 120
export const BODY_MAX = 5000

/** At most this many announcements per agency in a day (a fixed 24-hour window, ADR 046). */
export const ANNOUNCEMENTS_PER_DAY = 3

export const SUBJECT_REQUIRED = 'Subject is required'
export const BODY_REQUIRED = 'Message is required'

export function dailyLimitMessage(hoursLeft: number) {
  const wait = hoursLeft <= 1 ? 'an hour' : `${hoursLeft} hours`
  return `Your agency has sent ${ANNOUNCEMENTS_PER_DAY} announcements today, the most allowed per day. Nothing was sent; you can send the next one in ${wait}.`
}

export const NO_RECIPIENTS_MESSAGE =
  'None of your end users or team members has turned on Marketing Communications yet, so there is nobody to send to.'

const subject = plainText(
  SUBJECT_MAX,
  `Subject must be at most ${SUBJECT_MAX} characters`,
  SUBJECT_REQUIRED,
)
  .min(1, SUBJECT_REQUIRED)
  // One line: the subject becomes an email header.
  .refine((value) => !/[\r\n]/.test(value), 'The subject must be one line')

const body = plainText(
  BODY_MAX,
  `Message must be at most ${BODY_MAX} characters`,
  BODY_REQUIRED,
).min(1, BODY_REQUIRED)

/** The form's two fields; the page previews them as they are typed, the action sends them. */
export const AnnouncementSchema = z.object({ subject, body })
export type AnnouncementInput = z.output<typeof AnnouncementSchema>
