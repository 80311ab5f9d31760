// The Add User form of the team member's 'My End Users' (roles-teams-admin.md §5, end user form;
// the agency is the team member's own).
import { z } from 'zod'
import { emailField } from './auth'
import { plainText } from './text'

const NAME_TOO_SHORT = 'Name must be at least 2 characters'

export const AddEndUserSchema = z.object({
  intent: z.literal('add-user'),
  name: plainText(100, 'Name must be at most 100 characters', NAME_TOO_SHORT).pipe(
    z.string({ error: NAME_TOO_SHORT }).min(2, NAME_TOO_SHORT),
  ),
  email: emailField(),
  // A checkbox: sent as 'on' when ticked, absent when not (the form ticks it by default).
  active: z.boolean({ error: 'Please choose active or not' }).optional().default(false),
})
