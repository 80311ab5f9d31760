// Team invitations (roles-teams-admin.md §3, §4, §7): the token is only stored as its hash, and
// only pending invitations can be looked up.
import { and, desc, eq, gt, type SQL } from 'drizzle-orm'
import { INVITATION_TTL_MS } from '#app/validation/invitation-lifetime'
import type { TeamRole } from '#app/validation/teams'
import type { Queryable } from '#drizzle/db.server'
import { teamInvitations, teams, users } from '#drizzle/schema'
import { tenantJoin } from './tenant-join.server'

/** The organization's pending invitations, narrowed by `more` (a team, an address, a token). */
const pendingOf = (organizationId: string, ...more: SQL[]) =>
  and(
    eq(teamInvitations.organizationId, organizationId),
    ...more,
    eq(teamInvitations.status, 'pending'),
  )

/**
 * A new pending invitation. An earlier pending one for the same address and team is replaced
 * (its link stops working), so inviting again re-sends rather than piling up rows.
 */
export async function insertInvitation(
  db: Queryable,
  organizationId: string,
  input: {
    teamId: string
    email: string
    role: TeamRole
    tokenHash: string
    invitedByUserId: string
  },
) {
  await db
    .delete(teamInvitations)
    .where(
      pendingOf(
        organizationId,
        eq(teamInvitations.teamId, input.teamId),
        eq(teamInvitations.email, input.email),
      ),
    )
  const [row] = await db
    .insert(teamInvitations)
    .values({ organizationId, ...input, expiresAt: new Date(Date.now() + INVITATION_TTL_MS) })
    .returning()
  if (!row) throw new Error('invitation insert returned nothing')
  return row
}

/** The pending invitation for this address, if any (to tell a re-send from a new seat). */
export async function findPendingInvitationForEmail(
  db: Queryable,
  organizationId: string,
  teamId: string,
  email: string,
) {
  const [row] = await db
    .select({ id: teamInvitations.id, expiresAt: teamInvitations.expiresAt })
    .from(teamInvitations)
    .where(
      pendingOf(
        organizationId,
        eq(teamInvitations.teamId, teamId),
        eq(teamInvitations.email, email),
        gt(teamInvitations.expiresAt, new Date()),
      ),
    )
  return row
}

/** The team's pending invitations, newest first (spec §7, "List invitations"). */
export function listPendingInvitations(db: Queryable, organizationId: string, teamId: string) {
  return db
    .select({
      id: teamInvitations.id,
      email: teamInvitations.email,
      role: teamInvitations.role,
      expiresAt: teamInvitations.expiresAt,
      createdAt: teamInvitations.createdAt,
    })
    .from(teamInvitations)
    .where(pendingOf(organizationId, eq(teamInvitations.teamId, teamId)))
    .orderBy(desc(teamInvitations.createdAt), desc(teamInvitations.id))
}

/**
 * The pending invitation with this token hash, with its team and inviter (spec §4: only
 * pending invitations can be looked up). `lock` holds it for the rest of the transaction.
 */
export async function findPendingInvitationByTokenHash(
  db: Queryable,
  organizationId: string,
  tokenHash: string,
  { lock = false } = {},
) {
  const query = db
    .select({
      id: teamInvitations.id,
      teamId: teamInvitations.teamId,
      email: teamInvitations.email,
      role: teamInvitations.role,
      expiresAt: teamInvitations.expiresAt,
      teamName: teams.name,
      inviterFirstName: users.firstName,
      inviterLastName: users.lastName,
    })
    .from(teamInvitations)
    .innerJoin(teams, tenantJoin(teams, teamInvitations, teams.id, teamInvitations.teamId))
    .leftJoin(users, tenantJoin(users, teamInvitations, users.id, teamInvitations.invitedByUserId))
    .where(pendingOf(organizationId, eq(teamInvitations.tokenHash, tokenHash)))
    .limit(1)
  const [row] = lock ? await query.for('update', { of: teamInvitations }) : await query
  return row
}

/** Moves a pending invitation on (accepted, declined or expired); false when it was not pending. */
export async function setInvitationStatus(
  db: Queryable,
  organizationId: string,
  invitationId: string,
  status: 'accepted' | 'declined' | 'expired',
) {
  const updated = await db
    .update(teamInvitations)
    .set({ status })
    .where(pendingOf(organizationId, eq(teamInvitations.id, invitationId)))
    .returning({ id: teamInvitations.id })
  return updated.length > 0
}

/** Cancelling deletes the invitation (spec §2.10); only a pending one of this team. */
export async function deleteInvitation(
  db: Queryable,
  organizationId: string,
  teamId: string,
  invitationId: string,
) {
  const deleted = await db
    .delete(teamInvitations)
    .where(
      pendingOf(
        organizationId,
        eq(teamInvitations.teamId, teamId),
        eq(teamInvitations.id, invitationId),
      ),
    )
    .returning({ id: teamInvitations.id, email: teamInvitations.email })
  return deleted[0]
}
