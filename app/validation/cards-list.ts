// The digital cards list's forms (roles-teams-admin.md §2.7, §4), shared by the create dialog's
// conform form and the list's action.
import { z } from 'zod'
import { plainText } from './text'

export const CARD_TITLE_MAX_LENGTH = 100

/** The create-card dialog: a title (blank: "{first name}'s Card") and the method. */
export const CreateCardSchema = z.object({
  intent: z.literal('create'),
  method: z.enum(['duplicate', 'new']).default('duplicate'),
  title: plainText(
    CARD_TITLE_MAX_LENGTH,
    `Title must be at most ${CARD_TITLE_MAX_LENGTH} characters`,
  )
    .optional()
    .default(''),
})

export const CardsListIntentSchema = z.discriminatedUnion('intent', [
  CreateCardSchema,
  z.object({ intent: z.literal('set-default'), cardId: z.string().max(64) }),
  z.object({ intent: z.literal('delete'), cardId: z.string().max(64) }),
  // ADR 095: an archived card shows nothing anywhere until it is restored.
  z.object({ intent: z.literal('archive'), cardId: z.string().max(64) }),
  z.object({ intent: z.literal('restore'), cardId: z.string().max(64) }),
])
