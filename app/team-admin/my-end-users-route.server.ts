// The team member's 'My End Users' (roles-teams-admin.md §2.13, issue 14 point 3): the end
// users assigned to them, a QR per user, Add User (an end user of this organization assigned to
// them) and Export Data.

import { type AppLoadContext, data } from '@remix-run/node'
import { intentAction } from '#app/actions/intent-action.server'
import { createUserWithPassword } from '#app/auth/accounts.server'
import { queueSetPasswordEmailIn, unknowablePassword } from '#app/auth/created-account.server'
import { requireRole } from '#app/auth/guards.server'
import { assertEndUserSeat } from '#app/billing/plan-limits.server'
import { isPublicCard } from '#app/cards/card-visibility'
import { cardLinkUrl } from '#app/cards/short-link'
import { type AssignedEndUser, listAssignedEndUsers } from '#app/models/assigned-users.server'
import { recordAudit } from '#app/models/audit.server'
import { findUserByEmail, normalizeEmail, type User } from '#app/models/users.server'
import { tenantOrigin } from '#app/tenancy/origin.server'
import type { Tenant } from '#app/tenancy/tenant.server'
import { Refusal } from '#app/utils/action-error'
import { csvResponse } from '#app/utils/csv-response.server'
import { refusedExport } from '#app/utils/refused-export.server'
import { AddEndUserSchema } from '#app/validation/end-users'
import { readSearch } from '#app/validation/search'
import { StoredPrivacySchema } from '#app/validation/settings'
import { splitName } from '#app/validation/text'
import { withTenant } from '#drizzle/db.server'

export const MY_END_USERS_PATH = '/dashboard/team-member/users'
const TEAM_MEMBER_ONLY = ['team_admin'] as const

const searchOf = (request: Request) => readSearch(new URL(request.url).searchParams)

export async function myEndUsersLoader(request: Request, context: AppLoadContext) {
  const { tenant, user } = await requireRole(request, context, TEAM_MEMBER_ONLY)
  const { q, searchError } = searchOf(request)
  const rows = searchError
    ? []
    : await withTenant(tenant.id, (tx) => listAssignedEndUsers(tx, tenant.id, user.id, q))
  return data({
    q,
    searchError,
    origin: tenantOrigin(tenant),
    now: new Date().toISOString(),
    // The owners' preferences stay on the server: the page needs none of them.
    users: rows.map(({ preferences: _preferences, ...row }) => ({
      ...row,
      lastActiveAt: row.lastActiveAt?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
    })),
  })
}

/** The new end user, assigned to the team member who added them; null when the email is taken. */
async function addAssignedEndUser(
  tenant: Tenant,
  user: User,
  { name, email, active }: { name: string; email: string; active: boolean },
) {
  const createdBy = {
    name: `${user.firstName} ${user.lastName}`.trim() || user.email,
    userId: user.id,
  }
  return withTenant(tenant.id, async (tx) => {
    if (await findUserByEmail(tx, tenant.id, email)) return null
    // The team member's plan caps how many end users they look after (ADR 051).
    await assertEndUserSeat(tx, tenant.id, user)
    const created = await createUserWithPassword(tx, tenant.id, {
      ...splitName(name),
      email,
      password: unknowablePassword(),
      role: 'end_user',
      status: active ? 'active' : 'inactive',
      assignedToUserId: user.id,
    })
    await recordAudit(tx, tenant.id, {
      actorUserId: user.id,
      action: 'user.created',
      entityType: 'user',
      entityId: created.id,
      metadata: { role: 'end_user', assignedToUserId: user.id, status: created.status },
    })
    // An inactive account cannot sign in: its owner is emailed once someone activates it.
    if (active) await queueSetPasswordEmailIn(tx, tenant, created, createdBy)
    return { created }
  })
}

export async function myEndUsersAction(request: Request, context: AppLoadContext) {
  return intentAction(request, {
    guard: () => requireRole(request, context, TEAM_MEMBER_ONLY),
    schema: AddEndUserSchema,
    intents: {
      'add-user': async ({ name, email, active }, { tenant, user }) => {
        // Past a send limit (the set-password email) the helper answers 429, and the account
        // was not created.
        const outcome = await addAssignedEndUser(tenant, user, { name, email, active })
        if (!outcome) {
          const message = `An account with the email ${normalizeEmail(email)} already exists`
          throw new Refusal('conflict', message, { field: 'email' })
        }
        return {
          toast: 'User added',
          description: active
            ? `${outcome.created.email} gets an email to set a password.`
            : undefined,
        }
      },
    },
    redirectTo: MY_END_USERS_PATH,
  })
}

/**
 * A file travels further than the page it came from: it lists only a card anyone may open
 * (issue 39 point 3), never the link of one its owner keeps to themselves or their teams.
 */
function cardIsPublic(row: AssignedEndUser) {
  const stored = (row.preferences ?? {}) as { privacy?: unknown }
  return isPublicCard(StoredPrivacySchema.parse(stored.privacy ?? {}).visibility)
}

/** Export Data: the assigned end users (as searched) as CSV. */
export async function myEndUsersCsv(request: Request, context: AppLoadContext) {
  const { tenant, user } = await requireRole(request, context, TEAM_MEMBER_ONLY)
  const { q, searchError } = searchOf(request)
  if (searchError) return refusedExport(searchError)
  const origin = tenantOrigin(tenant)
  const rows = await withTenant(tenant.id, (tx) => listAssignedEndUsers(tx, tenant.id, user.id, q))
  const lines = [
    ['First name', 'Last name', 'Email', 'Status', 'Last active', 'Cards', 'Card link', 'Added'],
    ...rows.map((row) => [
      row.firstName,
      row.lastName,
      row.email,
      row.status,
      row.lastActiveAt?.toISOString() ?? '',
      String(row.cardCount),
      row.cardId && cardIsPublic(row)
        ? cardLinkUrl(origin, { card: { id: row.cardId }, shortSlug: row.cardSlug })
        : '',
      row.createdAt.toISOString(),
    ]),
  ]
  return csvResponse(lines, 'my-end-users.csv')
}
