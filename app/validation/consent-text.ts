// The Branding screen's lead form consent text (ADR 050), shared by its form and the action.
import { z } from 'zod'
import { plainText } from './text'

export const CONSENT_TEXT_MAX_LENGTH = 2000

export const ConsentTextSchema = z.object({
  intent: z.literal('save-consent'),
  // Empty (conform sends it as absent): the lead forms ask for no consent from now on.
  consentText: plainText(
    CONSENT_TEXT_MAX_LENGTH,
    `The consent text must be at most ${CONSENT_TEXT_MAX_LENGTH} characters`,
  )
    .optional()
    .default(''),
})

export const CONSENT_TOASTS = {
  saved: 'Consent text saved: your lead forms show it from now on',
  removed: 'Consent text removed: your lead forms no longer ask for consent',
} as const
