// Postgres only (a *.postgres.test.ts file): PGlite runs one query at a time, so two
// transactions can never wait on each other's locks there.
//
// Every team operation locks the team before its invitations. Accepting must too: an admin who
// cancels or re-sends the invitation (team, then invitation) while it is being accepted would
// otherwise deadlock with it, and one of the two would fail with a 500.
import { and, eq, sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { hashToken } from '#app/email/link-token.server'
import { insertInvitation } from '#app/models/team-invitations.server'
import { createTeamWithAdmin } from '#app/models/teams.server'
import { answerInvitation } from '#app/teams/invitations.server'
import { resolveTenant } from '#app/tenancy/tenant.server'
import { Refusal } from '#app/utils/action-error'
import { getDb, withTenant } from '#drizzle/db.server'
import { teamMembers } from '#drizzle/schema'
import { makeOrganization, makeUser, uniqueSuffix } from '#tests/factories'

test('accepting while an admin cancels the invitation does not deadlock', async () => {
  const organization = await makeOrganization()
  const resolution = await resolveTenant(`${organization.slug}.localhost`)
  if (resolution.status !== 'found') throw new Error('tenant not found')
  const owner = await makeUser(organization.id, { plan: 'team_pro' })
  const invitee = await makeUser(organization.id, { email: `inv-${uniqueSuffix()}@example.test` })
  const token = 'a'.repeat(52)
  const { team, invitation } = await withTenant(organization.id, async (tx) => {
    const created = await createTeamWithAdmin(tx, organization.id, owner.id, {
      name: 'Locks',
      description: '',
    })
    const row = await insertInvitation(tx, organization.id, {
      teamId: created.id,
      email: invitee.email,
      role: 'member',
      tokenHash: hashToken(token),
      invitedByUserId: owner.id,
    })
    return { team: created, invitation: row }
  })

  let accepting: Promise<unknown> | undefined
  await getDb().transaction(async (tx) => {
    // What cancel-invitation does, held open: the team locked first...
    await tx.execute(sql`select id from teams where id = ${team.id} for update`)
    accepting = answerInvitation(resolution.tenant, invitee, token, 'accept').catch(
      (error: unknown) => error,
    )
    await new Promise((resolve) => setTimeout(resolve, 500))
    // ...then the invitation deleted.
    await tx.execute(sql`delete from team_invitations where id = ${invitation.id}`)
  })
  // The invitation was cancelled first: the accept finds nothing, and says so (a 404).
  const outcome = await accepting
  expect(outcome).toBeInstanceOf(Refusal)
  expect((outcome as Refusal).status).toBe(404)
  const joined = await getDb()
    .select()
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.userId, invitee.id)))
  expect(joined).toEqual([])
})
