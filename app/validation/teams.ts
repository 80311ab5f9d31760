// Forms of the team page (roles-teams-admin.md §5), shared by conform and the team action.
import { z } from 'zod'
import { PAID_PLAN_IDS } from '#app/validation/plans'
import { emailField } from './auth'
import { nameField, TEAM_NAME_MAX } from './names'
import { plainText } from './text'

export const TEAM_ROLES = ['admin', 'manager', 'member', 'viewer'] as const
export type TeamRole = (typeof TEAM_ROLES)[number]

export const TEAM_ID_REQUIRED = 'Team ID is required'

const teamId = z
  .string({ error: TEAM_ID_REQUIRED })
  .trim()
  .min(1, TEAM_ID_REQUIRED)
  .max(64, TEAM_ID_REQUIRED)
const rowId = (message: string) => z.string({ error: message }).trim().min(1, message).max(64)

export const TeamFieldsSchema = z.object({
  name: nameField('Team name', TEAM_NAME_MAX),
  description: plainText(500, 'Description must be at most 500 characters').optional().default(''),
})

const teamRole = z.enum(TEAM_ROLES, { error: 'Please select a role' })

export const InviteMemberSchema = z.object({
  teamId,
  email: emailField(),
  // Left out, the agency's default team role applies (team-policy.server.ts); the dialog
  // preselects it, so only a client without the dialog sends none.
  role: teamRole.optional(),
})

// The dialogs' forms validate with these in the browser; the action parses the union of them.
export const CreateTeamSchema = TeamFieldsSchema.extend({ intent: z.literal('create-team') })
export const UpdateTeamSchema = TeamFieldsSchema.extend({
  intent: z.literal('update-team'),
  teamId,
})
export const AddMemberSchema = InviteMemberSchema.extend({ intent: z.literal('add-member') })

export const TeamIntentSchema = z.discriminatedUnion('intent', [
  CreateTeamSchema,
  UpdateTeamSchema,
  z.object({ intent: z.literal('delete-team'), teamId }),
  AddMemberSchema,
  z.object({
    intent: z.literal('change-role'),
    teamId,
    memberId: rowId('Member ID is required'),
    role: teamRole,
  }),
  z.object({
    intent: z.literal('remove-member'),
    teamId,
    memberId: rowId('Member ID is required'),
  }),
  z.object({
    intent: z.literal('cancel-invitation'),
    teamId,
    invitationId: rowId('Invitation ID is required'),
  }),
  z.object({
    intent: z.literal('upgrade'),
    plan: z.enum(PAID_PLAN_IDS, { error: 'Please choose a plan' }),
  }),
  // Without a payment provider the upgrade is a request to the agency's admins (ADR 079).
  z.object({
    intent: z.literal('request-plan'),
    plan: z.enum(PAID_PLAN_IDS, { error: 'Please choose a plan' }),
  }),
  z.object({ intent: z.literal('withdraw-plan-request') }),
  // Update Billing Info and View Invoices: Stripe's customer portal (ADR 051).
  z.object({ intent: z.literal('billing-portal') }),
])
export type TeamIntent = z.output<typeof TeamIntentSchema>['intent']

export const InvitationResponseSchema = z.object({
  intent: z.enum(['accept', 'decline'], { error: 'Please choose accept or decline' }),
})
