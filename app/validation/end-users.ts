// The Add User form of the team member's 'My End Users' (roles-teams-admin.md §5, end user form;
// the agency is the team member's own).
import { z } from 'zod'
import { emailField } from './auth'
import { NAME_MAX_LENGTH, nameField } from './names'

export const AddEndUserSchema = z.object({
  intent: z.literal('add-user'),
  name: nameField('Name', NAME_MAX_LENGTH.fullName),
  email: emailField(),
  // A checkbox: sent as 'on' when ticked, absent when not (the form ticks it by default).
  active: z.boolean({ error: 'Please choose active or not' }).optional().default(false),
})
